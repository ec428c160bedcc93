import Entitlement
import PassModel

/// Every authZ token is dropped when the authN token changes: after a change, a `setToken(r)` needs
/// an authorize request for `r` sent since (or one out at the change). After a `setRequestor` the
/// token held is unknown: nothing is judged until the next change.
struct AuthzDroppedProperty: OracleProperty {
    static let id = "authz-dropped"
    static let clause = "BEHAVIOR.md, Authorization (authZ tokens dropped with the authN token)"
    static let observes: ObservationKinds = [.authnTokenChanged, .reconfigured, .authorizeSent, .tokenDelivered]

    /// Resources with an authorize request sent since the authN token last changed; nil when a
    /// `setRequestor` may have adopted another app's token unseen.
    private var authorizedSinceChange: Set<String>? = []

    mutating func check(
        _ observation: Observation, at now: Instant, context: OracleContext, token: TokenModel,
        found: inout [String]
    ) {
        switch observation {
        case .authnTokenChanged(let outstanding):
            // An authorization already out may still deliver its token.
            authorizedSinceChange = outstanding
        case .reconfigured:
            authorizedSinceChange = nil
        case .authorizeSent(let r):
            authorizedSinceChange?.insert(r)
        case .tokenDelivered(let r):
            if let since = authorizedSinceChange, !since.contains(r) {
                found.append(
                    "setToken for \"\(r)\" with no authorize request since the authN token changed: an authZ token outlived it"
                )
            }
        default:
            return  // not routed here (`observes`)
        }
    }
}
