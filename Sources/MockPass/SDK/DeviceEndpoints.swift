import PassModel
import PassXML

/// The endpoints of `Route` (the ones the engine calls): the SDK device family's token endpoints
/// (facts §1, §3-4: the paths of AccessEnablerConstants.h and AND-1.8), the endpoints the engine
/// calls beside them (TempPass, tvOS, Apple SSO, client registration) and the SDK's browser pages.
/// The token endpoints answer refusals with `ErrorXML` bodies, except a wrong method (405, text).
extension MockPass {
    mutating func handleRoute(
        _ route: Route, _ parameter: String?, _ sp: World.ServiceProvider, _ r: IncomingRequest,
        at now: Instant
    ) throws(HandlerFailure) -> HTTPResponse {
        // REST v1's, answered before this (`handleServiceProviderHost`): not reached.
        if route == .restLogout { throw .notFound(MockPass.spFamilies) }
        try r.expect(route.method)
        switch route {
        case .config: return try config(sp, requestorID: parameter ?? "")
        case .authenticateSAML: return try authenticate(sp, r, at: now)
        case .logout: return try logout(sp, r, at: now)
        case .clientRegister: return try registerClient(r, at: now)
        case .clientToken: return try issueAccessToken(r, at: now)
        case .restLogout: throw .notFound(MockPass.spFamilies)
        case .sessionDevice, .userMetadata, .authorizeDevice, .deviceShortAuthorize, .preauthorize, .getMetadataDevice,
            .freePreview, .registrationCode, .checkAuthentication, .tokenExchange:
            break
        }
        do throws(HandlerFailure) {
            switch route {
            case .sessionDevice: return try sessionDevice(sp, r, at: now)
            case .userMetadata: return try userMetadata(sp, r, at: now)
            case .authorizeDevice: return try authorizeDevice(sp, r, at: now)
            case .deviceShortAuthorize: return try deviceShortAuthorize(r, at: now)
            case .preauthorize: return try preauthorize(sp, r, at: now)
            case .getMetadataDevice: return try metadataDevice(sp, r, at: now)
            case .freePreview: return try freePreview(sp, r, at: now)
            case .registrationCode: return try createRegistrationCode(sp, r, requestorID: parameter ?? "", at: now)
            case .checkAuthentication: return try checkAuthentication(r, code: parameter ?? "", at: now)
            case .tokenExchange: return try exchangePlatformToken(sp, r, at: now)
            case .config, .authenticateSAML, .logout, .clientRegister, .clientToken, .restLogout:
                throw .notFound(MockPass.spFamilies)  // answered above
            }
        } catch {
            throw error.inXML
        }
    }
}
