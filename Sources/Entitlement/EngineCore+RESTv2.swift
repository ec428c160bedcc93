import Crypto
import PassModel

/// The requests of the REST API v2 wire (rest-api-v2.md 1.3–1.4): each at the SP's origin
/// root, naming the requestor as Adobe's "service provider", with the device's two headers. They go
/// through `send` as the SDK wire's do, so they carry the app's options, wait for the origin's
/// registration and its Bearer token after `init(softwareStatement:)`, and have their deadline.
extension EngineCore {
    var isRESTv2: Bool { configuration.wire == .restV2 }

    /// A REST v2 request for `route` at the SP whose base URL is `sp`: a form (`form`), a JSON body
    /// (`json`), or nothing; `headers` beside the device's.
    func v2Request(
        _ route: V2Route, sp: String, query: [(String, String)] = [], form: [(String, String)]? = nil,
        json: Value? = nil, headers: [(String, String)] = []
    ) -> HTTPRequest {
        var h = HTTPHeaders([HTTPHeader("Accept", "application/json")])
        h.add("AP-Device-Identifier", v2Device.identifier)
        h.add("X-Device-Info", v2Device.info)
        for (name, value) in headers { h.add(name, value) }
        let url = route.url(atSP: sp, query: query)
        if let form { return .form(url, form, headers: h) }
        guard let json else { return HTTPRequest(method: route.method, url: url, headers: h) }
        h.add("Content-Type", "application/json")
        return HTTPRequest(method: route.method, url: url, headers: h, body: Array(json.jsonText.utf8))
    }

    /// `fingerprint` and the SHA-256 of the device id, as Adobe recommends for the IDFV (rest-api-v2.md
    /// 1.4): the same device is the same identifier on every call, and a changed one loses the profiles.
    static func v2DeviceIdentifier(_ configuration: EngineConfiguration) -> String {
        "fingerprint " + ClientlessSignature.base64(Array(SHA256.hash(data: Array(configuration.deviceID.utf8))))
    }

    /// `X-Device-Info`: Base64 of the JSON Adobe requires (`model`, `version`, `osName`, `osVersion`,
    /// `connectionType`), the hardware type from the device type.
    static func v2DeviceInfo(_ configuration: EngineConfiguration) -> String {
        let tv = configuration.platform == .tvos
        let hardware: String =
            switch configuration.deviceType {
            case .mobile: "MobilePhone"
            case .tablet: "Tablet"
            case .gameconsole: tv ? "MediaPlayer" : "GamesConsole"
            case .computer: "Desktop"
            case .unknown: "Unknown"
            }
        let info = Value.dict([
            Value.Entry("primaryHardwareType", .string(hardware)),
            Value.Entry("model", .string(tv ? "AppleTV" : "iPhone")),
            Value.Entry("version", .string(configuration.clientVersion)),
            Value.Entry("osName", .string(configuration.platform.osName)),
            Value.Entry("osVersion", .string("17.0")),
            Value.Entry("connectionType", .string("WiFi")),
        ])
        return ClientlessSignature.base64(Array(info.jsonText.utf8))
    }

    /// `POST sessions` for `mvpd`: the login's start on every platform (rest-api-v2.md 1.5); the
    /// device's redirect URL (the custom scheme for an SVC MVPD, as the SDK wire's login).
    /// `identity`: a promotional TempPass's `AP-TempPass-Identity` (the call's data, as JSON).
    func v2SessionRequest(_ mvpd: MVPD, identity: Value? = nil) -> HTTPRequest {
        let redirect = mvpd.requiresSVC ? configuration.svcScheme : Constants.adobePassRedirectURL
        let headers = identity.map { [Self.v2TempPassIdentity($0)] }
        return v2Request(
            .createSession(serviceProvider: requestorID), sp: spURL(forMVPD: mvpd.id),
            form: [("mvpd", mvpd.id), ("domainName", "adobe.com"), ("redirectUrl", redirect)], headers: headers ?? [])
    }

    /// A decision about a promotional TempPass names its identity, as its session did.
    var v2TempPassHeaders: [(String, String)] { store.tempPassIdentity.map { [Self.v2TempPassIdentity($0)] } ?? [] }

    /// A promotional TempPass's identity header: its data as Base64 JSON (rest-api-v2.md 1.4).
    static func v2TempPassIdentity(_ identity: Value) -> (String, String) {
        ("AP-TempPass-Identity", ClientlessSignature.base64(Array(identity.jsonText.utf8)))
    }

    /// Apple's token for the device's profile (`POST profiles/sso/Apple`, rest-api-v2.md 1.3), with
    /// the partner framework's status: access granted, its provider the MVPD (whose platform mapping
    /// is its id, as the configuration gives none) valid for a day.
    func v2PartnerProfileRequest(_ mvpd: MVPD, appleToken: String, at now: Instant) -> HTTPRequest {
        let status = Value.dict([
            Value.Entry("frameworkPermissionInfo", .dict([Value.Entry("accessStatus", .string("granted"))])),
            Value.Entry(
                "frameworkProviderInfo",
                .dict([
                    Value.Entry("id", .string(mvpd.id)),
                    Value.Entry("expirationDate", .string(String((now + .hours(24)).milliseconds))),
                ])),
        ])
        return v2Request(
            .partnerProfile(serviceProvider: requestorID, partner: "Apple"), sp: spURL(forMVPD: mvpd.id),
            form: [("SAMLResponse", appleToken)],
            headers: [("AP-Partner-Framework-Status", ClientlessSignature.base64(Array(status.jsonText.utf8)))])
    }
}
