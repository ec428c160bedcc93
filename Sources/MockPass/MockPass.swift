import PassModel
import PassXML

/// The mock Adobe Pass SP(s) and MVPD identity providers: a pure `HTTPRequest -> HTTPResponse`
/// function over a `World` and the sessions the requests created. A value type: copying it forks
/// the whole server. All randomness comes from the `SeededRandom` streams of its `MockContext`
/// (seeded, or the system's secure source when no seed is given: `passim serve` without `--seed`);
/// the clock is passed in. Sessions live in dictionaries for lookup only: no answer depends on
/// their iteration order. It keeps the journal and the host table, routes each request to its
/// family (`MockPass+Routing.swift`) and lets go of what expired; the families answer.
public struct MockPass: Sendable {
    /// The requests received, bounded by `limits` (see `RequestLog`).
    public private(set) var requestLog: RequestLog
    /// Every request the log keeps, oldest first.
    public var log: [LoggedRequest] { requestLog.all }
    /// How many requests the log has dropped (so `log` indices stay meaningful to a reader).
    public var logDropped: Int { requestLog.dropped }

    /// What the families share (the world, limits, random streams, typed SAML): lent to each handler.
    var context: MockContext
    public var world: World { context.world }
    public var limits: MockLimits { context.limits }
    let hosts: HostTable
    /// Whether some requestor needs registered or signed clients (else the gate is skipped).
    let gatesClients: Bool

    // Each family is its own type, in its own folder, holding its state and its handlers; what one
    // needs of another is a parameter of the handler (`MockPass+Routing.swift` passes it).
    /// The SDK's device and web families: SP login and logout sessions, issued tokens, device sessions.
    var sdk: SDKFamily
    /// The MVPDs' identity providers (SAML and OAuth2): their sessions, codes and the users' NameIDs.
    var idps: IdPFamily
    /// Client admission: DCR's clients and access tokens, the nonces of signed calls.
    var clients: ClientAdmission
    /// REST API v1's authorizations.
    var restV1: RESTv1Family
    /// REST API v2's sessions, profiles, TempPass uses, throttle and SSO grants (`RESTv2/`).
    var v2: RESTv2Family

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
    public var typedRun: Bool {
        get { context.typedRun }
        set { context.typedRun = newValue }
    }

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
        requestLog = RequestLog(maxEntries: limits.logEntries, maxBytes: limits.logBytes)
        context = MockContext(world: world, seed: seed, limits: limits)
        hosts = HostTable(world: world)
        gatesClients = world.requestors.contains { $0.softwareStatement != nil || $0.key != nil }
        sdk = SDKFamily(limits: limits)
        idps = IdPFamily(limits: limits)
        clients = ClientAdmission(limits: limits)
        restV1 = RESTv1Family(limits: limits)
        v2 = RESTv2Family(limits: limits)
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
    /// engine calls itself (`handleRoute`), whose refusals are `ErrorXML` bodies. Every request that reaches
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
                return try idps.handle(idp, incoming, in: &context, at: now)
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
}

func joinURL(_ base: String, _ path: String) -> String { base.withoutTrailingSlashes + path }
