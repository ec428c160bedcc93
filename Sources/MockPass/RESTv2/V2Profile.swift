import PassModel

/// A profile is per device, programmer and MVPD (rest-api-v2.md 1.8): a changed
/// `AP-Device-Identifier` finds none.
struct V2ProfileKey: Hashable, Sendable {
    var deviceID: String
    var requestorID: String
    var mvpdID: String
}

/// An authenticated profile as `GET profiles` shows it and decisions read it.
struct V2Profile: Sendable {
    /// How the profile came to be, which decides its `type`, `issuer`, decisions' `source` and logout.
    enum Origin: Sendable {
        /// A login at the MVPD's IdP through `authenticate/{sp}/{code}`.
        case login(Subscriber)
        /// Apple's partner SSO (`profiles/sso/Apple`).
        case appleSSO(Subscriber)
        /// A TempPass: no user.
        case tempPass(V2TempPassKey)
        /// An MVPD degraded with `authenticate-all`: no user, no IdP.
        case degraded
        /// Another app's login, shared through the identity this request carries (`V2SSO`).
        case sso(V2SSOIdentity, Subscriber)
    }

    /// The subscriber behind a profile, and the IdP session a logout must end.
    struct Subscriber: Sendable {
        var user: IdPFamily.UserKey
        var nameID: String
        var sessionIndex: String
    }

    var origin: Origin
    var sessionID: String
    var notBefore: Instant
    var notAfter: Instant

    /// `type` as the profiles pages list them.
    var type: String {
        switch origin {
        case .login: return "regular"
        case .appleSSO: return "appleSSO"
        case .sso(let identity, _): return identity.method.profileType
        case .tempPass: return "temporary"
        case .degraded: return "degraded"
        }
    }

    /// `issuer`: the MVPD for a login, Apple for its SSO, Adobe for what Adobe grants without one.
    func issuer(mvpdID: String) -> String {
        switch origin {
        case .login, .sso: return mvpdID
        case .appleSSO: return "Apple"
        case .tempPass, .degraded: return "Adobe"
        }
    }

    var subscriber: Subscriber? {
        switch origin {
        case .login(let s), .appleSSO(let s), .sso(_, let s): return s
        case .tempPass, .degraded: return nil
        }
    }
}

/// A TempPass is used up per device and MVPD; a promotional one per identity too (the
/// `AP-TempPass-Identity` JSON, canonically written).
struct V2TempPassKey: Hashable, Sendable {
    var deviceID: String
    var mvpdID: String
    var identity: String?
}

/// One TempPass's use: when it ends (from its first use) and the resources it authorized.
struct V2TempPassUse: Sendable {
    /// The first use: a temporary profile's `notBefore`.
    var started: Instant
    var expires: Instant
    /// Each once, in first-use order (a promotional pass's `used_assets`). Only a use whose MVPD has a
    /// resource limit remembers any, at most `mock-v2-temppass-resources` of them and
    /// `mock-v2-temppass-resource-bytes` in all; they are forgotten when the pass ends, the use
    /// itself staying so that an ended pass stays ended.
    private(set) var resources: [String] = []
    /// The bytes of `resources`, kept as they change so the cap costs nothing to check.
    private(set) var resourceBytes = 0

    init(started: Instant, expires: Instant) {
        self.started = started
        self.expires = expires
    }

    /// Whether `resource` is one more resource this use may remember within its caps.
    func hasRoom(for resource: String) -> Bool {
        resources.count < V2Limits.tempPassResources
            && resourceBytes + resource.utf8.count <= V2Limits.tempPassResourceBytes
    }

    /// Remembers `resource` (once; the caller checked `hasRoom`).
    mutating func remember(_ resource: String) {
        guard !resources.contains(resource) else { return }
        resources.append(resource)
        resourceBytes += resource.utf8.count
    }

    /// Forgets the resources, as the pass ended: nothing reads them past its end.
    mutating func forgetResources() {
        resources = []
        resourceBytes = 0
    }
}
