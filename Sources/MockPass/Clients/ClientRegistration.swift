import Crypto
import PassModel

/// A client registered through Adobe's DCR with a software statement (facts §1 "Registration").
struct RegisteredClient: Sendable {
    var secret: String
    var softwareStatement: String
}

/// A Bearer access token of a registered client.
struct AccessToken: Sendable {
    var softwareStatement: String
    var expires: Instant
}

/// The DCR endpoints' refusals as Adobe's pages document them ("Retrieve client credentials" and
/// "Retrieve access token", Error): status 400 and the body `{"error": CODE}`, nothing else. The
/// reason stays the failure's `message` (the mock's own words, for tests), never on the wire.
enum DCRError: String, Sendable {
    // Register: a parameter missing or repeated, a value of the wrong type, a body that is not a
    // JSON object. Token: the same, or two ways of authenticating the client.
    case invalidRequest = "invalid_request"
    // Register.
    case invalidRedirectURI = "invalid_redirect_uri"
    case invalidSoftwareStatement = "invalid_software_statement"
    // Token.
    case invalidClient = "invalid_client"
    case unauthorizedClient = "unauthorized_client"
    case unsupportedGrantType = "unsupported_grant_type"
}

extension HandlerFailure {
    /// A DCR refusal: 400 `{"error": code}` (`message` says why).
    static func dcr(_ code: DCRError, _ why: String) -> HandlerFailure {
        HandlerFailure(status: 400, message: why, jsonBody: .dict([Value.Entry("error", .string(code.rawValue))]))
    }

    /// A refusal met on a DCR request before its handler (a parameter over `mock-value-bytes`, two
    /// requestors named) in the DCR form: `invalid_request`. A wrong method stays a 405.
    var inDCRForm: HandlerFailure {
        guard status != 405, jsonBody?["error"] == nil else { return self }
        return .dcr(.invalidRequest, message)
    }
}

extension Endpoint {
    /// `POST /o/client/register` or `/o/client/token`: no Bearer gate (they are how a client gets
    /// its token) and refusals in the DCR form.
    var isClientRegistration: Bool {
        switch self {
        case .route(.clientRegister, _), .route(.clientToken, _): return true
        default: return false
        }
    }
}

/// What the DCR endpoints check and answer besides their stores.
enum DCRWire {
    /// The one grant type a registration gives (its `grant_types`).
    static let grantType = "client_credentials"
    /// A grant type Adobe's server knows (`dcrApi.json`'s token operation takes a `refresh_token`) but
    /// none of the mock's clients holds: `unauthorized_client`. Any other is `unsupported_grant_type`.
    static let knownGrantTypes: Set<String> = ["client_credentials", "refresh_token"]
    /// The APIs a registered client may call: the register page's sample's.
    static let scopes = ["api:client:v2"]

    /// A redirect URI the mock takes: an absolute URI (RFC 3986: a scheme, `:`, something after it) of
    /// printable ASCII without spaces, at most `mock-value-bytes`. A fragment is allowed (the page's
    /// sample answers one); nothing else of its form is checked.
    static func redirectURIProblem(_ uri: String) -> String? {
        guard !uri.isEmpty else { return "redirect_uri is empty" }
        guard uri.utf8.count <= MockLimits.valueBytes else {
            return "redirect_uri is \(uri.utf8.count) bytes, over the limit of \(MockLimits.valueBytes)"
                + " (limit: mock-value-bytes)"
        }
        guard uri.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            return "redirect_uri has a character that is not printable ASCII"
        }
        guard let colon = uri.firstIndex(of: ":"), colon != uri.startIndex, uri.index(after: colon) != uri.endIndex
        else { return "redirect_uri is not an absolute URI" }
        let scheme = uri[..<colon].utf8
        guard let first = scheme.first, isLetter(first),
            scheme.allSatisfy({ isLetter($0) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E })
        else { return "redirect_uri has no valid scheme" }
        return nil
    }

    private static func isLetter(_ c: UInt8) -> Bool { (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) }

    /// The token answer's `id`: an opaque identifier, derived from the token (SHA-256, shaped as an
    /// RFC 9562 version 8 UUID) so that it takes no value from the seeded stream and every token
    /// the mock ever issued keeps its place in it.
    static func tokenID(_ token: String) -> String {
        var bytes = Array(SHA256.hash(data: Array(("dcr-token-id:" + token).utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { String($0, radix: 16).leftPadded(2) }.joined()
        let cuts = [8, 12, 16, 20]
        var out = ""
        for (i, c) in hex.enumerated() {
            if cuts.contains(i) { out.append("-") }
            out.append(c)
        }
        return out
    }
}
