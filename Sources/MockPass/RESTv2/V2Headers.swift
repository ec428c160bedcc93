import PassModel

/// The device a REST v2 call is about, from `AP-Device-Identifier` and `X-Device-Info`
/// (rest-api-v2.md 1.4). Each bad header answers its own code; nothing is kept from a refused call.
struct V2Device: Sendable {
    /// The Base64 after `fingerprint ` (kept as sent: two spellings of one id are two devices, as at Adobe).
    var id: String
    /// The decoded X-Device-Info object.
    var info: Value

    static func from(_ headers: HTTPHeaders) throws(V2Failure) -> V2Device {
        V2Device(id: try deviceIdentifier(headers), info: try deviceInfo(headers))
    }

    /// `AP-Device-Identifier: fingerprint <Base64>`; `fingerprint` is the only type Adobe defines.
    static func deviceIdentifier(_ headers: HTTPHeaders) throws(V2Failure) -> String {
        guard let value = headers.first(lowercased: "ap-device-identifier") else {
            throw V2Failure(.invalidHeaderDeviceIdentifier, "missing header AP-Device-Identifier")
        }
        guard value.utf8.count <= V2Limits.headerBytes else {
            throw V2Failure(
                .invalidHeaderDeviceIdentifier, "AP-Device-Identifier is longer than \(V2Limits.headerBytes) bytes")
        }
        let parts = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0] == "fingerprint" else {
            throw V2Failure(.invalidHeaderDeviceIdentifier, "AP-Device-Identifier must be `fingerprint <Base64>`")
        }
        let id = String(parts[1]).trimmingSpaces
        guard let bytes = StrictBase64.decode(id), !bytes.isEmpty else {
            throw V2Failure(.invalidHeaderDeviceIdentifier, "the AP-Device-Identifier fingerprint is not Base64")
        }
        return id
    }

    /// The keys Adobe marks required (rest-api-v2.md 1.4).
    static let requiredKeys = ["model", "version", "osName", "osVersion", "connectionType"]

    /// `primaryHardwareType`'s 18 values (pass.en, "X-Device-Info").
    static let hardwareTypes: Set<String> = [
        "Camera", "DataCollectionTerminal", "Desktop", "EmbeddedNetworkModule", "eReader", "GamesConsole",
        "GeolocationTracker", "Glasses", "MediaPlayer", "MobilePhone", "PaymentTerminal", "PluginModem",
        "SetTopBox", "TV", "Tablet", "WirelessHotspot", "Wristwatch", "Unknown",
    ]
    /// `osName`'s values, compared without case (Adobe's pages spell "Chrome OS" two ways).
    static let osNames: Set<String> = [
        "android", "chrome os", "linux", "mac os", "os x", "openbsd", "roku os", "windows", "ios", "tvos", "webos",
    ]
    /// `osFamily`'s values, compared without case.
    static let osFamilies: Set<String> = [
        "android", "bsd", "linux", "playstation os", "roku os", "symbian", "tizen", "windows", "ios", "tvos",
        "macos", "webos",
    ]

    /// `X-Device-Info`: Base64 of a JSON object with the required keys as non-empty strings and the
    /// restricted keys within their values.
    static func deviceInfo(_ headers: HTTPHeaders) throws(V2Failure) -> Value {
        guard let value = headers.first(lowercased: "x-device-info") else {
            throw V2Failure(.invalidHeaderDeviceInfo, "missing header X-Device-Info")
        }
        guard value.utf8.count <= V2Limits.headerBytes else {
            throw V2Failure(.invalidHeaderDeviceInfo, "X-Device-Info is longer than \(V2Limits.headerBytes) bytes")
        }
        guard let info = StrictBase64.jsonObject(value.trimmingSpaces) else {
            throw V2Failure(.invalidHeaderDeviceInfo, "X-Device-Info is not Base64 of a JSON object")
        }
        for key in requiredKeys {
            guard let text = info[key]?.stringValue, !text.isEmpty else {
                throw V2Failure(.invalidHeaderDeviceInfo, "X-Device-Info lacks \(key)")
            }
        }
        if let hardware = info["primaryHardwareType"] {
            guard let text = hardware.stringValue, hardwareTypes.contains(text) else {
                throw V2Failure(.invalidHeaderDeviceInfo, "X-Device-Info has an unknown primaryHardwareType")
            }
        }
        if let name = info["osName"]?.stringValue, !osNames.contains(name.lowercased()) {
            throw V2Failure(.invalidHeaderDeviceInfo, "X-Device-Info has an unknown osName")
        }
        if let family = info["osFamily"] {
            guard let text = family.stringValue, osFamilies.contains(text.lowercased()) else {
                throw V2Failure(.invalidHeaderDeviceInfo, "X-Device-Info has an unknown osFamily")
            }
        }
        return info
    }

    /// The status answer's `device`, in the shape of the contract's `Device` (keys in a fixed order).
    var described: Value {
        var entries: [Value.Entry] = []
        if let type = info["primaryHardwareType"]?.stringValue { entries.append(Value.Entry("type", .string(type))) }
        if let model = info["model"]?.stringValue { entries.append(Value.Entry("model", .string(model))) }
        if let version = info["version"]?.stringValue {
            entries.append(Value.Entry("version", V2Device.version(version)))
        }
        var hardware: [Value.Entry] = []
        if let m = info["manufacturer"]?.stringValue { hardware.append(Value.Entry("manufacturer", .string(m))) }
        if let v = info["vendor"]?.stringValue { hardware.append(Value.Entry("vendor", .string(v))) }
        if !hardware.isEmpty { entries.append(Value.Entry("hardware", .dict(hardware))) }
        var os: [Value.Entry] = []
        if let n = info["osName"]?.stringValue { os.append(Value.Entry("name", .string(n))) }
        if let f = info["osFamily"]?.stringValue { os.append(Value.Entry("family", .string(f))) }
        if let v = info["osVendor"]?.stringValue { os.append(Value.Entry("vendor", .string(v))) }
        if let v = info["osVersion"]?.stringValue { os.append(Value.Entry("version", V2Device.version(v))) }
        entries.append(Value.Entry("operatingSystem", .dict(os)))
        var connection: [Value.Entry] = []
        if let t = info["connectionType"]?.stringValue { connection.append(Value.Entry("type", .string(t))) }
        if let s = info["connectionSecure"]?.boolValue { connection.append(Value.Entry("secure", .bool(s))) }
        entries.append(Value.Entry("connection", .dict(connection)))
        if let app = info["applicationId"]?.stringValue { entries.append(Value.Entry("applicationId", .string(app))) }
        return .dict(entries)
    }

    /// `10.2.1` → `{major: 10, minor: 2, patch: 1}`; what is not numbers stays whole as `profile`.
    static func version(_ text: String) -> Value {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        let numbers = parts.compactMap { Int32($0) }.filter { $0 >= 0 }
        guard !parts.isEmpty, parts.count <= 3, numbers.count == parts.count else {
            return .dict([Value.Entry("profile", .string(text))])
        }
        let names = ["major", "minor", "patch"]
        return .dict(zip(names, numbers).map { Value.Entry($0.0, .int(Int($0.1))) })
    }
}

/// `AP-Partner-Framework-Status` (rest-api-v2.md 1.4): Base64 of
/// `{frameworkPermissionInfo: {accessStatus}, frameworkProviderInfo: {id, expirationDate}}`.
struct V2PartnerStatus: Sendable {
    var providerID: String
    var expiration: Instant?

    /// Checked in Adobe's order: the permission (present, decided, granted), then the provider
    /// (named, not expired). Which MVPD it names is the caller's check (`provider_id_mismatch`).
    /// The provider a status names, whatever it says of access (a partner session's fallback still
    /// names the MVPD): nil when the header is missing, unreadable or names none.
    static func providerID(in headers: HTTPHeaders) -> String? {
        guard let value = headers.first(lowercased: "ap-partner-framework-status"),
            value.utf8.count <= V2Limits.headerBytes,
            let json = StrictBase64.jsonObject(value.trimmingSpaces),
            let id = json["frameworkProviderInfo"]?["id"]?.stringValue, !id.isEmpty
        else { return nil }
        return id
    }

    static func from(_ headers: HTTPHeaders, at now: Instant) throws(V2Failure) -> V2PartnerStatus {
        guard let value = headers.first(lowercased: "ap-partner-framework-status"),
            value.utf8.count <= V2Limits.headerBytes,
            let json = StrictBase64.jsonObject(value.trimmingSpaces)
        else {
            throw V2Failure(
                .pfsPermissionAccessNotPresent, "AP-Partner-Framework-Status is missing or not Base64 of a JSON object")
        }
        guard let status = json["frameworkPermissionInfo"]?["accessStatus"]?.stringValue else {
            throw V2Failure(.pfsPermissionAccessNotPresent, "frameworkPermissionInfo.accessStatus is missing")
        }
        switch status {
        case "granted": break
        case "notDetermined": throw V2Failure(.pfsPermissionAccessNotDetermined, "accessStatus is notDetermined")
        case "denied", "restricted": throw V2Failure(.pfsPermissionAccessNotGranted, "accessStatus is \(status)")
        default: throw V2Failure(.pfsPermissionAccessNotPresent, "accessStatus has no known value")
        }
        let provider = json["frameworkProviderInfo"]
        guard let id = provider?["id"]?.stringValue, !id.isEmpty else {
            throw V2Failure(.pfsProviderIDNotDetermined, "frameworkProviderInfo.id is missing")
        }
        var expiration: Instant?
        if let text = provider?["expirationDate"]?.stringValue ?? provider?["expirationDate"]?.intValue.map(String.init)
        {
            guard let ms = Int64(text) else {
                throw V2Failure(
                    .pfsProviderInfoExpired, "frameworkProviderInfo.expirationDate is not a time in milliseconds")
            }
            guard now.milliseconds < ms else {
                throw V2Failure(.pfsProviderInfoExpired, "frameworkProviderInfo.expirationDate has passed")
            }
            expiration = Instant(milliseconds: ms)
        }
        return V2PartnerStatus(providerID: id, expiration: expiration)
    }
}

extension HTTPHeaders {
    /// `AP-TempPass-Identity`: nil when absent; Base64 of a non-empty JSON object, else
    /// `invalid_header_identity_for_temporary_access`. The identity is the object's canonical JSON.
    func tempPassIdentity() throws(V2Failure) -> String? {
        guard let value = first(lowercased: "ap-temppass-identity") else { return nil }
        guard value.utf8.count <= V2Limits.headerBytes, let json = StrictBase64.jsonObject(value.trimmingSpaces),
            case .dict(let entries) = json, !entries.isEmpty
        else {
            throw V2Failure(
                .invalidHeaderIdentityForTemporaryAccess,
                "AP-TempPass-Identity is not Base64 of a non-empty JSON object")
        }
        return Value.dict(entries.sorted { $0.key < $1.key }).jsonText
    }

    /// Whom the throttle counts a call against: the first `X-Forwarded-For` address (Adobe's key),
    /// else the device identifier, else one shared bucket (a mock request carries no peer address).
    var throttleKey: String {
        if let forwarded = first(lowercased: "x-forwarded-for") {
            let first = forwarded.split(separator: ",", maxSplits: 1).first.map { String($0).trimmingSpaces } ?? ""
            if !first.isEmpty { return "ip " + String(first.prefix(64)) }
        }
        if let device = first(lowercased: "ap-device-identifier") { return "device " + String(device.prefix(256)) }
        return "anonymous"
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" { s = s.dropFirst() }
        while let c = s.last, c == " " || c == "\t" { s = s.dropLast() }
        return String(s)
    }
}
