import PassModel
import PassXML

/// Routing for the SDK device family's token endpoints (facts §1, §3-4: the paths of
/// AccessEnablerConstants.h and AND-1.8) and the endpoints the engine itself calls beside them
/// (TempPass, tvOS, Apple SSO, REST logout). They answer refusals with `ErrorXML` bodies, except a
/// wrong method (405, text). `HostTable` has already dropped a `/1.0` segment and doubled slashes.
extension MockPass {
    private enum DeviceRoute {
        case sessionDevice, authorizeDevice, deviceShortAuthorize, preauthorize, getMetadataDevice, userMetadata
        case freePreview
        case regcode(requestorID: String), checkAuthn(code: String), tokenExchange, restLogout

        var method: String {
            switch self {
            case .checkAuthn: return "GET"
            case .restLogout: return "DELETE"
            default: return "POST"
            }
        }
    }

    /// nil when the path is not one of these endpoints.
    private static func deviceRoute(_ path: String) -> DeviceRoute? {
        switch path {
        case "/sessionDevice": return .sessionDevice
        case "/usermetadata": return .userMetadata
        case "/authorizeDevice": return .authorizeDevice
        case "/deviceShortAuthorize": return .deviceShortAuthorize
        case "/preauthorize": return .preauthorize
        case "/getMetadataDevice": return .getMetadataDevice
        case "/authenticate/freepreview": return .freePreview
        case "/api/v1/tokens/authn": return .tokenExchange
        case "/api/v1/logout": return .restLogout
        default: break
        }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if segments.count == 5, segments[0].isEmpty, segments[1] == "reggie", segments[2] == "v1",
           !segments[3].isEmpty, segments[4] == "regcode" {
            return .regcode(requestorID: segments[3])
        }
        if segments.count == 5, segments[0].isEmpty, segments[1] == "api", segments[2] == "v1",
           segments[3] == "checkauthn", !segments[4].isEmpty {
            return .checkAuthn(code: segments[4])
        }
        return nil
    }

    mutating func handleDeviceEndpoint(_ sp: World.ServiceProvider, _ r: IncomingRequest,
                                       at now: Instant) throws(HandlerFailure) -> HTTPResponse? {
        guard let route = MockPass.deviceRoute(r.path) else { return nil }
        try r.expect(route.method)
        do throws(HandlerFailure) {
            switch route {
            case .sessionDevice: return try sessionDevice(sp, r, at: now)
            case .userMetadata: return try userMetadata(sp, r, at: now)
            case .authorizeDevice: return try authorizeDevice(sp, r, at: now)
            case .deviceShortAuthorize: return try deviceShortAuthorize(r, at: now)
            case .preauthorize: return try preauthorize(sp, r, at: now)
            case .getMetadataDevice: return try metadataDevice(sp, r, at: now)
            case .freePreview: return try freePreview(sp, r, at: now)
            case .regcode(let requestorID): return try createRegistrationCode(sp, r, requestorID: requestorID, at: now)
            case .checkAuthn(let code): return try checkAuthentication(r, code: code, at: now)
            case .tokenExchange: return try exchangePlatformToken(sp, r, at: now)
            case .restLogout: return try deviceLogout(r)
            }
        } catch {
            throw error.inXML
        }
    }
}
