import Entitlement
import PassModel
import PassXML

/// What the oracle learns within one input and forgets after it: made fresh for each input
/// (`CallbackOracle.observe`), never reset field by field.
struct InputScratch: Sendable {
    /// The input is a call's (nil: a response's, a timer's, the picker's), and which.
    var call: CallRole.InputKind?
    /// The callbacks of the input, in order.
    var callbacks: [Callback] = []
    /// The input shows a login's first callback (a `getAuthorization` either authorizes or first logs
    /// in, and the login shows at once).
    var loginShows = false
    /// Queued calls starting in this input, after its `setRequestorComplete(1)`: each starts when the
    /// first callback it can deliver at once comes, or its first request goes out (`Ownership`), or
    /// (delivering nothing at once) before the next one starts, in call order.
    var draining: [Call] = []
    /// The drained call whose callbacks are being delivered.
    var drainCurrent: Call?
    /// `checkAuthentication`s of this input, answered at once from the store.
    var checksOwed = 0
    /// A REST API v2 profile check answered in this input: the profile it found may be a new token.
    var profileCheckAnswered = false
    /// The status just delivered starts a drained login (a `getAuthentication` answered from the
    /// store at once): it is that login's, not a v2 profile check's still out.
    var drainedLoginAnswers = false
    /// `setSelectedProvider(nil)` (or an unknown id) with no login running: it may answer as a cancel
    /// does (docs/CONFORMANCE.md, AND-1.8), in its own input.
    var cancelAnswerAllowed = false
    /// The resource whose authorization this input continues (the response to its authorize request)
    /// or starts (its authZ token cached): the media-token request it sends is that authorization's.
    var authorization: String?
    /// The preauthorization begun in this input (its request goes out in it).
    var preauthorization: Int?
    /// The preauthorization the response of this input answers, if it is one.
    var answeredPreauthorization: Int?
    /// The token a response's fresh success made, adopted (its expiry) once the input is judged.
    var issued: AuthnToken?

    init() {}

    init(_ actions: [EngineAction]) {
        callbacks.reserveCapacity(actions.count)
        for action in actions {
            if case .deliver(let c) = action { callbacks.append(c) }
        }
        loginShows = callbacks.contains(where: CallbackRole.startsALogin)
    }
}
