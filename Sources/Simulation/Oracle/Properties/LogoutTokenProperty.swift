import Entitlement
import PassModel
import PassXML

/// No request after `logout` carries, as `authentication_token`, a token the app sent before it,
/// unless the SP has issued that very token again since (a TempPass still running does), or the
/// request is of a flow asked before the logout, still open: such a flow is bound to the token it
/// was asked with (BEHAVIOR.md, Overlapping calls), and its request may leave after the logout (it
/// waited for an access token, or is sent once more after a 401: BEHAVIOR.md, Client registration).
/// On iOS, `setRequestor` adopts whatever the shared store holds (BEHAVIOR.md, Apple SSO: passive
/// SSO), which may be that very token issued again to another app (a TempPass still running), which
/// this app's oracle cannot see: from then on no token counts as retired.
struct LogoutTokenProperty: OracleProperty {
    static let id = "logout-token"
    static let clause = "BEHAVIOR.md, Logout (every token cleared)"
    static let observes: ObservationKinds = [.logout, .sent, .tokenIssued, .reconfigured]

    /// As sent (`SentToken`): decoded only at a logout, each distinct one once.
    private var tokensSent: Set<SentToken> = []
    private var retiredTokens: Set<String> = []

    mutating func check(
        _ observation: Observation, at now: Instant, context: OracleContext, token: TokenModel,
        found: inout [String]
    ) {
        switch observation {
        case .logout:
            retiredTokens.formUnion(tokensSent.lazy.map(\.text))
            tokensSent = []
        case .sent(let request, let authnToken, let askedBeforeLogout):
            if !askedBeforeLogout && !retiredTokens.isEmpty && retiredTokens.contains(authnToken.text) {
                found.append("\(request.method) \(request.url) after logout carries the authN token logout cleared")
            }
            tokensSent.insert(authnToken)
        case .reconfigured where context.platform == .ios:
            retiredTokens = []
        case .tokenIssued(let issued):
            // The SP may issue again a token the app logged out of: that one may be sent again. It is
            // written out (as the SP serialises it) only when some token is retired: rarely.
            if let issued {
                if !retiredTokens.isEmpty { retiredTokens.remove(AuthnTokenXML.build(issued)) }
            } else {
                retiredTokens = []
            }
        default:
            return  // not routed here (`observes`)
        }
    }
}
