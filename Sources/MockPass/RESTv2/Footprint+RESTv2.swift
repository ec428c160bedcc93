import PassModel

// What REST v2's entries cost their stores (`RESTv2Family`, `mock-store-bytes`), counted as
// `Footprint.swift` counts the other families': the text a request put there plus 32 a field.

extension Value: Footprint {
    /// A JSON value's text, as it would be written: a session's X-Device-Info is the one kept, at
    /// most `mock-v2-value-bytes` of Base64 plus a User-Agent, so writing it on each `set` is cheap.
    var footprint: Int { 32 + jsonText.utf8.count }
}

extension V2SessionParameters: Footprint {
    var footprint: Int { mvpd.footprint + domainName.footprint + redirectUrl.footprint }
}

extension V2SSOIdentity: Footprint {
    var footprint: Int { 8 + issuer.footprint + subject.footprint }
}

extension V2AuthSession: Footprint {
    var footprint: Int {
        code.footprint + sessionID.footprint + requestorID.footprint + spName.footprint + deviceID.footprint
            + deviceInfo.footprint + parameters.footprint + sso.reduce(0) { $0 + $1.footprint } + 96
    }
}

extension V2ProfileKey: Footprint {
    var footprint: Int { deviceID.footprint + requestorID.footprint + mvpdID.footprint }
}

extension V2Profile.Subscriber: Footprint {
    var footprint: Int { user.footprint + nameID.footprint + sessionIndex.footprint }
}

extension V2Profile: Footprint {
    var footprint: Int {
        let origin: Int
        switch self.origin {
        case .login(let s), .appleSSO(let s): origin = s.footprint
        case .tempPass(let key): origin = key.footprint
        case .degraded: origin = 0
        case .sso(let identity, let s): origin = identity.footprint + s.footprint
        }
        return 8 + origin + sessionID.footprint + 32
    }
}

extension V2TempPassKey: Footprint {
    var footprint: Int { deviceID.footprint + mvpdID.footprint + identity.footprint }
}

extension V2TempPassUse: Footprint {
    var footprint: Int { 32 + resourceBytes }
}

extension V2OAuthGrant: Footprint {
    var footprint: Int {
        mvpdID.footprint + userName.footprint + clientID.footprint + redirectURI.footprint + challenge.footprint
    }
}

extension V2SSOKey: Footprint {
    var footprint: Int { identity.footprint + mvpdID.footprint }
}

extension V2SSOGrant: Footprint {
    var footprint: Int { subscriber.footprint + sessionID.footprint + 32 }
}

extension V2SSOLogout: Footprint {
    var footprint: Int { subscriber.footprint + redirectURL.footprint }
}

extension V2BrowserLogin: Footprint {
    var footprint: Int { mvpdID.footprint + subscriber.footprint }
}
