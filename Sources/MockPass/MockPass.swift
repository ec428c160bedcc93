import PassModel
import PassXML

/// The mock Adobe Pass SP(s) and MVPD identity providers: a pure `HTTPRequest -> HTTPResponse`
/// function over a `World` and the sessions the requests created. A value type: copying it forks
/// the whole server. All randomness comes from a `SeededRandom` it owns (seeded, or the system's
/// secure source when no seed is given: `passim serve` without `--seed`); the clock is passed in.
/// Sessions live in dictionaries for lookup only: no answer depends on their iteration order.
public struct MockPass: Sendable {
    public let world: World
    public let limits: MockLimits
    /// The requests received, bounded by `limits` (see `RequestLog`).
    public private(set) var requestLog: RequestLog
    /// Every request the log keeps, oldest first.
    public var log: [LoggedRequest] { requestLog.all }
    /// How many requests the log has dropped (so `log` indices stay meaningful to a reader).
    public var logDropped: Int { requestLog.dropped }

    var random: SeededRandom
    /// Client registration's own stream (client ids, secrets, access tokens): a client's credentials
    /// do not move when another flow draws a value first, so a Bearer token a scenario pins is the
    /// same on the SDK's wire and on REST API v2, where sessions draw codes and ids the SDK's does not.
    var registrationRandom: SeededRandom
    /// Picks the IdPs' signing keys (`IdPSigningKey.key(seed:mvpdID:)`); never advances `random`.
    let seed: UInt64
    let hosts: HostTable
    /// Whether some requestor needs registered or signed clients (else the gate is skipped).
    let gatesClients: Bool

    // Each family's state is its own type, in the family's folder; a handler reaching into another
    // family's state says so by the property's name (`idps.usersByNameID` in an SP handler, say).
    /// The SDK's device and web families: SP login and logout sessions, issued tokens, device sessions.
    var sdk: SDKState
    /// The MVPDs' identity providers: their sessions and the users' NameIDs.
    var idps: IdPState
    /// Client admission: DCR's clients and access tokens, the nonces of signed calls.
    var clients: ClientState
    /// REST API v1's authorizations.
    var restV1: RESTv1State
    /// REST API v2's sessions, profiles, TempPass uses, throttle and OAuth2 codes (`RESTv2/`).
    var v2: RESTv2State

    /// A typed simulated run (the fuzzer's; only `MockWire` sets it, for `typedResponses`): the mock
    /// hands over as values what only this process reads, and skips the bytes and the signing.
    /// - The SAML messages it writes into browser forms travel as handles to values
    ///   (`TypedSAMLStore`); its IdPs sign nothing and record what the SP's check of the signature
    ///   would conclude. The browser hands form fields only back to this mock, which answers them as
    ///   it would the bytes.
    /// - The browser's pages (login forms, SAML auto-posts) go as values only, their bodies empty
    ///   (`Reply.page`): they are loaded by the simulated browser alone, which reads
    ///   `HTTPResponse.decoded` and the headers, and no engine requests a page.
    /// - A configuration answer that reads back exactly (`ConfigurationXML.readsBack`) goes as its
    ///   value, its body empty: only passim's own engine runs typed, and it reads `decoded` first.
    ///
    /// Off (the default: `passim serve`, live and byte runs), every answer is bytes as without this.
    public var typedRun = false
    /// The messages behind the handles of a typed run (`typedRun`).
    var typedMessages: TypedSAMLStore

    /// `logLimit` set: a server's log (`MockLimits.standard` with that many entries); nil: a simulated
    /// run's, which keeps every request whole. `seed` nil: see `init(world:seed:limits:)`.
    public init(world: World, seed: UInt64?, logLimit: Int? = nil) {
        var limits = logLimit == nil ? MockLimits.simulated : MockLimits.standard
        if let logLimit { limits.logEntries = max(logLimit, 1) }
        self.init(world: world, seed: seed, limits: limits)
    }

    /// `seed` nil: no seed, every token, secret, code and trace from the system's secure random
    /// source (`SeededRandom.secure()`), as a server shared by clients that must not read each
    /// other's secrets needs; the same seed gives the same values, byte for byte.
    public init(world: World, seed: UInt64?, limits: MockLimits) {
        self.world = world
        self.limits = limits
        requestLog = RequestLog(maxEntries: limits.logEntries, maxBytes: limits.logBytes)
        if let seed {
            random = SeededRandom(seed: seed)
            registrationRandom = SeededRandom(seed: seed, stream: "client-registration")
            self.seed = seed
        } else {
            random = .secure()
            registrationRandom = .secure()
            // Only picks an IdP's signing key from the committed pool: any value will do.
            self.seed = random.next()
        }
        hosts = HostTable(world: world)
        gatesClients = world.requestors.contains { $0.softwareStatement != nil || $0.key != nil }
        sdk = SDKState(limits: limits)
        idps = IdPState(limits: limits)
        clients = ClientState(limits: limits)
        restV1 = RESTv1State(limits: limits)
        v2 = RESTv2State(limits: limits)
        typedMessages = TypedSAMLStore(capacity: limits.typedSAMLMessages)
    }

    /// Which host serves this URL (longest base-URL prefix on scheme, authority and path), or nil.
    public func host(for url: String) -> LoggedRequest.Host? {
        URLParts(url).flatMap { hosts.match($0)?.host }
    }

    /// What a server copies out from under its lock to prepare requests without it.
    public var preparer: RequestPreparer { RequestPreparer(hosts: hosts, logValueBytes: limits.logValueBytes) }

    /// The part of handling that reads only the request (see `PreparedRequest`).
    public func prepare(_ request: HTTPRequest) -> PreparedRequest { preparer.prepare(request) }

    /// Up to `limit` log entries after sequence number `after` (see `RequestLog.page`).
    public func logPage(after: Int, limit: Int) -> (entries: [LoggedRequest], last: Int) {
        requestLog.page(after: after, limit: limit)
    }

    /// Handles one request at `now`: `prepare`, then `handle` the prepared request.
    public mutating func handle(_ request: HTTPRequest, at now: Instant) -> HTTPResponse {
        handle(prepare(request), at: now)
    }

    /// Handles one prepared request at `now`. Never traps: an unknown host or path is 404, a wrong method 405,
    /// malformed parameters, SAML or XML 400, each with a short text body, except on the endpoints the
    /// engine calls itself (`DeviceEndpoints.swift`), whose refusals are `ErrorXML` bodies. Every request that reaches
    /// a known host is logged first, even when it is then refused. Form fields are read only from
    /// `application/x-www-form-urlencoded` bodies (as `HTTPRequest.parameters` does); methods are
    /// case-sensitive, as HTTP says.
    public mutating func handle(_ prepared: PreparedRequest, at now: Instant) -> HTTPResponse {
        guard let host = prepared.host, let incoming = prepared.incoming, var logged = prepared.logged else {
            return HandlerFailure.notFound("no host serves \(prepared.request.url)").response
        }
        logged.time = now
        requestLog.append(logged)
        expire(at: now)
        let response = answer(host, incoming, at: now)
        requestLog.recordAnswer(response)
        return response
    }

    private mutating func answer(_ host: LoggedRequest.Host, _ incoming: IncomingRequest, at now: Instant)
        -> HTTPResponse
    {
        do throws(HandlerFailure) {
            switch host {
            case .sp(let name):
                guard let sp = world.serviceProvider(named: name) else { throw .notFound() }
                return try handleServiceProviderHost(sp, incoming, at: now)
            case .idp(let mvpdID):
                guard let idp = world.identityProvider(for: mvpdID) else { throw .notFound() }
                return try handleIdentityProvider(idp, incoming, at: now)
            }
        } catch {
            return error.response
        }
    }

    /// Journals a request that an injected failure answered in the mock's place: logged like any
    /// other, with the failure named, and nothing else of the mock's state touched.
    public mutating func journal(_ prepared: PreparedRequest, fault: InjectedFailure, at now: Instant) {
        guard var logged = prepared.logged else { return }
        logged.time = now
        logged.fault = fault.journalName
        logged.status = fault.status  // what the client saw (the lint's rules judge answers)
        requestLog.append(logged)
    }

    /// Lets go of what ended by `now` (lookups check expiry themselves: this only bounds memory).
    mutating func expire(at now: Instant) {
        sdk.expire(at: now)
        idps.expire(at: now)
        clients.expire(at: now)
        restV1.expire(at: now)
        v2.expire(at: now)
    }

    // MARK: - Shared helpers

    /// A SAML ID: must not start with a digit (xs:ID), hence the underscore.
    mutating func samlID() -> String { "_" + random.hex(32) }

    /// The IdP's NameID for a user: random on first login, then the same for that user.
    mutating func nameID(mvpdID: String, userName: String) -> String {
        idps.nameID(mvpdID: mvpdID, userName: userName, random: &random)
    }
}

func joinURL(_ base: String, _ path: String) -> String { base.withoutTrailingSlashes + path }
