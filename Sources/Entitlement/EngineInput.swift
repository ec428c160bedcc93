import PassModel

/// Everything that can happen to the engine, each given to `Engine.step(_:at:)` with its instant.
public enum EngineInput: Hashable, Sendable {
    /// The app calls the API. `sharedStore` is what the device's shared store holds as the call is
    /// made; only `setRequestor` reads it (iOS passive SSO replaces the app's authN token with it), so
    /// the snapshot cannot be taken at another moment than the call it belongs to.
    case call(Call, sharedStore: SharedAuthentication?)
    /// A response (or transport failure) for a request the engine sent.
    case response(RequestID, HTTPResult)
    /// A timer the engine started has fired.
    case timer(TimerID)
    /// The user acted in Apple's TV-provider picker.
    case picker(PickerOutcome)
}

/// What the user did in Apple's TV-provider picker (an input from the runtime, which plays
/// Apple's VideoSubscriberAccount framework).
public enum PickerOutcome: Hashable, Sendable {
    /// `appleToken`: the SAML response Apple's framework holds for the device's account, for a
    /// `SUPPORTED` MVPD (base64); nil for a `PICKER` MVPD.
    case picked(mvpdID: String, appleToken: String?)
    case otherProvider
    case cancelled
}

/// Identifies one flow of a kind (a login, an authorization, …): typed so that one kind's id
/// cannot be looked up among another's.
struct FlowID<Kind>: Hashable, Sendable, CustomStringConvertible {
    let value: Int
    var description: String { "\(Kind.self)#\(value)" }
}
