import PassModel
import PassXML

/// Whom an authN token speaks for: a subscriber of an MVPD, or a device using a TempPass.
enum TokenSubject: Hashable, Sendable {
    case user(IdPFamily.UserKey)
    case tempPass(TempPassKey)
}

/// An authN token as the SP issued it, with its subject (the token itself names no user).
struct IssuedAuthn: Sendable {
    var token: AuthnToken
    var subject: TokenSubject
}

/// A device-bound session is per device and requestor, like REST API v1's `tokens/authn`.
struct DeviceKey: Hashable, Sendable {
    var deviceID: String
    var requestorID: String
}

/// What `sessionDevice` answers for a device without an authenticated cookie session. Its token is
/// made once, when the session is created, so every fetch returns the same GUID.
struct DeviceSession: Sendable {
    var token: AuthnToken
    var subject: TokenSubject
}

/// A TempPass is used up per device and MVPD; a promotional one per e-mail too (facts §8).
struct TempPassKey: Hashable, Sendable {
    var deviceID: String
    var mvpdID: String
    var email: String?
}

/// A tvOS registration code (facts §1, "Registration"; KB-REGCODE).
struct RegistrationCode: Sendable {
    var id: String
    var code: String
    var requestorID: String
    /// The MVPD named when the code was made ("" when none).
    var mvpdID: String
    var deviceID: String
    var generated: Instant
    var expires: Instant
    /// Set when a second-screen login completed with this code: the MVPD that login used.
    var usedWithMVPD: String?
}
