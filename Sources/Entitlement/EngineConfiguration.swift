import PassModel

/// What the engine knows about the device and the app before any call.
public struct EngineConfiguration: Hashable, Sendable {
    public var platform: Platform
    public var deviceType: DeviceType
    /// The SP `setRequestor` reaches without `serviceProviders:` (Adobe's production SP on a real device).
    public var defaultServiceProvider: String
    /// The app's own custom scheme for SVC logins (`adbe.`-prefixed).
    public var svcScheme: String
    public var deviceID: String
    public var clientVersion: String
    /// How long any request may take before it counts as failed (BEHAVIOR.md: 30 s for configuration).
    public var requestTimeout: Millis
    /// The requests behind the API: the SDK's own, or REST API v2's.
    public var wire: EngineWire
    /// REST API v2: the MVPDs the app knows to be its promotional TempPasses. v2's configuration says
    /// `isTempPass` only, yet a promotional pass's session needs the `AP-TempPass-Identity` header
    /// (rest-api-v2.md 1.4), so a v2 client knows them from its own set-up (docs/CONFORMANCE.md,
    /// choice 79). The SDK's wire reads them from the requestor's configuration and ignores this.
    public var promotionalTempPasses: Set<String>

    public init(
        platform: Platform = .ios, deviceType: DeviceType = .mobile,
        defaultServiceProvider: String = "https://sp.auth.adobe.com/adobe-services",
        svcScheme: String = "adbe.u-passim://adobe.com", deviceID: String = "passim-device",
        clientVersion: String = "3.7.1", requestTimeout: Millis = .seconds(30), wire: EngineWire = .sdk,
        promotionalTempPasses: Set<String> = []
    ) {
        self.platform = platform
        self.deviceType = deviceType
        self.defaultServiceProvider = defaultServiceProvider
        self.svcScheme = svcScheme
        self.deviceID = deviceID
        self.clientVersion = clientVersion
        self.requestTimeout = requestTimeout
        self.wire = wire
        self.promotionalTempPasses = promotionalTempPasses
    }

    /// `serviceProviders` entries may lack a scheme (`sp.auth.adobe.com/adobe-services`): the SDK
    /// prepends `https://` (adobe-pass-facts §1). A trailing slash is dropped so paths join cleanly.
    public static func normalizeSP(_ url: String) -> String {
        var u = url.containsBytes("://") ? url : "https://" + url
        while u.hasSuffix("/") { u.removeLast() }
        return u
    }
}
