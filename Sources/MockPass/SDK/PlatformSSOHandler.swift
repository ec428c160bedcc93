import PassModel
import PassXML

/// Apple SSO (facts §1 "token exchange", BEHAVIOR.md "Apple SSO"). The IdP's `platform-sso` stands
/// in for the token Apple's framework holds for the device's TV-provider account; the SP's
/// `/api/v1/tokens/authn` exchanges it for a device-bound session.
extension MockPass {
    /// Who the unsolicited assertion is meant for: Adobe's SAML SP (facts §3).
    static let platformAudience = "https://saml.sp.auth.adobe.com"

    /// `POST {idp}/platform-sso` (username, password) → an unsolicited SAML Response (InResponseTo "",
    /// no Destination) for that user, valid 5 minutes; wrong credentials → 401.
    mutating func platformSSO(
        _ idp: World.IdentityProvider, _ r: IncomingRequest,
        at now: Instant
    ) throws(HandlerFailure) -> HTTPResponse {
        let name = r.parameter("username") ?? ""
        let password = r.parameter("password") ?? ""
        guard !name.isEmpty, let user = world.user(mvpdID: idp.mvpdID, name: name), user.password == password else {
            throw .xml(401, MockPass.invalidCredentials)
        }
        let response = signIn(
            user, at: idp, inResponseTo: "", destination: "", audience: MockPass.platformAudience, at: now)
        if let typed = try typedResponse(response, from: idp) {
            // No body: the only reader, a typed run's device (`Simulator.userPick`), takes the value.
            return Reply.xml("", decoded: AppleToken(samlResponse: typedMessages.keep(typed)))
        }
        return Reply.xml(try responseXML(response, from: idp))
    }

    /// `POST /api/v1/tokens/authn`: a successful, unexpired assertion from the MVPD's own IdP, for a
    /// NameID that IdP gave one of its users → 204 and a device-bound session for that user.
    /// Missing fields or an MVPD not offered → 400; an assertion that does not hold up → 401.
    mutating func exchangePlatformToken(
        _ sp: World.ServiceProvider, _ r: IncomingRequest,
        at now: Instant
    ) throws(HandlerFailure) -> HTTPResponse {
        let requestorID = try r.required("requestor")
        let deviceID = try r.required("deviceId")
        let mvpdID = try r.required("mvpd")
        _ = try r.required("deviceType")
        let encoded = try r.required("SAMLResponse")
        let requestor = try knownRequestor(requestorID, at: sp)
        guard world.mvpds(offeredBy: sp, to: requestor).contains(where: { $0.id == mvpdID }) else {
            throw .badRequest("MVPD \(mvpdID) is not offered to \(requestorID)")
        }
        guard let idp = world.identityProvider(for: mvpdID) else {
            throw .badRequest("MVPD \(mvpdID) has no identity provider")
        }
        let (response, verdict) = try samlResponse(encoded, r, at: now)
        let issuer = idp.url.withoutTrailingSlashes
        guard response.issuer == issuer else {
            throw .xml(401, "the SAML response is not from the identity provider of \(mvpdID)")
        }
        guard response.success else { throw .xml(401, "the identity provider refused the login") }
        guard let assertion = response.assertion, assertion.issuer == issuer else {
            throw .xml(401, "the SAML response has no assertion from the identity provider of \(mvpdID)")
        }
        if let problem = assertionProblem(
            assertion, verdict: verdict, from: idp, audience: MockPass.platformAudience, at: now)
        {
            throw .xml(401, problem)
        }
        guard let user = idps.usersByNameID[assertion.nameID], user.mvpdID == mvpdID else {
            throw .xml(401, "unknown NameID")
        }
        bindUser(
            user, deviceID: deviceID, requestorID: requestorID, nameID: assertion.nameID,
            sessionIndex: assertion.sessionIndex, at: now)
        return Reply.noContent
    }
}
