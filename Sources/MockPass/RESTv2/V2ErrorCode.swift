import PassModel

/// The `action` class of an enhanced error code: what a client should do about it
/// (rest-api-v2.md 1.6). A client branches on this, not on the code.
enum V2ErrorAction: String, Sendable, CaseIterable {
    case none
    case configuration
    case applicationRegistration = "application-registration"
    case authentication
    case retry
}

/// The 47 enhanced error codes of REST API v2 (rest-api-v2.md 1.6), as data. `allCases` is the
/// table docs/WIRE.md must have one row for each of (`V2ErrorTableTests` checks it).
enum V2ErrorCode: String, Sendable, CaseIterable {
    // action none (23)
    case invalidParameterServiceProvider = "invalid_parameter_service_provider"
    case invalidParameterMVPD = "invalid_parameter_mvpd"
    case invalidParameterCode = "invalid_parameter_code"
    case invalidParameterResources = "invalid_parameter_resources"
    case invalidParameterRedirectURL = "invalid_parameter_redirect_url"
    case invalidParameterPartner = "invalid_parameter_partner"
    case invalidParameterSAMLResponse = "invalid_parameter_saml_response"
    case invalidHeaderDeviceInfo = "invalid_header_device_info"
    case invalidHeaderDeviceIdentifier = "invalid_header_device_identifier"
    case invalidHeaderIdentityForTemporaryAccess = "invalid_header_identity_for_temporary_access"
    case pfsPermissionAccessNotPresent = "invalid_header_pfs_permission_access_not_present"
    case pfsPermissionAccessNotDetermined = "invalid_header_pfs_permission_access_not_determined"
    case pfsPermissionAccessNotGranted = "invalid_header_pfs_permission_access_not_granted"
    case pfsProviderIDNotDetermined = "invalid_header_pfs_provider_id_not_determined"
    case pfsProviderIDMismatch = "invalid_header_pfs_provider_id_mismatch"
    case pfsProviderInfoExpired = "invalid_header_pfs_provider_info_expired"
    case invalidIntegration = "invalid_integration"
    case invalidAuthenticationSession = "invalid_authentication_session"
    case preauthorizationDeniedByMVPD = "preauthorization_denied_by_mvpd"
    case authorizationDeniedByMVPD = "authorization_denied_by_mvpd"
    case authorizationDeniedByParentalControls = "authorization_denied_by_parental_controls"
    case authorizationDeniedByDegradationRule = "authorization_denied_by_degradation_rule"
    case internalServerError = "internal_server_error"
    // action configuration (11)
    case tooManyResources = "too_many_resources"
    case configurationUserMetadataCertificate = "invalid_configuration_user_metadata_certificate"
    case configurationTemporaryAccess = "invalid_configuration_temporary_access"
    case configurationPlatform = "invalid_configuration_platform"
    case configurationPlatformID = "invalid_configuration_platform_id"
    case configurationPlatformTrait = "invalid_configuration_platform_trait"
    case configurationPlatformCategoryTrait = "invalid_configuration_platform_category_trait"
    case configurationPlatformServices = "invalid_configuration_platform_services"
    case configurationMVPDPlatform = "invalid_configuration_mvpd_platform"
    case configurationMVPDPlatformBoardingStatus = "invalid_configuration_mvpd_platform_boarding_status"
    case configurationMVPDPlatformProfileExchange = "invalid_configuration_mvpd_platform_profile_exchange"
    // action application-registration (2)
    case accessTokenServiceProvider = "invalid_access_token_service_provider"
    case accessTokenClientApplication = "invalid_access_token_client_application"
    // action authentication (8)
    case profileMissing = "authenticated_profile_missing"
    case profileExpired = "authenticated_profile_expired"
    case profileInvalidated = "authenticated_profile_invalidated"
    case temporaryAccessDurationLimitExceeded = "temporary_access_duration_limit_exceeded"
    case temporaryAccessResourcesLimitExceeded = "temporary_access_resources_limit_exceeded"
    case deniedByHBAPolicies = "authorization_denied_by_hba_policies"
    case deniedBySessionInvalidated = "authorization_denied_by_session_invalidated"
    case identityNotRecognizedByMVPD = "identity_not_recognized_by_mvpd"
    // action retry (3)
    case networkReceivedError = "network_received_error"
    case networkConnectionTimeout = "network_connection_timeout"
    case maximumExecutionTimeExceeded = "maximum_execution_time_exceeded"

    var action: V2ErrorAction {
        switch self {
        case .tooManyResources, .configurationUserMetadataCertificate, .configurationTemporaryAccess,
            .configurationPlatform, .configurationPlatformID, .configurationPlatformTrait,
            .configurationPlatformCategoryTrait, .configurationPlatformServices, .configurationMVPDPlatform,
            .configurationMVPDPlatformBoardingStatus, .configurationMVPDPlatformProfileExchange:
            return .configuration
        case .accessTokenServiceProvider, .accessTokenClientApplication:
            return .applicationRegistration
        case .profileMissing, .profileExpired, .profileInvalidated, .temporaryAccessDurationLimitExceeded,
            .temporaryAccessResourcesLimitExceeded, .deniedByHBAPolicies, .deniedBySessionInvalidated,
            .identityNotRecognizedByMVPD:
            return .authentication
        case .networkReceivedError, .networkConnectionTimeout, .maximumExecutionTimeExceeded:
            return .retry
        default:
            return .none
        }
    }

    /// The HTTP status Adobe gives each code (1.6): a bad request 400, a refused decision 403, a
    /// misconfiguration 500 (except `too_many_resources`, 403), a token 401, a fault 403.
    var status: Int {
        switch self {
        case .internalServerError: return 500
        case .preauthorizationDeniedByMVPD, .authorizationDeniedByMVPD, .authorizationDeniedByParentalControls,
            .authorizationDeniedByDegradationRule, .tooManyResources:
            return 403
        default: break
        }
        switch action {
        case .none: return 400
        case .configuration: return 500
        case .applicationRegistration: return 401
        case .authentication, .retry: return 403
        }
    }

    /// A short human sentence (the mock's own words; Adobe's are not copied).
    var message: String {
        switch self {
        case .invalidParameterServiceProvider: return "The service provider is unknown or missing."
        case .invalidParameterMVPD: return "The MVPD is unknown, missing or not integrated with the service provider."
        case .invalidParameterCode: return "The authentication code is unknown or missing."
        case .invalidParameterResources: return "The resources are missing or malformed."
        case .invalidParameterRedirectURL: return "The redirect URL is missing or malformed."
        case .invalidParameterPartner: return "The partner is not supported."
        case .invalidParameterSAMLResponse: return "The partner SAML response is missing or invalid."
        case .invalidHeaderDeviceInfo: return "The X-Device-Info header is missing or invalid."
        case .invalidHeaderDeviceIdentifier: return "The AP-Device-Identifier header is missing or invalid."
        case .invalidHeaderIdentityForTemporaryAccess: return "The AP-TempPass-Identity header is missing or invalid."
        case .pfsPermissionAccessNotPresent:
            return "The partner framework status does not say whether access is permitted."
        case .pfsPermissionAccessNotDetermined:
            return "The user has not yet decided on access to the partner framework."
        case .pfsPermissionAccessNotGranted: return "The user did not grant access to the partner framework."
        case .pfsProviderIDNotDetermined: return "The partner framework status names no provider."
        case .pfsProviderIDMismatch: return "The partner framework's provider is not the MVPD of the request."
        case .pfsProviderInfoExpired: return "The partner framework's provider information has expired."
        case .invalidIntegration: return "The MVPD has no active integration with the service provider."
        case .invalidAuthenticationSession: return "The authentication session is expired, incomplete or invalid."
        case .preauthorizationDeniedByMVPD: return "The MVPD denied the preauthorization of the resource."
        case .authorizationDeniedByMVPD: return "The MVPD denied the authorization of the resource."
        case .authorizationDeniedByParentalControls: return "Parental controls deny the authorization of the resource."
        case .authorizationDeniedByDegradationRule: return "A degradation rule denies the authorization."
        case .internalServerError: return "The server failed to handle the request."
        case .tooManyResources: return "The request names more resources than are allowed at once."
        case .configurationUserMetadataCertificate: return "The user metadata certificate is not configured."
        case .configurationTemporaryAccess: return "The temporary access is not configured correctly."
        case .configurationPlatform: return "The platform is not configured."
        case .configurationPlatformID: return "The platform identifier is not configured."
        case .configurationPlatformTrait: return "The platform trait is not configured."
        case .configurationPlatformCategoryTrait: return "The platform category trait is not configured."
        case .configurationPlatformServices: return "The platform services are not enabled."
        case .configurationMVPDPlatform: return "The MVPD is not configured for the platform."
        case .configurationMVPDPlatformBoardingStatus:
            return "The MVPD's boarding status does not allow the platform flow."
        case .configurationMVPDPlatformProfileExchange: return "The MVPD does not allow the platform profile exchange."
        case .accessTokenServiceProvider: return "The access token was not issued for this service provider."
        case .accessTokenClientApplication: return "The access token is missing, unknown or expired."
        case .profileMissing: return "There is no authenticated profile for this device and MVPD."
        case .profileExpired: return "The authenticated profile has expired."
        case .profileInvalidated: return "The authenticated profile was invalidated."
        case .temporaryAccessDurationLimitExceeded: return "The temporary access period has ended."
        case .temporaryAccessResourcesLimitExceeded: return "The temporary access resource limit is reached."
        case .deniedByHBAPolicies: return "Home base authentication policies deny the authorization."
        case .deniedBySessionInvalidated: return "The MVPD invalidated the user's session."
        case .identityNotRecognizedByMVPD: return "The MVPD does not recognise the user."
        case .networkReceivedError: return "The MVPD answered with an error."
        case .networkConnectionTimeout: return "The connection to the MVPD timed out."
        case .maximumExecutionTimeExceeded: return "The request took longer than allowed."
        }
    }

    /// Adobe's page of the codes, anchored at the REST v2 table.
    static let helpURL =
        "https://experienceleague.adobe.com/docs/pass/authentication/integration-guide-programmers/"
        + "features-standard/error-reporting/enhanced-error-codes.html#rest-api-v2"
}

/// A refusal with an enhanced error code: the handler throws it, the dispatcher turns it into the
/// error object (with a trace drawn from the mock's seeded generator, so a run replays exactly).
struct V2Failure: Error, Sendable {
    var code: V2ErrorCode
    /// Why the mock refused, in its own words: the `X-Passim-Explanation` header of a refused call,
    /// never a key of the body, whose shape is Adobe's.
    var explanation: String
    /// What the MVPD itself said (its deny message): the error's `details`, which Adobe's samples
    /// show only there. nil for every other refusal.
    var details: String?
    var headers: HTTPHeaders = []

    init(_ code: V2ErrorCode, _ explanation: String = "", details: String? = nil, headers: HTTPHeaders = []) {
        self.code = code
        self.explanation = explanation
        self.details = details
        self.headers = headers
    }

    /// The error object, keys in the order of Adobe's samples.
    func object(trace: String) -> Value {
        var e = [
            Value.Entry("action", .string(code.action.rawValue)),
            Value.Entry("status", .int(code.status)),
            Value.Entry("code", .string(code.rawValue)),
            Value.Entry("message", .string(code.message)),
        ]
        if let details { e.append(Value.Entry("details", .string(details))) }
        e.append(Value.Entry("helpUrl", .string(V2ErrorCode.helpURL)))
        e.append(Value.Entry("trace", .string(trace)))
        return .dict(e)
    }

    func response(trace: String) -> HTTPResponse {
        var all = headers
        if !explanation.isEmpty { all.add("X-Passim-Explanation", explanation.headerSafe()) }
        return HTTPResponse(
            status: code.status, contentType: Reply.json, text: object(trace: trace).jsonText, headers: all)
    }
}
