/// Apple SSO boarding status of an MVPD (BEHAVIOR.md, "The MVPD object").
public enum BoardingStatus: String, Hashable, Sendable {
    /// Shown in Apple's picker; the login itself is Adobe's.
    case picker = "PICKER"
    /// Apple's token is used; no browser.
    case supported = "SUPPORTED"
}

/// A TV provider as the SDK hands it to the app, plus what the SP configuration says about it.
public struct MVPD: Hashable, Sendable {
    public var id: String
    public var displayName: String
    public var logoURL: String?
    public var enablePlatformServices: Bool
    public var boardingStatus: BoardingStatus?
    /// A TempPass pseudo-MVPD: selecting it authenticates at once.
    public var tempPass: Bool
    /// A promotional TempPass: needs `getAuthentication(false, withData:)`.
    public var promoTempPass: Bool
    /// The MVPD blocks web views: under `handleSVC` the login uses `navigateToUrl(url, true)`.
    public var requiresSVC: Bool
    /// The SP this MVPD was learnt from; every request about it goes there.
    public var spURL: String?

    public init(
        id: String, displayName: String, logoURL: String? = nil,
        enablePlatformServices: Bool = false, boardingStatus: BoardingStatus? = nil,
        tempPass: Bool = false, promoTempPass: Bool = false, requiresSVC: Bool = false,
        spURL: String? = nil
    ) {
        self.id = id
        self.displayName = displayName
        self.logoURL = logoURL
        self.enablePlatformServices = enablePlatformServices
        self.boardingStatus = boardingStatus
        self.tempPass = tempPass
        self.promoTempPass = promoTempPass
        self.requiresSVC = requiresSVC
        self.spURL = spURL
    }

    /// The fields a scenario may name in `Id{field: value}`, as values.
    public func field(_ name: String) -> Value? {
        switch name {
        case "id", "ID": return .string(id)
        case "displayName": return .string(displayName)
        case "logoURL", "logoUrl": return logoURL.map(Value.string) ?? .null
        case "enablePlatformServices": return .bool(enablePlatformServices)
        case "boardingStatus": return boardingStatus.map { .string($0.rawValue) } ?? .null
        case "tempPass": return .bool(tempPass)
        case "promoTempPass": return .bool(promoTempPass)
        case "requiresSVC", "svc": return .bool(requiresSVC)
        case "spUrl", "spURL": return spURL.map(Value.string) ?? .null
        default: return nil
        }
    }
}
