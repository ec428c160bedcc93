import Entitlement
import PassModel

/// A broken invariant of BEHAVIOR.md ("Invariants"), by its number.
public struct InvariantViolation: Hashable, Sendable, CustomStringConvertible {
    public var number: Int
    public var app: String
    public var message: String
    public var description: String { "invariant \(number) violated in \(app): \(message)" }
}

/// Watches every call and every delivered callback of one app and checks the invariants that can be
/// judged as they happen (the fuzzer's oracle, and the scenario runner's after every step).
struct InvariantMonitor: Sendable {
    let app: String
    private var setRequestors = 0
    private var selectedProviderQueries = 0
    /// Per resource, authorizations that may still end with `setToken` or `tokenRequestFailed`.
    private var authorizations: [String: Int] = [:]
    private var preauthorizations: [[String]] = []
    private var metadata: [Value] = []
    private(set) var violations: [InvariantViolation] = []

    init(app: String) { self.app = app }

    private mutating func violate(_ number: Int, _ message: String) {
        violations.append(InvariantViolation(number: number, app: app, message: message))
    }

    mutating func called(_ call: Call) {
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
        if engine.currentConfiguration == nil, InvariantMonitor.answersAQueuedCall(callback) {
            violate(5, "\(callback.name) delivered before the engine was configured")
        }
        switch callback {
        case .setRequestorComplete:
            if setRequestors == 0 { violate(1, "setRequestorComplete with no setRequestor waiting for it") }
            setRequestors = max(0, setRequestors - 1)
        case .setToken(_, let r), .tokenRequestFailed(let r, _, _):
            if authorizations[r, default: 0] == 0 { violate(3, "\(callback.name) for \"\(r)\" that no authorization asked for") }
            authorizations[r] = max(0, authorizations[r, default: 0] - 1)
            if case .setToken = callback, engine.authnToken(at: now) == nil {
                violate(6, "setToken for \"\(r)\" without a valid authN token")
            }
        case .preauthorizedResources(let allowed):
            guard !preauthorizations.isEmpty else {
                violate(4, "preauthorizedResources with no checkPreauthorizedResources waiting")
                return
            }
            let asked = preauthorizations.removeFirst()
            if !InvariantMonitor.isSubsequence(allowed, of: asked) {
                violate(4, "preauthorizedResources(\(allowed)) is not a subset of \(asked) in request order")
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

    /// Liveness once nothing is pending: every setRequestor has completed (invariant 1).
    mutating func settled() {
        if setRequestors > 0 { violate(1, "\(setRequestors) setRequestor call(s) never completed") }
        setRequestors = 0
    }

    /// Callbacks that only a queued call (authentication, authorization, preauthorization, metadata,
    /// logout) can cause: none may come while the engine has no configuration.
    static func answersAQueuedCall(_ callback: Callback) -> Bool {
        switch callback {
        case .displayProviderDialog, .presentTvProviderDialog, .navigateToUrl, .setToken, .tokenRequestFailed,
             .preauthorizedResources, .setMetadataStatus:
            return true
        default:
            return false
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
