import Entitlement
import PassModel

/// A broken invariant of BEHAVIOR.md ("Invariants"), by its number, or a broken property that
/// follows from it, by its name (docs/ORACLE.md).
public struct InvariantViolation: Hashable, Sendable, CustomStringConvertible {
    public var number: Int
    public var app: String
    public var message: String
    /// The property's name; nil for an invariant.
    public var property: String? = nil
    public var description: String { "\(key) violated in \(app): \(message)" }
    /// Two violations with the same key are the same bug while shrinking.
    public var key: String { property.map { "property \($0)" } ?? "invariant \(number)" }
}

/// Watches every call and every delivered callback of one app and checks the invariants that can be
/// judged as they happen (the fuzzer's oracle, and the scenario runner's after every step).
struct InvariantMonitor: Sendable {
    let app: String
    private var setRequestors = 0
    private var selectedProviderQueries = 0
    /// Per resource, authorizations that may still end with `setToken` or `tokenRequestFailed`.
    private var authorizations: [String: Int] = [:]
    /// Every `checkPreauthorizedResources` request, and every answer delivered.
    private var preauthorizations: [[String]] = []
    private var preauthorizationAnswers: [[String]] = []
    private var metadata: [Value] = []
    private(set) var violations: [InvariantViolation] = []

    init(app: String) { self.app = app }

    private mutating func violate(_ number: Int, _ message: String) {
        violations.append(InvariantViolation(number: number, app: app, message: message))
    }

    mutating func called(_ call: Call, engine: Engine) {
        switch call {
        case .setRequestor: setRequestors += 1
        case .getSelectedProvider: selectedProviderQueries += 1
        case .checkAuthorization(let r, _), .getAuthorization(let r, _): authorizations[r, default: 0] += 1
        case .checkPreauthorizedResources(let rs, _): preauthorizations.append(rs)
        case .getMetadata(let d): metadata.append(d)
        default: break
        }
    }

    mutating func delivered(_ callback: Callback, engine: Engine, at now: Instant) {
        switch callback {
        case .setRequestorComplete(let status):
            if setRequestors == 0 { violate(1, "setRequestorComplete with no setRequestor waiting for it") }
            setRequestors = max(0, setRequestors - 1)
        case .setToken(_, let r), .tokenRequestFailed(let r, _, _):
            if authorizations[r, default: 0] == 0 { violate(3, "\(callback.name) for \"\(r)\" that no authorization asked for") }
            authorizations[r] = max(0, authorizations[r, default: 0] - 1)
            if case .setToken = callback, engine.authnToken(at: now) == nil {
                violate(6, "setToken for \"\(r)\" without a valid authN token")
            }
        case .preauthorizedResources(let allowed):
            // Answers need not come in call order (one answered from the cache comes at once), so
            // each answer must belong to a distinct request it is a subset of, in request order: a
            // matching of all answers so far to requests must exist.
            preauthorizationAnswers.append(allowed)
            if !InvariantMonitor.canMatch(preauthorizationAnswers, to: preauthorizations) {
                violate(4, "preauthorizedResources(\(allowed)) answers no request: asked \(preauthorizations), answered \(preauthorizationAnswers)")
                preauthorizationAnswers.removeLast()
            }
        case .selectedProvider:
            if selectedProviderQueries == 0 { violate(4, "selectedProvider with no getSelectedProvider waiting") }
            selectedProviderQueries = max(0, selectedProviderQueries - 1)
        case .setMetadataStatus(_, _, _, let args):
            if let i = metadata.firstIndex(of: args) {
                metadata.remove(at: i)
            } else {
                violate(4, "setMetadataStatus echoes \(args), which no getMetadata asked for")
            }
        default:
            break
        }
    }

    /// After each input to the engine: a login (the flow of a `getAuthentication`, or of a
    /// `getAuthorization` without a token) ends with its `setAuthenticationStatus` unless a call
    /// supersedes it (a new login, `logout`, `setRequestor`): invariant 2.
    mutating func input(call: Call?, loginBefore: Int?, loginAfter: Int?, delivered: [Callback]) {
        let statuses = delivered.filter { if case .setAuthenticationStatus = $0 { return true } else { return false } }.count
        if let ended = loginBefore, ended != loginAfter, statuses == 0 {
            if call?.kind.supersedesALogin != true {
                violate(2, "login \(ended) ended without a setAuthenticationStatus (input: \(call.map(\.description) ?? "a response, timer or the user"))")
            }
        }
        // A setRequestorComplete(1) starts the queued calls in the same input.
        let drained = delivered.contains { if case .setRequestorComplete = $0 { return true } else { return false } }
        // Invariant 7: a response or timer with no login running must not deliver what only a login
        // delivers (a late answer for an ended or cancelled login).
        if call == nil, loginBefore == nil, !drained, let late = delivered.first(where: InvariantMonitor.belongsToALogin) {
            violate(7, "\(late) delivered by a response or timer while no login was running")
        }
        // One input answers one flow, except when queued calls start.
        if statuses > 1 && !drained {
            violate(2, "\(statuses) setAuthenticationStatus callbacks for one input")
        }
    }

    /// Liveness once nothing is pending: every setRequestor has completed (invariant 1).
    mutating func settled() {
        if setRequestors > 0 { violate(1, "\(setRequestors) setRequestor call(s) never completed") }
        setRequestors = 0
    }

    /// Bipartite matching (augmenting paths): can every answer be given its own request?
    static func canMatch(_ answers: [[String]], to requests: [[String]]) -> Bool {
        guard answers.count <= requests.count else { return false }
        var owner = [Int?](repeating: nil, count: requests.count)
        func assign(_ a: Int, _ seen: inout [Bool]) -> Bool {
            for r in requests.indices where !seen[r] && isSubsequence(answers[a], of: requests[r]) {
                seen[r] = true
                if owner[r] == nil || assign(owner[r]!, &seen) {
                    owner[r] = a
                    return true
                }
            }
            return false
        }
        for a in answers.indices {
            var seen = [Bool](repeating: false, count: requests.count)
            if !assign(a, &seen) { return false }
        }
        return true
    }

    /// Callbacks only a login delivers.
    static func belongsToALogin(_ callback: Callback) -> Bool {
        if callback.kind.onlyFromALogin { return true }
        switch callback {
        case .setAuthenticationStatus(let status, _): return status == Constants.statusSuccess
        // VSA203 comes with a logout; R400 with any request that finds its SP refusing registration.
        case .status(let code, _): return code != StatusCode.vsa203 && code != StatusCode.registrationRefused
        default: return false
        }
    }

    static func isSubsequence(_ xs: [String], of ys: [String]) -> Bool {
        var i = ys.startIndex
        for x in xs {
            guard let j = ys[i...].firstIndex(of: x) else { return false }
            i = ys.index(after: j)
        }
        return true
    }
}
