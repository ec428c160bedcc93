import Entitlement
import PassModel

/// Every flow's terminal is followed at once by its tracking, with the fields of the table; a GUID
/// changes only with a new token; a tracking anywhere else is wrong, but a selection's.
/// An authorization names the token it was asked with (BEHAVIOR.md, Overlapping calls): after an iOS
/// `setRequestor` that may be a token adopted from the shared store, whose GUID this app's oracle
/// never saw; once that one is replaced or cleared unseen (`TokenModel.unseenReplaced`), an
/// authorization may name a GUID never seen. One seen (named by a tracking) is known, and replaced
/// as any other.
struct TrackingProperty: OracleProperty {
    static let id = "tracking"
    static let clause = "BEHAVIOR.md, Tracking data"
    static let observes: ObservationKinds = [.terminal, .tracking, .authenticated, .authorizedWith]

    mutating func check(
        _ observation: Observation, at now: Instant, context: OracleContext, token: TokenModel,
        found: inout [String]
    ) {
        switch observation {
        case .terminal(let terminal, let next):
            expectTracking(after: terminal, next: next, context: context, found: &found)
        case .tracking(let event, let data, let previous):
            stray(event, data, previous: previous, context: context, found: &found)
        case .authenticated(_, let guid, let fresh):
            if !fresh, let last = token.lastGUID, last != guid {
                found.append("the GUID changed from \(last) to \(guid) with no new authN token")
            }
        case .authorizedWith(_, let guid):
            if let last = token.lastGUID, last != guid, !token.pastGUIDs.contains(guid), !token.unseenReplaced {
                found.append(
                    "authorization tracking's GUID \(guid) is neither the authN token's \(last) nor one it replaced")
            }
        default:
            return  // not routed here (`observes`)
        }
    }

    private func expectTracking(
        after terminal: Callback, next: Callback?, context: OracleContext, found: inout [String]
    ) {
        let event: Int, count: Int, success: Bool
        switch CallbackRole(terminal) {
        case .authenticationStatus(let status, _):
            (event, count, success) = (Constants.trackingAuthentication, 7, status == Constants.statusSuccess)
        case .authorizationEnded(_, let ok):
            (event, count, success) = (Constants.trackingAuthorization, 9, ok)
        case .configured, .pickerPresented, .pickerDismissed, .loginOnly, .navigation, .status, .tracking,
            .preauthorizationAnswer, .metadataAnswer, .selectedProviderAnswer:
            return  // not a terminal
        }
        guard case .sendTrackingData(event, let data)? = next else {
            found.append(
                "\(terminal) is not followed at once by its sendTrackingData(\(event), …): \(next.map(\.description) ?? "nothing")"
            )
            return
        }
        guard data.count == count else {
            found.append("tracking event \(event) has \(data.count) fields, not \(count)")
            return
        }
        if Array(data.suffix(3)) != context.trackingTail {
            found.append("tracking \(data) does not end with device type, client type, OS \(context.trackingTail)")
        }
        if data[0] != (success ? "true" : "false") {
            found.append("tracking field 0 is \(data[0] ?? "nil") after \(terminal)")
        }
        if !success {
            if data[1] != nil || data[2] != nil || data[3] != nil {
                found.append("a failure's tracking has fields 1–3 \(Array(data[1...3])), not nil")
            }
            if case .tokenRequestFailed(_, let code, let details) = terminal, data[4] != code || data[5] != details {
                found.append("tracking error/details \(data[4] ?? "nil")/\(data[5] ?? "nil") do not copy \(terminal)")
            }
            return
        }
        guard SuccessTracking(data, context: context) != nil else {
            found.append("a success's tracking \(data) lacks a known MVPD, an md5 GUID or a true/false field 3")
            return
        }
        if event == Constants.trackingAuthorization && (data[4] != nil || data[5] != nil) {
            found.append("a success's tracking carries error/details \(Array(data[4...5]))")
        }
    }

    /// A tracking callback not right after its terminal (`CallbackOracle.follows`): only the
    /// selection's may stand alone.
    private func stray(
        _ event: Int, _ data: [String?], previous: Callback?, context: OracleContext, found: inout [String]
    ) {
        if event == Constants.trackingGetSelectedProvider {
            if data.count != 4 || data[0].map(context.mvpds.contains) != true
                || Array(data.suffix(3)) != context.trackingTail
            {
                found.append("selection tracking \(data) is not [MVPD id, device type, client type, OS]")
            }
        } else {
            found.append(
                "sendTrackingData(\(event), …) not right after its flow's terminal callback (after \(previous.map(\.description) ?? "nothing"))"
            )
        }
    }
}
