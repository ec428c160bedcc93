import Entitlement
import PassModel

/// A TempPass never authenticates afresh once its duration has passed since its first use by this app.
struct TempPassProperty: OracleProperty {
    static let id = "temppass"
    static let clause = "BEHAVIOR.md, TempPass"
    static let observes: ObservationKinds = [.authenticated]

    private var firstUse: [String: Instant] = [:]

    mutating func check(
        _ observation: Observation, at now: Instant, context: OracleContext, token: TokenModel,
        found: inout [String]
    ) {
        guard case .authenticated(let mvpd, _, fresh: true) = observation, let ttl = context.tempPassTTL[mvpd] else {
            return
        }
        guard let first = firstUse[mvpd] else {
            firstUse[mvpd] = now
            return
        }
        if now >= first + ttl {
            found.append("TempPass \(mvpd), first used at \(first) for \(ttl), authenticates again at \(now)")
        }
    }
}
