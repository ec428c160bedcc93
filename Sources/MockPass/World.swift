import PassModel

/// Everything the mock serves: SPs, the MVPDs' identity providers, subscribers and programmers.
/// Built by the scenario layer (SCENARIO-FORMAT.md, "World"); the mock never changes it.
public struct World: Sendable {
    public struct ServiceProvider: Sendable {
        public var name: String
        /// Base URL, e.g. `https://sp.auth.test` (a trailing slash is ignored).
        public var url: String
        /// The MVPDs this SP describes, in declaration order.
        public var mvpds: [MVPD]

        public init(name: String, url: String, mvpds: [MVPD] = []) {
            self.name = name
            self.url = url
            self.mvpds = mvpds
        }
    }

    public struct IdentityProvider: Sendable {
        public var mvpdID: String
        /// Base URL, e.g. `https://comcast.idp.test`.
        public var url: String
        /// How it sends its SAML Responses (SCENARIO-FORMAT.md, `mvpd … saml`).
        public var saml: SAMLBehavior

        public init(mvpdID: String, url: String, saml: SAMLBehavior = .signed) {
            self.mvpdID = mvpdID
            self.url = url
            self.saml = saml
        }

        /// An IdP at `World.defaultIdPURL(for:)`.
        public init(mvpdID: String, saml: SAMLBehavior = .signed) {
            self.init(mvpdID: mvpdID, url: World.defaultIdPURL(for: mvpdID), saml: saml)
        }
    }

    /// What an IdP does to the assertions it sends. Only `signed` is accepted by the SPs; each other
    /// value is a misbehaviour of real IdPs that Adobe's SP refuses (docs/WIRE.md, "SAML").
    public enum SAMLBehavior: String, Sendable, CaseIterable {
        /// Enveloped RSA-SHA256 signature with the IdP's key (`IdPSigningKey`).
        case signed
        /// No signature at all.
        case unsigned
        /// Signed, then its validity moved an hour later: the digest no longer matches.
        case tampered
        /// Signed by an IdP whose clock runs 10 minutes slow: expired 5 minutes before it is sent.
        case expired
        /// Signed, but for another SP's entity id.
        case wrongAudience = "wrong-audience"
    }

    public struct User: Sendable {
        public var name: String
        public var password: String
        public var mvpdID: String
        public var allow: [String]
        public var deny: [String]
        public var denyMessage: String?
        public var meta: [Value.Entry]
        public var encrypted: [String]

        public init(
            name: String, password: String, mvpdID: String, allow: [String] = [], deny: [String] = [],
            denyMessage: String? = nil, meta: [Value.Entry] = [], encrypted: [String] = []
        ) {
            self.name = name
            self.password = password
            self.mvpdID = mvpdID
            self.allow = allow
            self.deny = deny
            self.denyMessage = denyMessage
            self.meta = meta
            self.encrypted = encrypted
        }
    }

    /// A programmer as the SPs know it: one type with the scenario language's declaration (PassModel).
    public typealias Requestor = PassModel.Requestor
    /// A programmer's clientless key pair.
    public typealias KeyPair = PassModel.Requestor.KeyPair

    /// A TempPass pseudo-MVPD's terms (facts §8). The MVPD itself is still declared by the SPs that
    /// offer it; being listed here is what makes `authenticate/freepreview` accept it, and it needs no IdP.
    public struct TempPass: Sendable {
        public var mvpdID: String
        /// Wall-clock time from the first use on a device; authN and authZ tokens share that expiry.
        public var ttl: Millis
        /// Keyed on the user's e-mail (from `generic_data`) as well as the device.
        public var promotional: Bool

        public init(mvpdID: String, ttl: Millis, promotional: Bool = false) {
            self.mvpdID = mvpdID
            self.ttl = ttl
            self.promotional = promotional
        }
    }

    public var serviceProviders: [ServiceProvider]
    /// An MVPD has an IdP only if it is listed here (TempPass pseudo-MVPDs usually are not);
    /// `defaultIdentityProviders(for:)` builds the usual list.
    public var identityProviders: [IdentityProvider]
    public var users: [User]
    public var requestors: [Requestor]
    public var tempPasses: [TempPass] = []
    /// What REST API v2 needs beyond the above (throttling, degradation, faults…); Adobe's defaults.
    public var restV2 = RESTv2Options()

    public init(
        serviceProviders: [ServiceProvider] = [], identityProviders: [IdentityProvider] = [],
        users: [User] = [], requestors: [Requestor] = [], tempPasses: [TempPass] = []
    ) {
        self.serviceProviders = serviceProviders
        self.identityProviders = identityProviders
        self.users = users
        self.requestors = requestors
        self.tempPasses = tempPasses
    }

    /// Default IdP base URL for an MVPD id: `"https://" + id.lowercased() + ".idp.test"`.
    public static func defaultIdPURL(for mvpdID: String) -> String {
        "https://" + mvpdID.lowercased() + ".idp.test"
    }

    /// One IdP at its default URL for every MVPD the SPs describe that is not a TempPass, each MVPD
    /// once, in first-declaration order.
    public static func defaultIdentityProviders(for sps: [ServiceProvider]) -> [IdentityProvider] {
        var seen: Set<String> = []
        var out: [IdentityProvider] = []
        for sp in sps {
            for m in sp.mvpds where !m.tempPass && !m.promoTempPass && seen.insert(m.id).inserted {
                out.append(IdentityProvider(mvpdID: m.id))
            }
        }
        return out
    }

    // Lookups: the first declaration wins when names repeat, so answers never depend on hashing.

    public func serviceProvider(named name: String) -> ServiceProvider? {
        serviceProviders.first { $0.name == name }
    }

    public func identityProvider(for mvpdID: String) -> IdentityProvider? {
        identityProviders.first { $0.mvpdID == mvpdID }
    }

    public func requestor(_ id: String) -> Requestor? {
        requestors.first { $0.id == id }
    }

    public func tempPass(for mvpdID: String) -> TempPass? {
        tempPasses.first { $0.mvpdID == mvpdID }
    }

    public func user(mvpdID: String, name: String) -> User? {
        users.first { $0.mvpdID == mvpdID && $0.name == name }
    }

    /// The MVPDs `sp` offers to `requestor`, in the SP's order; empty when the SP does not know it.
    public func mvpds(offeredBy sp: ServiceProvider, to requestor: Requestor) -> [MVPD] {
        guard requestor.isAt(sp) else { return [] }
        guard let allowed = requestor.mvpds else { return sp.mvpds }
        return sp.mvpds.filter { allowed.contains($0.id) }
    }
}

extension World.Requestor {
    /// Whether `sp` knows this requestor.
    public func isAt(_ sp: World.ServiceProvider) -> Bool { sps.map { $0.contains(sp.name) } ?? true }
}
