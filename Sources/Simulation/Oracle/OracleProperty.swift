import Entitlement
import MockPass
import PassModel
import PassXML

/// A property of docs/ORACLE.md: a value with its own state, judging the observations the oracle's
/// flow model derives from each input (never the engine's state). Adding one is a type conforming
/// to this protocol, its registration in `PropertySet`, and one test that injects the bug it must catch
/// (docs/ORACLE.md, "Adding a property").
protocol OracleProperty: Sendable {
    /// The name a violation carries: `property ID` (the fuzzer shrinks while the same name fails).
    static var id: String { get }
    /// The clause of BEHAVIOR.md (or of this oracle's invariants) it checks.
    static var clause: String { get }
    /// The observations it judges: the others never reach `check` (the fuzzer's hot path).
    static var observes: ObservationKinds { get }
    init()
    /// Judges one observation at `now`, reading what the flow model believes (`token`, `context`);
    /// appends what is wrong to `found`.
    mutating func check(
        _ observation: Observation, at now: Instant, context: OracleContext, token: TokenModel,
        found: inout [String])
}

/// What the flow model saw, in the order it saw it, for the properties. Derived from the calls,
/// callbacks, requests and timers of one input: the oracle's own vocabulary, not the SDK's.
enum Observation: Sendable {
    /// A flow's terminal callback (`setAuthenticationStatus` but a logout's, `setToken`,
    /// `tokenRequestFailed`) and the callback right after it.
    case terminal(Callback, next: Callback?)
    /// A `sendTrackingData` not right after its flow's terminal, and the callback before it.
    case tracking(event: Int, data: [String?], previous: Callback?)
    /// A success's tracking, well formed, named this token (`fresh`: a new one, not from the store).
    /// Observed before the flow model adopts it.
    case authenticated(mvpd: String, guid: String, fresh: Bool)
    /// An authorization's success tracking named this token. Observed before the model adopts it.
    case authorizedWith(mvpd: String, guid: String)
    /// The authN token changed (a new token, a logout, a new provider); the authorizations whose
    /// request is out may still deliver their token.
    case authnTokenChanged(outstanding: Set<String>)
    /// `setRequestor`: the token held is unknown from now on.
    case reconfigured
    /// An authorize request for `resource` went out.
    case authorizeSent(resource: String)
    /// `setToken(resource)`, the token model as it was when it came.
    case tokenDelivered(resource: String)
    /// A `logout` started.
    case logout
    /// A request carrying an authN token went out; `askedBeforeLogout`: it is of a flow asked before
    /// the last `logout` and still open (sent in a later input than its call's: it waited for an
    /// access token, or goes once more after a 401).
    case sent(HTTPRequest, authnToken: SentToken, askedBeforeLogout: Bool)
    /// A response made a fresh success; its token (nil: not readable).
    case tokenIssued(AuthnToken?)
    /// A `checkAuthentication` answered `status`.
    case checkAnswered(status: Int)
    case timerStarted(TimerID, at: Instant)
    case timerCancelled(TimerID)
    case timerFired(TimerID)
    /// Faults healed, hours passed: every flow and timer should have ended.
    case quiescent

    var kind: ObservationKinds {
        switch self {
        case .terminal: .terminal
        case .tracking: .tracking
        case .authenticated: .authenticated
        case .authorizedWith: .authorizedWith
        case .authnTokenChanged: .authnTokenChanged
        case .reconfigured: .reconfigured
        case .authorizeSent: .authorizeSent
        case .tokenDelivered: .tokenDelivered
        case .logout: .logout
        case .sent: .sent
        case .tokenIssued: .tokenIssued
        case .checkAnswered: .checkAnswered
        case .timerStarted: .timerStarted
        case .timerCancelled: .timerCancelled
        case .timerFired: .timerFired
        case .quiescent: .quiescent
        }
    }
}

/// A set of observation kinds (one bit per case of `Observation`).
struct ObservationKinds: OptionSet, Sendable {
    let rawValue: UInt32
    static let terminal = ObservationKinds(rawValue: 1 << 0)
    static let tracking = ObservationKinds(rawValue: 1 << 1)
    static let authenticated = ObservationKinds(rawValue: 1 << 2)
    static let authorizedWith = ObservationKinds(rawValue: 1 << 3)
    static let authnTokenChanged = ObservationKinds(rawValue: 1 << 4)
    static let reconfigured = ObservationKinds(rawValue: 1 << 5)
    static let authorizeSent = ObservationKinds(rawValue: 1 << 6)
    static let tokenDelivered = ObservationKinds(rawValue: 1 << 7)
    static let logout = ObservationKinds(rawValue: 1 << 8)
    static let sent = ObservationKinds(rawValue: 1 << 9)
    static let tokenIssued = ObservationKinds(rawValue: 1 << 11)
    static let checkAnswered = ObservationKinds(rawValue: 1 << 12)
    static let timerStarted = ObservationKinds(rawValue: 1 << 13)
    static let timerCancelled = ObservationKinds(rawValue: 1 << 14)
    static let timerFired = ObservationKinds(rawValue: 1 << 15)
    static let quiescent = ObservationKinds(rawValue: 1 << 16)
}

/// Every property, registered once: a stored value each, judged with static dispatch (the fuzzer's
/// hot path: an array of existentials cost a tenth of the oracle). Registering a property is its
/// field, its `judge` line and its type in `all`, here and nowhere else; `OraclePropertyTests`
/// fails when one of the three is missing.
struct PropertySet: Sendable {
    var tracking = TrackingProperty()
    var authzDropped = AuthzDroppedProperty()
    var logoutToken = LogoutTokenProperty()
    var tempPass = TempPassProperty()
    var timers = TimersProperty()
    var ttl = TTLProperty()

    /// The registered properties' types, in the order they judge.
    static let all: [any OracleProperty.Type] = [
        TrackingProperty.self,
        AuthzDroppedProperty.self,
        LogoutTokenProperty.self,
        TempPassProperty.self,
        TimersProperty.self,
        TTLProperty.self,
    ]

    /// Judges `observation` with every property that observes its kind; each violation found is
    /// appended with its property's id.
    mutating func observe(
        _ observation: Observation, at now: Instant, context: OracleContext, token: TokenModel,
        app: String, into violations: inout [InvariantViolation]
    ) {
        let kind = observation.kind
        PropertySet.judge(&tracking, observation, kind, now, context, token, app, &violations)
        PropertySet.judge(&authzDropped, observation, kind, now, context, token, app, &violations)
        PropertySet.judge(&logoutToken, observation, kind, now, context, token, app, &violations)
        PropertySet.judge(&tempPass, observation, kind, now, context, token, app, &violations)
        PropertySet.judge(&timers, observation, kind, now, context, token, app, &violations)
        PropertySet.judge(&ttl, observation, kind, now, context, token, app, &violations)
    }

    @inline(__always)
    private static func judge<P: OracleProperty>(
        _ property: inout P, _ observation: Observation, _ kind: ObservationKinds,
        _ now: Instant, _ context: OracleContext, _ token: TokenModel,
        _ app: String, _ violations: inout [InvariantViolation]
    ) {
        guard P.observes.contains(kind) else { return }
        var found: [String] = []
        property.check(observation, at: now, context: context, token: token, found: &found)
        for message in found {
            violations.append(InvariantViolation(number: 0, app: app, message: message, property: P.id))
        }
    }
}
