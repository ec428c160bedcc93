import PassModel

/// The device a REST v2 call is about, from `AP-Device-Identifier` and `X-Device-Info`
/// (rest-api-v2.md 1.4). Each bad header answers its own code; nothing is kept from a refused call.
struct V2Device: Sendable {
    /// The Base64 after `fingerprint ` (kept as sent: two spellings of one id are two devices, as at Adobe).
    var id: String
    /// What Adobe keeps of the device: the decoded X-Device-Info object merged with what the request
    /// says implicitly (`merged(_:with:)`), in X-Device-Info's keys.
    var info: Value

    static func from(_ headers: HTTPHeaders) throws(V2Failure) -> V2Device {
        V2Device(id: try deviceIdentifier(headers), info: merged(try deviceInfo(headers), with: headers))
    }

    /// X-Device-Info with the request's own facts where Adobe's pages say the backend takes them
    /// (docs/CONFORMANCE.md, choice 89): `userAgent` from `User-Agent` when X-Device-Info names none,
    /// and `connectionIp` from `X-Forwarded-For`'s first address ("the IP address of the streaming
    /// device"), which a programmer's server sends for the device and so wins over the device's own.
    static func merged(_ info: Value, with headers: HTTPHeaders) -> Value {
        guard case .dict(var entries) = info else { return info }
        if info["userAgent"] == nil, let agent = headers.first(lowercased: "user-agent"), !agent.isEmpty {
            // Cut, not refused: no code names a User-Agent, and a client cannot drop its browser's.
            entries.append(Value.Entry("userAgent", .string(agent.utf8Prefix(V2Limits.valueBytes))))
        }
        if let address = forwardedAddress(headers) {
            entries.removeAll { $0.key == "connectionIp" }
            entries.append(Value.Entry("connectionIp", .string(address)))
        }
        return .dict(entries)
    }

    /// The first address of `X-Forwarded-For`, if it names one.
    static func forwardedAddress(_ headers: HTTPHeaders) -> String? {
        guard let forwarded = headers.first(lowercased: "x-forwarded-for") else { return nil }
        let first = forwarded.literalSplit(separator: ",", maxSplits: 1).first.map { String($0).trimmingSpaces } ?? ""
        return first.isEmpty ? nil : String(first.prefix(64))
    }

    /// `AP-Device-Identifier: fingerprint <Base64>`; `fingerprint` is the only type Adobe defines.
    static func deviceIdentifier(_ headers: HTTPHeaders) throws(V2Failure) -> String {
        guard let value = headers.first(lowercased: "ap-device-identifier") else {
            throw V2Failure(.invalidHeaderDeviceIdentifier, "missing header AP-Device-Identifier")
        }
        // Kept with every session and profile: held to the value limit, not the header one.
        guard value.utf8.count <= V2Limits.valueBytes else {
            throw V2Failure(
                .invalidHeaderDeviceIdentifier,
                "AP-Device-Identifier is longer than \(V2Limits.valueBytes) bytes (limit: mock-v2-value-bytes)")
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
        // Kept with every session (its `device`): held to the value limit, not the header one.
        guard value.utf8.count <= V2Limits.valueBytes else {
            throw V2Failure(
                .invalidHeaderDeviceInfo,
                "X-Device-Info is longer than \(V2Limits.valueBytes) bytes (limit: mock-v2-value-bytes)")
        }
        guard let info = StrictBase64.jsonObject(value.trimmingSpaces) else {
            throw V2Failure(.invalidHeaderDeviceInfo, "X-Device-Info is not Base64 of a UTF-8 JSON object")
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

    /// The session answer's `device`, every key Adobe's session-information samples show, in their
    /// order and with their types (docs/CONFORMANCE.md, choice 89): each from the X-Device-Info key that
    /// defines it, else from the user agent, else the value the samples give what nobody said (`null`
    /// for a text, `0` for a number, `false` for `secure`, `0.0.0` with an empty profile for a version,
    /// `DISPLAY` for the display's name).
    var described: Value {
        func text(_ key: String) -> String? { info[key]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } }
        func string(_ s: String?) -> Value { s.map(Value.string) ?? .null }
        let agent = V2UserAgent(text("userAgent") ?? "")
        // The user agent's system stands in only for a device whose X-Device-Info names none, or the same.
        let family = text("osFamily") ?? text("osName").flatMap(V2Device.family(ofOSName:))
        let agentOS = agent.os.flatMap { os in family == nil || family == os.family ? os : nil }
        let hardware: [Value.Entry] = [
            Value.Entry("name", .null),
            Value.Entry("vendor", string(text("vendor") ?? agent.vendor)),
            Value.Entry("version", V2Device.version(nil)),
            Value.Entry("manufacturer", string(text("manufacturer") ?? agent.manufacturer)),
        ]
        let os: [Value.Entry] = [
            Value.Entry("name", string(text("osName") ?? agentOS?.name)),
            Value.Entry("family", string(family ?? agentOS?.family)),
            Value.Entry("vendor", string(text("osVendor") ?? agentOS?.vendor)),
            Value.Entry("version", V2Device.version(text("osVersion") ?? agentOS?.version)),
        ]
        let browser: [Value.Entry] = [
            Value.Entry("name", string(text("browserName") ?? agent.browserName)),
            Value.Entry("vendor", string(text("browserVendor") ?? agent.browserVendor)),
            Value.Entry("version", V2Device.version(text("browserVersion") ?? agent.browserVersion)),
            Value.Entry("userAgent", string(text("userAgent"))),
            Value.Entry("originalUserAgent", string(text("userAgent"))),
        ]
        let display: [Value.Entry] = [
            Value.Entry("width", .int(V2Device.count(info["displayWidth"]))),
            Value.Entry("height", .int(V2Device.count(info["displayHeight"]))),
            Value.Entry("ppi", .int(V2Device.count(info["displayPpi"]))),
            Value.Entry("name", .string("DISPLAY")),
            Value.Entry("vendor", .null),
            Value.Entry("version", .null),
            Value.Entry("diagonalSize", string(V2Device.scalarText(info["diagonalScreenSize"]))),
        ]
        let connection: [Value.Entry] = [
            Value.Entry("ipAddress", string(text("connectionIp"))),
            Value.Entry("port", string(V2Device.scalarText(info["connectionPort"]))),
            Value.Entry("secure", .bool(info["connectionSecure"]?.boolValue ?? (text("connectionSecure") == "true"))),
            Value.Entry("type", string(text("connectionType"))),
        ]
        return .dict([
            Value.Entry("type", .string(text("primaryHardwareType") ?? agent.hardwareType ?? "Unknown")),
            Value.Entry("model", string(text("model"))),
            Value.Entry("version", V2Device.version(text("version"))),
            Value.Entry("hardware", .dict(hardware)),
            Value.Entry("operatingSystem", .dict(os)),
            Value.Entry("browser", .dict(browser)),
            Value.Entry("display", .dict(display)),
            Value.Entry("applicationId", string(text("applicationId"))),
            Value.Entry("connection", .dict(connection)),
        ])
    }

    /// The `osFamily` an `osName` of X-Device-Info's list belongs to (the page's two lists side by side).
    static func family(ofOSName name: String) -> String? {
        switch name.lowercased() {
        case "android": return "Android"
        case "chrome os", "linux": return "Linux"
        case "mac os", "os x": return "macOS"
        case "openbsd": return "BSD"
        case "roku os": return "Roku OS"
        case "windows": return "Windows"
        case "ios": return "iOS"
        case "tvos": return "tvOS"
        case "webos": return "webOS"
        default: return nil
        }
    }

    /// A number of X-Device-Info (an integer, or a string of digits), else 0.
    static func count(_ value: Value?) -> Int {
        if let n = value?.intValue, n >= 0 { return n }
        if let s = value?.stringValue, let n = Int(s), n >= 0 { return n }
        return 0
    }

    /// A string or an integer of X-Device-Info as text (the answer's `port` and `diagonalSize` are strings).
    static func scalarText(_ value: Value?) -> String? {
        if let n = value?.intValue { return String(n) }
        return value?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `10.2.1` → `{major: 10, minor: 2, patch: 1, profile: ""}`: dotted numbers, the first three of
    /// them (Chrome's `140.0.0.0` is 140.0.0, as Adobe's sample shows it); any other text is all
    /// `profile`, with zeros; nil (nobody said) → zeros and an empty profile, as Adobe's samples show.
    static func version(_ text: String?) -> Value {
        let parts = (text ?? "").split(separator: ".", omittingEmptySubsequences: false)
        var numbers: [Int] = []
        for part in parts.prefix(3) {
            guard let n = Int32(part), n >= 0 else { break }
            numbers.append(Int(n))
        }
        let whole = !numbers.isEmpty && parts.allSatisfy { Int32($0).map { $0 >= 0 } ?? false }
        let profile = whole ? "" : text ?? ""
        if !whole { numbers = [] }
        numbers += Array(repeating: 0, count: 3 - numbers.count)
        return .dict([
            Value.Entry("major", .int(numbers[0])), Value.Entry("minor", .int(numbers[1])),
            Value.Entry("patch", .int(numbers[2])), Value.Entry("profile", .string(profile)),
        ])
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
        // Kept as the TempPass use's key: held to the value limit, not the header one.
        guard value.utf8.count <= V2Limits.valueBytes, let json = StrictBase64.jsonObject(value.trimmingSpaces),
            case .dict(let entries) = json, !entries.isEmpty
        else {
            throw V2Failure(
                .invalidHeaderIdentityForTemporaryAccess,
                "AP-TempPass-Identity is not Base64 of a non-empty JSON object")
        }
        return Value.dict(entries.sorted { $0.key < $1.key }).jsonText
    }

    /// Whom the throttle counts a call against: the first `X-Forwarded-For` address (Adobe's key; the
    /// live server hands the mock one only from a proxy it trusts, docs/SERVE.md), else the device as
    /// sessions and profiles know it (`V2Device.deviceIdentifier`: `fingerprint` and the spaces
    /// around the id are not part of it, so respelling the header is no new device), else one shared
    /// bucket (docs/CONFORMANCE.md, choice 94). An id over 64 bytes is keyed by its digest (an address is
    /// cut to 64 characters), so a key stays short whatever a client sends.
    var throttleKey: String {
        if let address = V2Device.forwardedAddress(self) { return "ip " + address }
        if let id = try? V2Device.deviceIdentifier(self) {
            return "device " + (id.utf8.count <= 64 ? id : RESTv2Family.v2Digest([id]))
        }
        return "anonymous"
    }
}

extension String {
    /// The longest prefix of at most `bytes` UTF-8 bytes that ends on a character.
    func utf8Prefix(_ bytes: Int) -> String {
        guard utf8.count > bytes else { return self }
        var end = startIndex
        var used = 0
        for c in self {
            let n = c.utf8.count
            guard used + n <= bytes else { break }
            used += n
            end = index(after: end)
        }
        return String(self[..<end])
    }

    var trimmingSpaces: String {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" { s = s.dropFirst() }
        while let c = s.last, c == " " || c == "\t" { s = s.dropLast() }
        return String(s)
    }
}
