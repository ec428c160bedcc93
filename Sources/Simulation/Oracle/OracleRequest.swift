import PassModel

/// What a request the engine sends is, to the oracle: the one place a request is recognised, by
/// the ending of its URL that `PassModel.Route` defines.
/// Everything else in the oracle switches over `Kind`, exhaustively, so a new kind the oracle must
/// follow is a compile error wherever it matters, not a URL suffix missed in one of several places.
struct OracleRequest: Equatable, Sendable {
    enum Kind: Equatable, Sendable {
        /// `authorizeDevice`: an authorization asks for its authZ token for `resource` (REST API v2:
        /// `decisions/authorize`, its media token inside the decision).
        case authorize(resource: String?)
        /// `deviceShortAuthorize`: an authorization asks for its media token (the resource is not
        /// in the request: the oracle knows it from the authorization that sends it).
        case mediaToken
        /// `preauthorize` (REST API v2: `decisions/preauthorize`): a preauthorization's request.
        case preauthorize
        /// `authenticate/freepreview`: a login with a TempPass selected; REST API v2's `POST sessions`,
        /// with which every login starts, TempPass or not, before any callback.
        case tempPassLogin
        /// Dynamic Client Registration (`/o/client/register`, `/o/client/token`): a request that
        /// needs the access token waits behind it, its call's first request still to come.
        case registration
        /// Anything else (configuration, registration, session, logout, metadata, the browser's
        /// pages): the oracle follows none of it.
        case other
    }

    let kind: Kind
    /// The authN token it carries (`authentication_token`), read only from the kinds that carry one
    /// (the others are not decoded at all: the fuzzer's hot path).
    let authnToken: SentToken?

    init(_ request: HTTPRequest) {
        if let v2 = OracleRequest.restV2(request) {
            // REST API v2 carries no authN token: the device's headers name it.
            (kind, authnToken) = (v2, nil)
            return
        }
        let kind = OracleRequest.kind(ofPath: request.url)
        switch kind {
        case .authorize, .mediaToken, .preauthorize:
            let resource: String?
            if let fields = OracleRequest.escapedParameters(request) {
                // The token, some 5 KB escaped, is decoded only if a check reads its text.
                resource = fields.first { $0.name == "resource_id" }.map { FormCoding.unescape($0.escapedValue) }
                authnToken = fields.first { $0.name == "authentication_token" }.map {
                    .escaped(String($0.escapedValue))
                }
            } else {
                let parameters = request.parameters
                resource = parameters.first { $0.0 == "resource_id" }?.1
                authnToken = parameters.first { $0.0 == "authentication_token" }.map { .text($0.1) }
            }
            self.kind = if case .authorize = kind { .authorize(resource: resource) } else { kind }
        case .tempPassLogin, .registration, .other:
            self.kind = kind
            authnToken = nil
        }
    }

    /// By the URL's end, as the engine writes it (no query on these POSTs), compared as bytes with
    /// the endings `Route` defines (most requests are none of these: the fuzzer's hot path).
    static func kind(ofPath url: String) -> Kind {
        var url = url
        return url.withUTF8 { bytes in
            for (ending, kind) in OracleRequest.endings where bytes.count >= ending.count {
                let tail = UnsafeBufferPointer(rebasing: bytes[(bytes.count - ending.count)...])
                if tail.elementsEqual(ending) { return kind }
            }
            return .other
        }
    }

    /// The operations the oracle follows (PassModel's `WireOperation` table), each with its kind: a
    /// TempPass login is REST v2's `POST sessions`, with which every v2 login starts.
    private static let followed: [(WireOperation.ID, Kind)] = [
        (.authorize, .authorize(resource: nil)), (.mediaToken, .mediaToken), (.preauthorize, .preauthorize),
        (.tempPass, .tempPassLogin),
    ]

    /// The SDK wire's requests the oracle follows, by the bytes their URLs end with (their route's
    /// `pathEnding`, the whole path of these fixed ones), and Dynamic Client Registration's, which is
    /// the same on every wire and no operation of the table.
    private static let endings: [([UInt8], Kind)] =
        followed.compactMap { id, kind in
            guard case .sdk(let route) = WireOperation.named(id).sdk.request else { return nil }
            return (Array(route.pathEnding.utf8), kind)
        } + [
            (Array(Route.clientToken.pathEnding.utf8), .registration),
            (Array(Route.clientRegister.pathEnding.utf8), .registration),
        ]

    /// REST API v2's operations the oracle follows, by the table's v2 bindings.
    private static let v2Kinds: [V2Route.Operation: Kind] = {
        var kinds: [V2Route.Operation: Kind] = [:]
        for (id, kind) in followed {
            guard case .restV2(let operations)? = WireOperation.named(id).restV2?.request else { continue }
            for operation in operations { kinds[operation] = kind }
        }
        return kinds
    }()

    /// A REST API v2 request: its kind by the operations table, `.other` for one the oracle does not
    /// follow; nil for a request of another wire. The URL is parsed only when its bytes hold
    /// `/api/v2/` (every request comes here: the fuzzer's hot path).
    static func restV2(_ request: HTTPRequest) -> Kind? {
        guard request.url.containsBytes(V2Route.prefix), let parts = URLParts(request.url),
            parts.path.hasPrefix(V2Route.prefix),
            let route = V2Route(method: request.method, path: parts.path)
        else { return nil }
        guard let kind = v2Kinds[route.operation] else { return .other }
        guard case .authorize = kind else { return kind }
        // The decision's resource, where the table's binding puts it (the body's `resources`).
        let body = try? Value(jsonText: request.bodyText)
        return .authorize(resource: body?["resources"]?.listValue?.first?.stringValue)
    }

    /// `request.parameters` with each value still escaped, when that is how they can be read: no
    /// query in the URL (the engine's requests have none) and a body that is ASCII or not a form.
    static func escapedParameters(_ request: HTTPRequest) -> [(name: String, escapedValue: String)]? {
        guard !request.url.utf8.contains(UInt8(ascii: "?")) else { return nil }
        let type = request.headers["Content-Type"]?.lowercased() ?? ""
        guard type.hasPrefix("application/x-www-form-urlencoded") else { return [] }
        return request.body.withUnsafeBufferPointer(FormCoding.escapedFields)
    }

    /// A hand-built classification (the oracle's unit tests).
    init(kind: Kind, authnToken: String? = nil) {
        self.kind = kind
        self.authnToken = authnToken.map(SentToken.text)
    }
}

/// An authN token as a request carries it: still escaped, as read from an ASCII form, or its text.
/// Most requests' tokens are only remembered, and the same token is sent again and again: it is
/// decoded when a check reads its text (`LogoutTokenProperty`, after a logout).
enum SentToken: Hashable, Sendable {
    case escaped(String)
    case text(String)

    var text: String {
        switch self {
        case .escaped(let value): FormCoding.unescape(value)
        case .text(let text): text
        }
    }
}
