import Crypto
import PassModel
import PassXML

/// An MVPD whose IdP speaks OAuth2 with PKCE instead of SAML (Adobe server 3.7.0; rest-api-v2.md 1.1),
/// behind the same `authenticate/{sp}/{code}`: the SP sends the user agent to the IdP's
/// `/oauth2/authorize` with an S256 `code_challenge`, the IdP's login answers the SP's callback with an
/// authorization code, and the SP redeems it with the `code_verifier` only it holds.
enum V2OAuth {
    /// The SP's redirect URI, at its origin's root like the rest of REST v2.
    static let callbackPath = V2Route.oauthCallback.path
    /// How long an authorization code may wait to be redeemed (RFC 6749 recommends at most 10 minutes).
    static let codeTTL = Millis.minutes(5)
    /// What a logout's `state` starts with, so the callback tells it from a login's (`CODE.RANDOM`).
    static let logoutStatePrefix = "logout-"

    /// BASE64URL(SHA-256(verifier)), no padding (RFC 7636 4.2).
    static func challenge(_ verifier: String) -> String {
        base64URL(Array(SHA256.hash(data: Array(verifier.utf8))))
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        let table = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var out: [UInt8] = []
        var i = 0
        while i + 3 <= bytes.count {
            let n = Int(bytes[i]) << 16 | Int(bytes[i + 1]) << 8 | Int(bytes[i + 2])
            out += [table[n >> 18 & 63], table[n >> 12 & 63], table[n >> 6 & 63], table[n & 63]]
            i += 3
        }
        switch bytes.count - i {
        case 1:
            let n = Int(bytes[i]) << 16
            out += [table[n >> 18 & 63], table[n >> 12 & 63]]
        case 2:
            let n = Int(bytes[i]) << 16 | Int(bytes[i + 1]) << 8
            out += [table[n >> 18 & 63], table[n >> 12 & 63], table[n >> 6 & 63]]
        default:
            break
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// What the SP keeps while the user agent is at an OAuth2 IdP: the verifier and the `state` it sent.
struct V2OAuthPending: Sendable, Equatable {
    var verifier: String
    var state: String
}

/// An authorization code the IdP issued, until redeemed or `V2OAuth.codeTTL` passed.
struct V2OAuthGrant: Sendable {
    var mvpdID: String
    var userName: String
    var clientID: String
    var redirectURI: String
    var challenge: String
}
