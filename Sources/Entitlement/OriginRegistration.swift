import PassModel

/// The client Adobe's DCR registered for the app at one SP origin (`client_id`, `client_secret`).
struct RegisteredClient: Hashable, Sendable {
    var id: String
    var secret: String
}

/// A Bearer access token, and when the engine's clock says it has expired.
struct AccessGrant: Hashable, Sendable {
    var token: String
    /// Counted from when the token was asked for, so the engine never thinks a token alive that the
    /// SP (which counts from when it answered) holds expired. nil when the answer gave no
    /// `expires_in`: then only a 401 retires it.
    var expires: Instant?

    func isExpired(at now: Instant) -> Bool { expires.map { now >= $0 } ?? false }
}

/// A request built by a flow, kept as built (without `Authorization`) so it can wait for its
/// origin's token and be sent once more after a 401.
struct HeldRequest: Hashable, Sendable {
    /// The id its flow knows it by, whatever id it goes on the wire with.
    var id: RequestID
    /// The id it goes on the wire with: `id`, or a fresh one for the resend after a 401 (a runtime,
    /// and a port's driver, takes each id once).
    var wireID: RequestID
    var request: HTTPRequest
    /// A call of the tvOS registration-code flow, signed when the app gave a key pair.
    var signed: Bool
    /// This is the one resend after a 401: a second 401 is the answer.
    var retried: Bool
    /// The request has its own 30 s deadline (the configuration fetch has the fetch's instead).
    var deadline: Bool
}

/// A request out with a Bearer token: what a 401 needs to send it again.
struct BearerRequest: Hashable, Sendable {
    var held: HeldRequest
    var origin: String
    var token: String
}

/// SDK 3.x registration at one SP origin (BEHAVIOR.md "Client registration and request signing"):
/// register, get an access token, use it until it expires or is refused, get another. Requests made
/// meanwhile wait in the state that holds them, so an origin registers once however many are made.
enum OriginRegistration: Hashable, Sendable {
    /// `POST {origin}/o/client/register` is out.
    case registering(PendingRequest, waiting: [HeldRequest])
    /// `POST {origin}/o/client/token` is out: the first token (`renewal` false) or a later one.
    case requestingToken(TokenRequest)
    /// A token is known; requests go at once with it.
    case registered(RegisteredClient, AccessGrant)

    struct TokenRequest: Hashable, Sendable {
        var client: RegisteredClient
        var request: PendingRequest
        var sentAt: Instant
        var renewal: Bool
        var waiting: [HeldRequest]
    }

    /// Holds one more request while registration or a token request is out; nil when there is a
    /// token to send it with now.
    func holding(_ held: HeldRequest) -> OriginRegistration? {
        switch self {
        case .registering(let id, let waiting):
            return .registering(id, waiting: waiting + [held])
        case .requestingToken(var t):
            t.waiting.append(held)
            return .requestingToken(t)
        case .registered:
            return nil
        }
    }

    /// The registration's own request out, if any.
    var request: PendingRequest? {
        switch self {
        case .registering(let r, _): return r
        case .requestingToken(let t): return t.request
        case .registered: return nil
        }
    }
}

/// SDK 3.x registration at every SP origin, and the requests sent with a Bearer token that a 401
/// sends once more.
struct Registration: Sendable, RequestHolder {
    /// The app's registration at each SP origin (scheme and authority), after `init(softwareStatement:)`.
    var origins: [String: OriginRegistration] = [:]
    /// Requests out with a Bearer token, by wire id, for the one resend a 401 earns.
    var bearerRequests: [RequestID: BearerRequest] = [:]
    /// Wire ids of resent requests, and the ids their flows know them by.
    var resentAs: [RequestID: RequestID] = [:]

    var outstanding: [PendingRequest] { origins.keys.sorted().compactMap { origins[$0]?.request } }

    var load: (requests: Int, timers: Int) {
        var requests = 0, timers = 0
        for registration in origins.values {
            guard let request = registration.request else { continue }
            requests += 1
            if request.deadline != nil { timers += 1 }
        }
        return (requests, timers)
    }

    func claim(where match: (PendingRequest) -> Bool) -> (RequestOwner, PendingRequest)? {
        for (origin, registration) in origins {
            if let request = registration.request, match(request) { return (.registration(origin: origin), request) }
        }
        return nil
    }

    mutating func rearm(_ id: RequestID, deadline: TimerID) {
        guard let origin = origins.first(where: { $0.value.request?.id == id })?.key else { return }
        switch origins[origin] {
        case .registering(let r, let waiting)?:
            origins[origin] = .registering(r.rearmed(id, deadline), waiting: waiting)
        case .requestingToken(var t)?:
            t.request = t.request.rearmed(id, deadline)
            origins[origin] = .requestingToken(t)
        case .registered?, nil: break
        }
    }

    /// The id a flow knows a request by, given the id it was answered on.
    mutating func flowID(ofWire wireID: RequestID) -> RequestID {
        resentAs.removeValue(forKey: wireID) ?? wireID
    }

    /// Clients registered with another statement are forgotten; registrations under way finish.
    mutating func forgetRegisteredClients() {
        origins = origins.filter { if case .registered = $0.value { return false } else { return true } }
    }
}
