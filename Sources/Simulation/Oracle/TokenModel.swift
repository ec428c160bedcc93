import Entitlement
import PassModel

/// What the oracle believes the app holds, from what it saw: nothing after a logout or a new
/// provider, a token after a login, unknown once `setRequestor` may have adopted another app's.
enum TokenHolder: Hashable, Sendable {
    case none
    case unknown
    /// The MVPD of the token (from the tracking data) and its expiry (from the SP's answer), when seen.
    case token(mvpd: String, expires: Instant?)

    /// A failed login may have cleared a token (a pending logout at the SP): held, then unknown.
    var unknownIfHeld: TokenHolder { self == .none ? .none : .unknown }
}

/// The authN token as the flow model follows it: the one fact the properties read besides the
/// run's inputs. Only the flow model (`CallbackOracle`) changes it.
struct TokenModel: Sendable {
    var holder: TokenHolder = .none
    /// The GUID of the token held, when a tracking named it.
    var lastGUID: String?
    /// Every GUID an authentication's tracking has named: an authorization answered after its token
    /// was replaced names the one it was asked with (BEHAVIOR.md, Overlapping calls).
    var pastGUIDs: Set<String> = []
    /// iOS: a token adopted at `setRequestor` whose GUID no tracking named was replaced or cleared
    /// since: an authorization asked with it may name that GUID, which is in no `pastGUIDs` (until
    /// the next `setRequestor` or logout).
    var unseenReplaced = false
}

/// A success's tracking, read as far as the flow model needs it (property `tracking` judges the rest).
struct SuccessTracking: Sendable {
    let mvpd: String
    let guid: String
    /// Field 3: `"true"` when the token came from the store (not a fresh one).
    let cached: Bool

    /// Fields 1–3 of a success's tracking, if they name a known MVPD, an md5 GUID and true/false.
    init?(_ data: [String?], context: OracleContext) {
        guard data.count > 3, let mvpd = data[1], context.mvpds.contains(mvpd), let guid = data[2],
            SuccessTracking.isGUIDHash(guid), data[3] == "true" || data[3] == "false"
        else { return nil }
        self.mvpd = mvpd
        self.guid = guid
        cached = data[3] == "true"
    }

    static func isGUIDHash(_ s: String) -> Bool {
        s.utf8.count == 32 && s.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
