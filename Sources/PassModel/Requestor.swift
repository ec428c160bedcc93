/// A programmer (requestor) as a world declares it: `requestor ID [at SP, ...] [mvpds ID, ...]
/// [authn-ttl D] [authz-ttl D] [device-id] [regcode-ttl D] [software-statement "S" [token-ttl D]]
/// [key "PUBLIC" secret "SECRET"]` (SCENARIO-FORMAT.md). One type for the scenario language's
/// declaration and the mock's world, so a setting is added in one place.
public struct Requestor: Hashable, Sendable {
    public var id: String
    /// SP names that know this requestor; nil = every SP.
    public var sps: [String]?
    /// MVPD ids offered to this requestor; nil = every MVPD of that SP.
    public var mvpds: [String]?
    public var authnTTL: Millis
    public var authzTTL: Millis
    public var deviceID: Bool
    public var regcodeTTL: Millis
    /// Set: SP requests naming this requestor need a Bearer access token of a client registered
    /// with this statement (BEHAVIOR.md, "Client registration and request signing").
    public var softwareStatement: String?
    /// How long the access tokens of that registration live.
    public var tokenTTL: Millis
    /// Set: its second-screen calls (`/reggie/v1`, `/api/v1`) must be signed with this pair.
    public var key: KeyPair?

    /// A programmer's clientless key pair: the public key names it, the secret keys the HMAC.
    public struct KeyPair: Sendable, Hashable {
        public var publicKey: String
        public var secret: String

        public init(publicKey: String, secret: String) {
            self.publicKey = publicKey
            self.secret = secret
        }
    }

    /// TTL defaults are SCENARIO-FORMAT.md's: 24h, 24h, 30m and 6h.
    public init(
        id: String, sps: [String]? = nil, mvpds: [String]? = nil, authnTTL: Millis = .hours(24),
        authzTTL: Millis = .hours(24), deviceID: Bool = false, regcodeTTL: Millis = .minutes(30),
        softwareStatement: String? = nil, tokenTTL: Millis = .hours(6), key: KeyPair? = nil
    ) {
        self.id = id
        self.sps = sps
        self.mvpds = mvpds
        self.authnTTL = authnTTL
        self.authzTTL = authzTTL
        self.deviceID = deviceID
        self.regcodeTTL = regcodeTTL
        self.softwareStatement = softwareStatement
        self.tokenTTL = tokenTTL
        self.key = key
    }
}
