import Entitlement
import PassModel

/// The authN token's expiry, read from the SP's answer that made it: `checkAuthentication` answers 1
/// up to `expires - 1 ms` and 0 from `expires` on (as long as nothing else changed the token).
struct TTLProperty: OracleProperty {
    static let id = "ttl"
    static let clause = "BEHAVIOR.md, Time (the authN token's expiry)"
    static let observes: ObservationKinds = [.checkAnswered]

    mutating func check(
        _ observation: Observation, at now: Instant, context: OracleContext, token: TokenModel,
        found: inout [String]
    ) {
        guard case .checkAnswered(let status) = observation, case .token(_, let expires?) = token.holder else { return }
        if now < expires && status != Constants.statusSuccess {
            found.append("the authN token valid until \(expires) (\(expires - now) left) is reported gone at \(now)")
        } else if now >= expires && status == Constants.statusSuccess {
            found.append("the authN token expired at \(expires) is reported valid at \(now)")
        }
    }
}
