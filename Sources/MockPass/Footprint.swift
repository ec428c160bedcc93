import PassModel
import PassXML

/// What an entry costs a store bounded in bytes (`mock-store-bytes`): the bytes of its text plus a
/// fixed 32 for each field, an estimate of the memory it holds (as `LoggedRequest.size` is for the
/// log), cheap enough to compute on every `set`. Only text varies with the requests; what the mock
/// makes itself (ids, instants) is small and fixed.
protocol Footprint {
    var footprint: Int { get }
}

extension String: Footprint {
    var footprint: Int { 32 + utf8.count }
}

extension Optional: Footprint where Wrapped: Footprint {
    var footprint: Int { self?.footprint ?? 8 }
}

extension Bool: Footprint {
    var footprint: Int { 8 }
}

extension Instant: Footprint {
    var footprint: Int { 16 }
}

extension AuthnToken: Footprint {
    var footprint: Int {
        guid.footprint + requestorID.footprint + domainName.footprint + mvpdID.footprint + deviceID.footprint
            + nameID.footprint + sessionIndex.footprint + 16
    }
}

extension AuthzToken: Footprint {
    var footprint: Int {
        sessionGUID.footprint + requestorID.footprint + resourceID.footprint + mvpdID.footprint + deviceID.footprint
            + 64
    }
}

extension IdPFamily.UserKey: Footprint {
    var footprint: Int { mvpdID.footprint + userName.footprint }
}

extension TokenSubject: Footprint {
    var footprint: Int {
        switch self {
        case .user(let key): return 8 + key.footprint
        case .tempPass(let key): return 8 + key.footprint
        }
    }
}

extension IssuedAuthn: Footprint {
    var footprint: Int { token.footprint + subject.footprint }
}

extension DeviceKey: Footprint {
    var footprint: Int { deviceID.footprint + requestorID.footprint }
}

extension DeviceSession: Footprint {
    var footprint: Int { token.footprint + subject.footprint }
}

extension TempPassKey: Footprint {
    var footprint: Int { deviceID.footprint + mvpdID.footprint + email.footprint }
}

extension RegistrationCode: Footprint {
    var footprint: Int {
        id.footprint + code.footprint + requestorID.footprint + mvpdID.footprint + deviceID.footprint + 32
            + usedWithMVPD.footprint
    }
}

extension LoginSession.Authentication: Footprint {
    var footprint: Int { userName.footprint + nameID.footprint + sessionIndex.footprint }
}

extension LoginSession: Footprint {
    var footprint: Int {
        id.footprint + spName.footprint + requestorID.footprint + mvpdID.footprint + redirectURL.footprint
            + pendingAuthnRequestID.footprint + authentication.footprint + token.footprint + regCode.footprint
    }
}

extension SAMLSessionKey: Footprint {
    var footprint: Int { nameID.footprint + sessionIndex.footprint }
}

extension LogoutSession: Footprint {
    var footprint: Int {
        id.footprint + spName.footprint + redirectURL.footprint + logoutRequestID.footprint + nameID.footprint
            + sessionIndex.footprint
    }
}

extension IdPSession: Footprint {
    var footprint: Int { mvpdID.footprint + userName.footprint + nameID.footprint + sessionIndex.footprint }
}

extension RegisteredClient: Footprint {
    var footprint: Int { secret.footprint + softwareStatement.footprint }
}

extension AccessToken: Footprint {
    var footprint: Int { softwareStatement.footprint + 16 }
}

extension RestAuthzKey: Footprint {
    var footprint: Int { deviceID.footprint + requestorID.footprint + resource.footprint }
}

extension RestAuthz: Footprint {
    var footprint: Int { mvpdID.footprint + sessionGUID.footprint + 16 }
}
