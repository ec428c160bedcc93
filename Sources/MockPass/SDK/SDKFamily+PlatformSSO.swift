import PassModel
import PassXML

/// Apple SSO (facts §1 "token exchange", BEHAVIOR.md "Apple SSO"). The IdP's `platform-sso`
/// (`IdPFamily.platformSSO`) stands in for the token Apple's framework holds for the device's
/// TV-provider account; the SP's `/api/v1/tokens/authn` exchanges it for a device-bound session.
extension SDKFamily {
    /// Who the unsolicited assertion is meant for: Adobe's SAML SP (facts §3).
    static let platformAudience = "https://saml.sp.auth.adobe.com"

    /// `POST /api/v1/tokens/authn`: a successful, unexpired assertion from the MVPD's own IdP, for a
    /// NameID that IdP gave one of its users → 204 and a device-bound session for that user.
    /// Missing fields or an MVPD not offered → 400; an assertion that does not hold up → 401.
    /// `idps`: whose NameIDs name the users.
    mutating func exchangePlatformToken(
        _ sp: World.ServiceProvider, _ r: IncomingRequest, in context: inout MockContext, idps: IdPFamily,
        at now: Instant
    ) throws(HandlerFailure) -> HTTPResponse {
        let requestorID = try r.required("requestor")
        let deviceID = try r.required("deviceId")
        let mvpdID = try r.required("mvpd")
        _ = try r.required("deviceType")
        let encoded = try r.required("SAMLResponse")
        let requestor = try context.knownRequestor(requestorID, at: sp)
        guard context.world.mvpds(offeredBy: sp, to: requestor).contains(where: { $0.id == mvpdID }) else {
            throw .badRequest("MVPD \(mvpdID) is not offered to \(requestorID)")
        }
        guard let idp = context.world.identityProvider(for: mvpdID) else {
            throw .badRequest("MVPD \(mvpdID) has no identity provider")
        }
        let (response, verdict) = try context.samlResponse(encoded, r, at: now)
        let issuer = idp.url.withoutTrailingSlashes
        guard response.issuer == issuer else {
            throw .xml(401, "the SAML response is not from the identity provider of \(mvpdID)")
        }
        guard response.success else { throw .xml(401, "the identity provider refused the login") }
        guard let assertion = response.assertion, assertion.issuer == issuer else {
            throw .xml(401, "the SAML response has no assertion from the identity provider of \(mvpdID)")
        }
        if let problem = context.assertionProblem(
            assertion, verdict: verdict, from: idp, audience: SDKFamily.platformAudience, at: now)
        {
            throw .xml(401, problem)
        }
        guard let user = idps.user(nameID: assertion.nameID), user.mvpdID == mvpdID else {
            throw .xml(401, "unknown NameID")
        }
        bindUser(
            user, deviceID: deviceID, requestorID: requestorID, nameID: assertion.nameID,
            sessionIndex: assertion.sessionIndex, in: &context, at: now)
        return Reply.noContent
    }
}
