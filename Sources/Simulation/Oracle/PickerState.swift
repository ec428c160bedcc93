/// Apple's picker as the oracle follows it (invariant 7): every `presentTvProviderDialog` balanced by
/// exactly one `dismissTvProviderDialog`, and a login ended by a call while it is up owes its
/// dismissal in that input (BEHAVIOR.md, Apple SSO). The rules are the table below: what may come
/// after what; a pair the table lacks is a violation, and the state stays where it was.
enum PickerState: Int, CaseIterable, Hashable, Sendable {
    case down
    case up
    /// Up, and the login it belonged to was ended by a call in this input: its dismissal is owed now.
    case dismissalOwed

    enum Event: Int, CaseIterable, Hashable, Sendable {
        case present, dismiss
        /// A call (`getAuthentication`, `getAuthorization`, `logout`, `setRequestor`) ended the login.
        case loginEndedByCall
        case inputEnded
    }

    /// Rows: the state; columns: the event, in `Event`'s order; nil: refused.
    static let transitions: [[PickerState?]] = [
        //              present  dismiss  loginEndedByCall  inputEnded
        /* down */ [.up, nil, .down, .down],
        /* up */ [nil, .down, .dismissalOwed, .up],
        /* owed */ [nil, .down, .dismissalOwed, nil],
    ]

    /// What each refused pair means.
    static func refusal(_ state: PickerState, _ event: Event) -> (after: PickerState, message: String) {
        switch (state, event) {
        case (.dismissalOwed, .inputEnded):
            (.down, "a login ended while Apple's picker was up, with no dismissTvProviderDialog")
        case (_, .present):
            (state, "presentTvProviderDialog while Apple's picker is already up")
        case (_, .dismiss):
            (state, "dismissTvProviderDialog with no picker up")
        case (_, .loginEndedByCall), (_, .inputEnded):
            (state, "picker: \(event) refused in state \(state)")
        }
    }

    /// The state after `event`, and the violation of invariant 7 if the table refuses the pair.
    func after(_ event: Event) -> (PickerState, String?) {
        if let next = PickerState.transitions[rawValue][event.rawValue] { return (next, nil) }
        let refused = PickerState.refusal(self, event)
        return (refused.after, refused.message)
    }
}
