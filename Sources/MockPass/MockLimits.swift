import PassModel

/// Everything the mock keeps for later requests, bounded: the request log by entries, bytes and value
/// length; each kind of session, code and token by a lifetime (its natural one: past it the handler
/// would refuse it anyway, or nothing reads it) and by a count, past which the oldest goes first.
/// Errors and `docs/LIMITS.md` use the names in backquotes. The counts are far above what a test run
/// holds at once, yet low enough that a load test reaches them within a minute, after which its
/// memory stays flat (a login session is about 1 KB).
public struct MockLimits: Hashable, Sendable {
    /// `mock-log-entries`: requests the log keeps (nil: all).
    public var logEntries: Int?
    /// `mock-log-bytes`: the log's total size, as `LoggedRequest.size` counts it (nil: no cap).
    public var logBytes: Int?
    /// `mock-log-value-bytes`: a logged parameter or header value longer than this keeps its first
    /// bytes and a `…[truncated N bytes]` mark (nil: values are logged whole).
    public var logValueBytes: Int?

    /// `mock-login-session-ttl`: how long an SP login session waits for the IdP's answer (and an
    /// unauthenticated one waits for anything); an authenticated one lives as long as its authN token.
    public var loginSessionTTL: Millis
    /// `mock-login-sessions`.
    public var loginSessions: Int
    /// `mock-logout-session-ttl`: how long an SP logout waits for the IdP's LogoutResponse.
    public var logoutSessionTTL: Millis
    /// `mock-logout-sessions`.
    public var logoutSessions: Int
    /// `mock-idp-session-ttl`: an IdP's record of a login (only `/slo` reads it).
    public var idpSessionTTL: Millis
    /// `mock-idp-sessions`.
    public var idpSessions: Int
    /// `mock-registration-codes`: codes live until `expiredMemory` past their TTL (a used one, past a
    /// TTL after its use).
    public var registrationCodes: Int
    /// `mock-device-sessions`: device-bound sessions live until their token expires.
    public var deviceSessions: Int
    /// `mock-authn-tokens`: issued authN tokens live until they expire.
    public var authnTokens: Int
    /// `mock-authz-tokens`: issued authZ tokens live until `expiredMemory` after they expire.
    public var authzTokens: Int
    /// `mock-expired-memory`: how long past its end an authZ token or a registration code is still
    /// refused as expired rather than as unknown.
    public var expiredMemory: Millis
    /// `mock-temppass-devices`: TempPass uses remembered (an ended TempPass stays ended while kept).
    public var tempPassUses: Int
    /// `mock-dcr-clients`: clients registered through `/o/client/register`.
    public var registeredClients: Int
    /// `mock-dcr-client-ttl`: how long a registered client can get access tokens.
    public var registeredClientTTL: Millis
    /// `mock-access-tokens`: Bearer access tokens live until their `token-ttl` ends.
    public var accessTokens: Int
    /// `mock-signature-window`: how far a signed call's `request_time` may be from the mock's clock
    /// (BEHAVIOR.md: 5 minutes); a nonce is remembered for twice that.
    public var signatureWindow: Millis
    /// `mock-nonces`: nonces of signed calls remembered to refuse a replay.
    public var nonces: Int
    /// `mock-rest-authz`: REST API v1 authorizations (device, requestor, resource) kept until they end.
    public var restAuthorizations: Int
    /// `mock-typed-saml`: SAML messages a typed simulated run passes through browser forms as
    /// handles (`TypedSAMLStore`); no lifetime, as the bytes they stand for have none.
    public var typedSAMLMessages: Int
    /// `mock-store-bytes`: each store's entries, as `Footprint` counts them (nil: no cap but the
    /// count). Far above what the counts allow a real client's entries (a few hundred bytes each),
    /// so it binds only on entries made large on purpose: the oldest go first, as past the count.
    public var storeBytes: Int?

    public init(
        logEntries: Int? = 10_000, logBytes: Int? = 64 << 20, logValueBytes: Int? = 1024,
        loginSessionTTL: Millis = .minutes(30), loginSessions: Int = 20_000,
        logoutSessionTTL: Millis = .minutes(30), logoutSessions: Int = 10_000,
        idpSessionTTL: Millis = .hours(24), idpSessions: Int = 20_000,
        registrationCodes: Int = 20_000, deviceSessions: Int = 20_000,
        authnTokens: Int = 20_000, authzTokens: Int = 20_000, expiredMemory: Millis = .hours(24),
        tempPassUses: Int = 20_000, registeredClients: Int = 20_000, registeredClientTTL: Millis = .hours(24),
        accessTokens: Int = 20_000, signatureWindow: Millis = .minutes(5), nonces: Int = 20_000,
        restAuthorizations: Int = 20_000, typedSAMLMessages: Int = 20_000, storeBytes: Int? = 32 << 20
    ) {
        self.storeBytes = storeBytes.map { max($0, 1) }
        self.registeredClients = max(registeredClients, 1)
        self.registeredClientTTL = registeredClientTTL
        self.accessTokens = max(accessTokens, 1)
        self.signatureWindow = signatureWindow
        self.nonces = max(nonces, 1)
        self.restAuthorizations = max(restAuthorizations, 1)
        self.typedSAMLMessages = max(typedSAMLMessages, 1)
        self.logEntries = logEntries.map { max($0, 1) }
        self.logBytes = logBytes
        self.logValueBytes = logValueBytes.map { max($0, 0) }
        self.loginSessionTTL = loginSessionTTL
        self.loginSessions = max(loginSessions, 1)
        self.logoutSessionTTL = logoutSessionTTL
        self.logoutSessions = max(logoutSessions, 1)
        self.idpSessionTTL = idpSessionTTL
        self.idpSessions = max(idpSessions, 1)
        self.registrationCodes = max(registrationCodes, 1)
        self.deviceSessions = max(deviceSessions, 1)
        self.authnTokens = max(authnTokens, 1)
        self.authzTokens = max(authzTokens, 1)
        self.expiredMemory = expiredMemory
        self.tempPassUses = max(tempPassUses, 1)
    }

    /// `mock-log-page`: entries `GET /admin/log` gives when no `limit` is asked for.
    public static let logPage = 1000
    /// `mock-log-page-max`: the most entries one `GET /admin/log` gives.
    public static let logPageMax = 10_000
    /// `mock-prepare-inline-bytes`: a request body under this is prepared on the event loop (the hot
    /// path: a thread hop would cost more than the parse); a larger one on a thread pool.
    public static let prepareInlineBytes = 4096

    /// `mock-regcode-max-ttl`: the longest `ttl` (seconds) a regcode request may ask for; Adobe
    /// refuses a longer one with 400 (facts §1 "REST API v1").
    public static let regcodeMaxTTLSeconds: Int64 = 36000

    /// `mock-value-bytes`: the longest value a request may give that the mock could keep (a device
    /// id, a requestor or MVPD id, a code, a redirect URL, a user name, an email, a resource name, a
    /// nonce): every parameter the mock reads but the documents, a resource's title, the nonce of a
    /// signature. Checked at the door, so each stored entry is bounded in bytes as its store is in
    /// count (docs/LIMITS.md); a 900 KB `deviceId` kept 931 KB per registration code.
    /// Parameters the mock never reads are only logged (cut at `mock-log-value-bytes`).
    public static let valueBytes = 1024

    /// The parameters the mock reads that carry a name or a short value, not a document (the
    /// documents, `SAMLResponse`, `SAMLRequest`, the tokens and the resources, are bounded by
    /// `body-bytes` and `xml-bytes`, parsed, compared or reduced to a name, and never kept whole).
    static let valueParameters: Set<String> = [
        "requestor_id", "requestor", "deviceId", "device_id", "mso_id", "mvpd", "redirect_url", "username",
        "password", "reg_code", "RelayState", "session_guid", "session_index", "name_id", "deviceType",
        "device_info", "registrationURL", "hashed_guid", "generic_data", "appId", "appVersion", "client_id",
        "client_secret", "access_token", "grant_type", "format", "ttl",
    ]

    /// 400 naming the limit when `value` is over `valueBytes`.
    static func admit(_ value: String, as name: String) throws(HandlerFailure) {
        let n = value.utf8.count
        guard n <= valueBytes else {
            throw .badRequest("\(name) is \(n) bytes, over the limit of \(valueBytes) (limit: mock-value-bytes)")
        }
    }

    /// Every value parameter of `r` (`valueParameters`), held to `valueBytes`.
    static func admitParameters(_ r: IncomingRequest) throws(HandlerFailure) {
        for (name, value) in r.parameters where value.utf8.count > valueBytes && valueParameters.contains(name) {
            try admit(value, as: "parameter " + name)
        }
    }

    /// A long-running server's limits.
    public static let standard = MockLimits()

    /// A simulated run: short by nature, so its log keeps every request whole (`seen` reads it all);
    /// the state limits are the server's.
    public static let simulated = MockLimits(logEntries: nil, logBytes: nil, logValueBytes: nil)
}
