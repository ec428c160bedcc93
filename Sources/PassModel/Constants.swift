/// The constants of BEHAVIOR.md ("Constants"), by symbol. Scenarios and the port protocol name them
/// by symbol; a constant in an expectation matches the value it stands for.
public enum Constants {
    public static let statusSuccess = 1
    public static let statusError = 0

    public static let userAuthenticated = ""
    public static let userNotAuthenticatedError = "User Not Authenticated Error"
    public static let providerNotSelectedError = "Provider Not Selected Error"
    public static let genericAuthenticationError = "Generic Authentication Error"
    public static let userNotAuthorizedError = "User Not Authorized Error"
    public static let genericAuthorizationError = "Generic Authorization Error"
    public static let adobePassRedirectURL = "adobepass://ios.app"

    public static let trackingAuthentication = 0
    public static let trackingAuthorization = 1
    public static let trackingGetSelectedProvider = 2

    public static let metadataAuthentication = 0
    public static let metadataAuthorization = 1
    public static let metadataDeviceID = 2
    public static let metadataUserMeta = 3
    public static let metadataOpcodeKey = "opCode"
    public static let metadataResourceIDKey = "resource_id"
    public static let metadataUserMetaKey = "user_metadata_name"

    public static let tvProviders = "TV_PROVIDERS"
    public static let featuredTvProviders = "FEATURED_TV_PROVIDERS"

    /// Every symbol a scenario may write in a value position, in a fixed order.
    public static let all: [(symbol: String, value: Value)] = [
        ("ACCESS_ENABLER_STATUS_SUCCESS", .int(statusSuccess)),
        ("ACCESS_ENABLER_STATUS_ERROR", .int(statusError)),
        ("USER_AUTHENTICATED", .string(userAuthenticated)),
        ("USER_NOT_AUTHENTICATED_ERROR", .string(userNotAuthenticatedError)),
        ("PROVIDER_NOT_SELECTED_ERROR", .string(providerNotSelectedError)),
        ("GENERIC_AUTHENTICATION_ERROR", .string(genericAuthenticationError)),
        ("USER_NOT_AUTHORIZED_ERROR", .string(userNotAuthorizedError)),
        ("GENERIC_AUTHORIZATION_ERROR", .string(genericAuthorizationError)),
        ("ADOBEPASS_REDIRECT_URL", .string(adobePassRedirectURL)),
        ("TRACKING_AUTHENTICATION", .int(trackingAuthentication)),
        ("TRACKING_AUTHORIZATION", .int(trackingAuthorization)),
        ("TRACKING_GET_SELECTED_PROVIDER", .int(trackingGetSelectedProvider)),
        ("METADATA_AUTHENTICATION", .int(metadataAuthentication)),
        ("METADATA_AUTHORIZATION", .int(metadataAuthorization)),
        ("METADATA_DEVICE_ID", .int(metadataDeviceID)),
        ("METADATA_USER_META", .int(metadataUserMeta)),
        ("METADATA_OPCODE_KEY", .string(metadataOpcodeKey)),
        ("METADATA_RESOURCE_ID_KEY", .string(metadataResourceIDKey)),
        ("METADATA_USER_META_KEY", .string(metadataUserMetaKey)),
        ("TV_PROVIDERS", .string(tvProviders)),
        ("FEATURED_TV_PROVIDERS", .string(featuredTvProviders)),
        ("PICKER", .string(BoardingStatus.picker.rawValue)),
        ("SUPPORTED", .string(BoardingStatus.supported.rawValue)),
        ("VSA203", .string(StatusCode.vsa203)),
        ("N003", .string(StatusCode.otherProvider)),
        ("N005", .string(StatusCode.pickerCancelled)),
        ("REGCODE", .string(StatusCode.registrationCode)),
        ("R400", .string(StatusCode.registrationRefused)),
        ("REG500", .string(StatusCode.registrationCodeFailed)),
        ("CFG429", .string(StatusCode.configurationThrottled)),
        ("Z100", .string(StatusCode.authorizationThrottled)),
        ("P100", .string(StatusCode.preauthorizationThrottled)),
    ]

    private static let table: [String: Value] = Dictionary(uniqueKeysWithValues: all.map { ($0.symbol, $0.value) })

    /// The value of a constant's symbol, or nil when the identifier names no constant.
    public static func value(of symbol: String) -> Value? { table[symbol] }

    /// Symbols that callbacks render in a given argument position, so transcripts read like the docs.
    public static let authenticationErrors = [
        "USER_NOT_AUTHENTICATED_ERROR", "PROVIDER_NOT_SELECTED_ERROR", "GENERIC_AUTHENTICATION_ERROR",
    ]
    public static let authorizationErrors = [
        "USER_NOT_AUTHENTICATED_ERROR", "USER_NOT_AUTHORIZED_ERROR", "GENERIC_AUTHORIZATION_ERROR",
    ]
    public static let trackingEvents = [
        "TRACKING_AUTHENTICATION", "TRACKING_AUTHORIZATION", "TRACKING_GET_SELECTED_PROVIDER",
    ]
    public static let metadataOpcodes = [
        "METADATA_AUTHENTICATION", "METADATA_AUTHORIZATION", "METADATA_DEVICE_ID", "METADATA_USER_META",
    ]
    public static let statusCodes = ["VSA203", "N003", "N005", "REGCODE", "R400", "REG500", "CFG429", "Z100", "P100"]

    /// The first symbol among `candidates` whose value is `value`.
    public static func symbol(for value: Value, among candidates: [String]) -> String? {
        candidates.first { table[$0] == value }
    }
}

/// Codes of the `status(_:)` callback.
public enum StatusCode {
    public static let vsa203 = "VSA203"
    public static let otherProvider = "N003"
    public static let pickerCancelled = "N005"
    public static let registrationCode = "REGCODE"
    /// An SP origin refused the app's client registration (SDK 3.x).
    public static let registrationRefused = "R400"
    /// tvOS: the registration-code request was refused for want of a signature or an access token.
    public static let registrationCodeFailed = "REG500"
    /// Throttled (HTTP 429, BEHAVIOR.md, Throttling): the configuration request.
    public static let configurationThrottled = "CFG429"
    /// Throttled: an authorize or media-token request.
    public static let authorizationThrottled = "Z100"
    /// Throttled: a preauthorize request.
    public static let preauthorizationThrottled = "P100"
}

/// The platform the engine runs on (`platform ios|tvos`).
public enum Platform: String, Hashable, Sendable {
    case ios
    case tvos

    /// The OS field of tracking arrays.
    public var osName: String { self == .ios ? "iOS" : "tvOS" }
    /// The client-type field of tracking arrays: `ios` on iOS and tvOS.
    public var clientType: String { "ios" }
}

/// The tracking device type (`device ...`).
public enum DeviceType: String, Hashable, Sendable, CaseIterable {
    case computer, tablet, mobile, gameconsole, unknown
}
