import PassModel
import PassXML

/// Routing for the SDK device family's token endpoints (facts §1, §3-4: the paths of
/// AccessEnablerConstants.h and AND-1.8) and the endpoints the engine itself calls beside them
/// (TempPass, tvOS, Apple SSO). They answer refusals with `ErrorXML` bodies, except a
/// wrong method (405, text). `HostTable` has already dropped a `/1.0` segment and doubled slashes.
extension MockPass {
    mutating func handleDeviceEndpoint(
        _ sp: World.ServiceProvider, _ r: IncomingRequest,
        at now: Instant
    ) throws(HandlerFailure) -> HTTPResponse? {
        guard let (route, parameter) = Route.route(atSPPath: r.path) else { return nil }
        switch route {
        case .sessionDevice, .userMetadata, .authorizeDevice, .deviceShortAuthorize, .preauthorize, .getMetadataDevice,
            .freePreview, .registrationCode, .checkAuthentication, .tokenExchange:
            try r.expect(route.method)
        case .config, .authenticateSAML, .logout, .restLogout, .clientRegister, .clientToken:
            return nil  // the other handlers' (ServiceProviderHandler, RestAPIHandler, ClientRegistrationHandler)
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
            case .config, .authenticateSAML, .logout, .restLogout, .clientRegister, .clientToken: return nil
            }
        } catch {
            throw error.inXML
        }
    }
}
