import PassModel

/// Single sign-on by an identity the app brings (Adobe's single sign-on flows): a service token
/// (`AD-Service-Token`, a JWS an external identity service signed for the user) or a platform
/// identity (`Adobe-Subject-Token`, a JWS of the device platform's account). A login made with one
/// gives every app presenting the same identity, on any device, that MVPD's profile.
struct V2SSOIdentity: Hashable, Sendable {
    enum Method: String, Hashable, Sendable {
        case serviceToken, platformIdentity

        /// The header that carries it.
        var header: String { self == .serviceToken ? "ad-service-token" : "adobe-subject-token" }
        /// The `type` of the profiles it gives.
        var profileType: String { self == .serviceToken ? "serviceTokenSSO" : "platformSSO" }
    }

    var method: Method
    var issuer: String
    var subject: String
}

/// A login's profile shared through an identity, for one MVPD: until the profile's own end.
struct V2SSOKey: Hashable, Sendable {
    var identity: V2SSOIdentity
    var mvpdID: String
}

struct V2SSOGrant: Sendable {
    var subscriber: V2Profile.Subscriber
    var sessionID: String
    var notBefore: Instant
    var notAfter: Instant
}

/// A v2 login's subscriber, remembered by the browser it went through (`RESTv2Family.browserLogins`).
struct V2BrowserLogin: Sendable {
    var mvpdID: String
    var subscriber: V2Profile.Subscriber
}

/// A single logout of an SSO profile under way: what the SP's `logout?pt_device_id=` ends.
struct V2SSOLogout: Sendable {
    var subscriber: V2Profile.Subscriber
    var redirectURL: String?
}

extension HTTPHeaders {
    /// The identities the request carries that the world trusts: a JWS (three Base64URL parts) whose
    /// payload names a declared issuer (`iss`) and a subject (`sub`), for Adobe (`aud`, when given),
    /// not expired (`exp`, seconds, when given). The signature is not checked: the mock holds no
    /// identity service's key (CONFORMANCE.md). Anything else is no identity, not an error: no
    /// enhanced error code covers it.
    func ssoIdentities(_ options: RESTv2Options, at now: Instant) -> [V2SSOIdentity] {
        var out: [V2SSOIdentity] = []
        for method in [V2SSOIdentity.Method.serviceToken, .platformIdentity] {
            let issuers = method == .serviceToken ? options.serviceTokenIssuers : options.platformIdentityIssuers
            guard !issuers.isEmpty, let token = first(lowercased: method.header),
                token.utf8.count <= V2Limits.headerBytes
            else { continue }
            let parts = token.trimmingSpaces.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 3, let claims = StrictBase64.jsonObject(String(parts[1])),
                let issuer = claims["iss"]?.stringValue, issuers.contains(issuer),
                let subject = claims["sub"]?.stringValue, !subject.isEmpty, subject.utf8.count <= 1024
            else { continue }
            if let audience = claims["aud"], audience.stringValue != "Adobe",
                !(audience.listValue?.contains(.string("Adobe")) ?? false)
            {
                continue
            }
            if let exp = claims["exp"]?.intValue, Int64(exp) * 1000 <= now.milliseconds { continue }
            out.append(V2SSOIdentity(method: method, issuer: issuer, subject: subject))
        }
        return out
    }
}
