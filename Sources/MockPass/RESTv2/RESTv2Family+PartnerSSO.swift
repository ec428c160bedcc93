import PassModel
import PassXML

/// Single sign-on through a partner (Apple): `sessions/sso/{partner}`, whose answer is Apple's
/// authentication request or a fallback to the basic flow (Adobe's partner SSO pages), and
/// `profiles/sso/{partner}`.
extension RESTv2Family {
    /// Apple is the one partner Adobe documents.
    static let v2Partners: Set<String> = ["Apple"]

    /// The attributes Apple's framework is asked to return (Adobe's partner request sample).
    static let v2PartnerAttributes = ["uid", "NameID", "uniqueId"]

    /// The MVPD the partner framework's provider id names, among those the SP offers the programmer;
    /// any other id → `invalid_header_pfs_provider_id_mismatch`.
    func v2PartnerMVPD(
        _ providerID: String, _ sp: World.ServiceProvider,
        _ requestor: World.Requestor, in context: MockContext
    ) throws(V2Failure) -> MVPD {
        let options = context.world.restV2
        guard
            let mvpd = context.world.mvpds(offeredBy: sp, to: requestor).first(where: {
                options.platformMappingID(of: $0.id) == providerID
            })
        else {
            throw V2Failure(
                .pfsProviderIDMismatch,
                "no MVPD of \(requestor.id) has the platform mapping id \(providerID.prefix(64))")
        }
        _ = try v2MVPD(mvpd.id, sp, requestor, in: context)
        return mvpd
    }

    /// `POST /{sp}/sessions/sso/{partner}` (form `domainName`, `redirectUrl`; the framework's status
    /// in `AP-Partner-Framework-Status`). In Adobe's order of samples:
    /// - `authorize` when no login is needed (a profile, a TempPass, an AuthNAll degradation);
    /// - `partner_profile` with the partner's authentication request when the framework grants
    ///   access to a provider whose MVPD has platform services;
    /// - else a basic session, its `reasonType` saying why: `pfs_fallback` (the status missing,
    ///   unreadable, or not granting access), `configuration_fallback` (the MVPD is not set up for
    ///   the partner), `missing_parameters_fallback` (`resume`: no `redirectUrl`).
    mutating func v2PartnerSession(
        _ sp: World.ServiceProvider, _ requestor: World.Requestor, partner: String,
        _ r: IncomingRequest, in context: inout MockContext, at now: Instant
    ) throws(V2Failure) -> HTTPResponse {
        guard Self.v2Partners.contains(partner) else {
            throw V2Failure(.invalidParameterPartner, "unknown partner")
        }
        let device = try V2Device.from(r.request.headers)
        var parameters = V2SessionParameters.from(r)
        if let redirect = parameters.redirectUrl { try Self.v2CheckRedirect(redirect) }
        let status: V2PartnerStatus?
        do throws(V2Failure) {
            status = try V2PartnerStatus.from(r.request.headers, at: now)
        } catch {
            status = nil
        }
        // The MVPD: the framework's provider; one that names no MVPD is refused when the status
        // grants access, and only left out of the fallback session when it does not.
        let mvpd: MVPD?
        if let status {
            mvpd = try v2PartnerMVPD(status.providerID, sp, requestor, in: context)
        } else {
            mvpd = V2PartnerStatus.providerID(in: r.request.headers).flatMap {
                try? v2PartnerMVPD($0, sp, requestor, in: context)
            }
        }
        parameters.mvpd = mvpd?.id
        let fallback: String
        if let status, let mvpd {
            if let direct = try v2DirectAccess(mvpd, requestor, deviceID: device.id, r, in: &context, at: now) {
                return direct
            }
            if !parameters.missing.isEmpty {
                fallback = "missing_parameters_fallback"
            } else if !mvpd.enablePlatformServices {
                fallback = "configuration_fallback"
            } else {
                return try RESTv2Family.v2PartnerProfileRequest(
                    sp, requestor, mvpd, partner: partner, in: &context, at: now)
            }
        } else {
            fallback = "pfs_fallback"
        }
        let session = v2NewSession(sp, requestor, device, parameters, in: &context, at: now)
        return v2SessionAnswer(session, missingAction: "resume", reason: fallback)
    }

    /// `partner_profile`: where to post the partner's answer, and the SAML AuthnRequest the app
    /// hands Apple's framework for the MVPD's IdP (Base64, for Adobe's audience).
    private static func v2PartnerProfileRequest(
        _ sp: World.ServiceProvider, _ requestor: World.Requestor, _ mvpd: MVPD, partner: String,
        in context: inout MockContext, at now: Instant
    ) throws(V2Failure) -> HTTPResponse {
        guard let idp = context.world.identityProvider(for: mvpd.id) else {
            throw V2Failure(.invalidIntegration, "MVPD \(mvpd.id) has no identity provider")
        }
        let request = AuthnRequest(
            id: context.samlID(), issueInstant: now, issuer: SDKFamily.platformAudience,
            destination: joinURL(idp.url, IdPRoute.sso.path),
            assertionConsumerServiceURL: joinURL(sp.url, ServiceRoute.assertionConsumer.path()))
        return Self.v2JSON([
            Value.Entry("actionName", .string("partner_profile")), Value.Entry("actionType", .string("direct")),
            Value.Entry("reasonType", .string("none")),
            Value.Entry(
                "url", .string(V2Route.partnerProfile(serviceProvider: requestor.id, partner: partner).path)),
            Value.Entry("sessionId", .string(context.random.guid())),
            Value.Entry("mvpd", .string(mvpd.id)), Value.Entry("serviceProvider", .string(requestor.id)),
            Value.Entry(
                "authenticationRequest",
                .dict([
                    Value.Entry("type", .string("saml")),
                    Value.Entry("request", .string(SAML.encodeForPost(SAML.build(request)))),
                    Value.Entry("attributesNames", .list(Self.v2PartnerAttributes.map(Value.string))),
                ])),
        ])
    }

    /// `POST /{sp}/profiles/sso/{partner}`, form `SAMLResponse`: the assertion Apple's framework
    /// holds for the user (here: the IdP's `/platform-sso`), checked as the SP checks any (signed by
    /// the MVPD's IdP, for Adobe's audience, not expired, a NameID that IdP gave) → 201 with the
    /// new `appleSSO` profile. Anything wrong with it → `invalid_parameter_saml_response`.
    /// `idps`: whose NameIDs name the users.
    mutating func v2PartnerProfile(
        _ sp: World.ServiceProvider, _ requestor: World.Requestor, partner: String,
        _ r: IncomingRequest, in context: inout MockContext, idps: IdPFamily, at now: Instant
    ) throws(V2Failure) -> HTTPResponse {
        guard Self.v2Partners.contains(partner) else {
            throw V2Failure(.invalidParameterPartner, "unknown partner")
        }
        let device = try V2Device.from(r.request.headers)
        guard let encoded = r.parameter("SAMLResponse"), !encoded.isEmpty else {
            throw V2Failure(.invalidParameterSAMLResponse, "missing parameter SAMLResponse")
        }
        let response: SAMLResponse
        let verdict: SignatureVerdict?
        do throws(HandlerFailure) {
            (response, verdict) = try context.samlResponse(encoded, r, at: now)
        } catch {
            throw V2Failure(.invalidParameterSAMLResponse, error.message)
        }
        guard
            let idp = context.world.identityProviders.first(where: {
                $0.url.withoutTrailingSlashes == response.issuer
            })
        else {
            throw V2Failure(.invalidParameterSAMLResponse, "the SAML response is not from a known identity provider")
        }
        let mvpd = try v2MVPD(idp.mvpdID, sp, requestor, in: context)
        if r.request.headers.first(lowercased: "ap-partner-framework-status") != nil {
            let status = try V2PartnerStatus.from(r.request.headers, at: now)
            guard context.world.restV2.platformMappingID(of: mvpd.id) == status.providerID else {
                throw V2Failure(.pfsProviderIDMismatch, "the partner framework's provider is not \(mvpd.id)")
            }
        }
        guard response.success, let assertion = response.assertion, assertion.issuer == response.issuer else {
            throw V2Failure(.invalidParameterSAMLResponse, "the SAML response carries no assertion from its issuer")
        }
        if let problem = context.assertionProblem(
            assertion, verdict: verdict, from: idp, audience: SDKFamily.platformAudience, at: now)
        {
            throw V2Failure(.invalidParameterSAMLResponse, problem)
        }
        guard let user = idps.user(nameID: assertion.nameID), user.mvpdID == mvpd.id else {
            throw V2Failure(.identityNotRecognizedByMVPD, "the MVPD gave this NameID to nobody")
        }
        let key = V2ProfileKey(deviceID: device.id, requestorID: requestor.id, mvpdID: mvpd.id)
        let profile = V2Profile(
            origin: .appleSSO(.init(user: user, nameID: assertion.nameID, sessionIndex: assertion.sessionIndex)),
            sessionID: context.random.guid(), notBefore: now,
            notAfter: now + v2ProfileTTL(requestor, mvpdID: mvpd.id, in: context))
        v2Store(profile, key, limits: context.limits)
        return Self.v2JSON(
            [
                Value.Entry(
                    "profiles", .dict([Value.Entry(mvpd.id, v2ProfileObject(profile, key: key, in: context, at: now))]))
            ],
            status: 201)
    }
}
