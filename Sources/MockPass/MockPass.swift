import PassModel
import PassXML

/// The mock Adobe Pass SP(s) and MVPD identity providers: a pure `HTTPRequest -> HTTPResponse`
/// function over a `World` and the sessions the requests created. A value type: copying it forks
/// the whole server. All randomness comes from a `SeededRandom` it owns; the clock is passed in.
/// Sessions live in dictionaries for lookup only: no answer depends on their iteration order.
public struct MockPass: Sendable {
    public let world: World
    /// The requests received, oldest first; at most `logLimit` of the latest when a limit is set.
    public private(set) var log: [LoggedRequest] = []
    /// A long-running server keeps a bounded log (a soak must not grow it for ever); a simulated run,
    /// short by nature, keeps everything for `seen`.
    public let logLimit: Int?
    /// How many requests the log has dropped (so `log` indices stay meaningful to a reader).
    public private(set) var logDropped = 0

    var random: SeededRandom
    let hosts: HostTable
    /// SP login sessions by `JSESSIONID`.
    var loginSessions: [String: LoginSession] = [:]
    /// SP logout sessions by RelayState.
    var logoutSessions: [String: LogoutSession] = [:]
    /// IdP sessions, oldest first.
    var idpSessions: [IdPSession] = []
    /// The IdPs' opaque NameID for each (MVPD, user), and back.
    var nameIDs: [UserKey: String] = [:]
    var usersByNameID: [String: UserKey] = [:]
    /// Every authN token the SPs issued, by GUID: `authorizeDevice` and `preauthorize` accept only these.
    var issuedAuthn: [String: IssuedAuthn] = [:]
    /// Every authZ token issued; `deviceShortAuthorize` accepts only these.
    var issuedAuthz: Set<AuthzToken> = []
    /// Sessions bound to a device rather than a browser cookie (TempPass, tvOS codes, Apple SSO).
    var deviceSessions: [DeviceKey: DeviceSession] = [:]
    /// When each TempPass ends, from its first use; kept across logouts, as Adobe keeps it.
    var tempPassExpiry: [TempPassKey: Instant] = [:]
    /// tvOS registration codes by code.
    var registrationCodes: [String: RegistrationCode] = [:]
    /// `/config` answers already built (see `config(_:requestorID:)`); a cache, never part of an answer's logic.
    var configResponses: [ConfigKey: HTTPResponse] = [:]

    struct ConfigKey: Hashable, Sendable {
        var spName: String
        var requestorID: String
    }

    struct UserKey: Hashable, Sendable {
        var mvpdID: String
        var userName: String
    }

    public init(world: World, seed: UInt64, logLimit: Int? = nil) {
        self.world = world
        self.logLimit = logLimit.map { max($0, 1) }
        random = SeededRandom(seed: seed)
        hosts = HostTable(world: world)
    }

    /// Which host serves this URL (longest base-URL prefix on scheme, authority and path), or nil.
    public func host(for url: String) -> LoggedRequest.Host? {
        RequestURL(url).flatMap { hosts.match($0)?.host }
    }

    /// Handles one request at `now`. Never traps: an unknown host or path is 404, a wrong method 405,
    /// malformed parameters, SAML or XML 400, each with a short text body, except on the endpoints the
    /// engine calls itself (`DeviceEndpoints.swift`), whose refusals are `ErrorXML` bodies. Every request that reaches
    /// a known host is logged first, even when it is then refused. Form fields are read only from
    /// `application/x-www-form-urlencoded` bodies (as `HTTPRequest.parameters` does); methods are
    /// case-sensitive, as HTTP says.
    public mutating func handle(_ request: HTTPRequest, at now: Instant) -> HTTPResponse {
        guard let url = RequestURL(request.url), let (host, path) = hosts.match(url) else {
            return HandlerFailure.notFound("no host serves \(request.url)").response
        }
        let incoming = IncomingRequest(request, path: path, query: url.query)
        log.append(LoggedRequest(
            host: host, time: now, method: request.method, path: path,
            parameters: incoming.parameters.map { LoggedRequest.Parameter(name: $0.0, value: $0.1) },
            headers: request.headers))
        if let limit = logLimit, log.count >= 2 * limit {
            // Dropped in batches so the cost per request stays constant.
            logDropped += log.count - limit
            log.removeFirst(log.count - limit)
        }
        do throws(HandlerFailure) {
            switch host {
            case .sp(let name):
                guard let sp = world.serviceProvider(named: name) else { throw .notFound() }
                return try handleServiceProvider(sp, incoming, at: now)
            case .idp(let mvpdID):
                guard let idp = world.identityProvider(for: mvpdID) else { throw .notFound() }
                return try handleIdentityProvider(idp, incoming, at: now)
            }
        } catch {
            return error.response
        }
    }

    // MARK: - Shared helpers

    /// A SAML ID: must not start with a digit (xs:ID), hence the underscore.
    mutating func samlID() -> String { "_" + random.hex(32) }

    /// The IdP's NameID for a user: random on first login, then the same for that user.
    mutating func nameID(mvpdID: String, userName: String) -> String {
        let key = UserKey(mvpdID: mvpdID, userName: userName)
        if let id = nameIDs[key] { return id }
        let id = random.hex(32)
        nameIDs[key] = id
        usersByNameID[id] = key
        return id
    }

    /// Decodes a posted SAML message (base64 of XML); any failure is a 400 with PassXML's reason.
    static func decodeSAML<T>(_ base64: String, _ what: String,
                              _ parse: ([UInt8]) throws(PassXMLError) -> T) throws(HandlerFailure) -> T {
        do {
            return try parse(try SAML.decodeFromPost(base64))
        } catch {
            throw .badRequest("malformed \(what): \(error.message)")
        }
    }
}

func joinURL(_ base: String, _ path: String) -> String { base.withoutTrailingSlashes + path }
