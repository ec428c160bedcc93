import PassModel

/// Calls, callbacks and MVPDs as the driver protocol writes them (docs/PORTING.md): a call's
/// arguments as a JSON object with named fields, a callback's as an array in the SDK's order, an MVPD
/// as an object. Both directions, since the harness and `passim shim` each use one of them.
public enum PortCodec {
    // MARK: Calls

    /// The `args` object of a `call` message.
    public static func arguments(of call: Call) -> Value {
        func opt(_ s: String?) -> Value { s.map(Value.string) ?? .null }
        func entries(_ pairs: [(String, Value)]) -> Value { .dict(pairs.map { Value.Entry($0.0, $0.1) }) }
        switch call {
        case .initialize(let statement): return entries([("softwareStatement", opt(statement))])
        case .setOptions(let options): return entries([("options", .dict(options))])
        case .setRequestor(let id, let sps, let signed, let secret, let key):
            return entries([("requestorID", .string(id)), ("serviceProviders", sps.map { .list($0.map(Value.string)) } ?? .null),
                            ("signedRequestorID", opt(signed)), ("secret", opt(secret)), ("publicKey", opt(key))])
        case .checkAuthentication, .getSelectedProvider, .logout, .getAuthenticationToken: return .dict([])
        case .getAuthentication(let force, let data, let filter):
            return entries([("forceAuthn", .bool(force)), ("data", data ?? .null), ("filter", filter ?? .null)])
        case .setSelectedProvider(let id): return entries([("mvpd", opt(id))])
        case .handleExternalURL(let url): return entries([("url", .string(url))])
        case .checkAuthorization(let r, let data), .getAuthorization(let r, let data):
            return entries([("resource", .string(r)), ("data", data ?? .null)])
        case .checkPreauthorizedResources(let rs, let cache):
            return entries([("resources", .list(rs.map(Value.string))), ("cache", .bool(cache))])
        case .getMetadata(let key): return entries([("key", key)])
        }
    }

    /// The call a `call` message names (for `passim shim`).
    public static func call(named name: String, _ args: Value) throws(PortError) -> Call {
        let a = Fields(args, context: "call \(name)")
        switch name {
        case "init": return .initialize(softwareStatement: try a.optionalString("softwareStatement"))
        case "setOptions":
            guard case .dict(let entries) = a.value("options") else { throw PortError("call setOptions: options must be an object") }
            return .setOptions(entries)
        case "setRequestor":
            let sps = try a.optionalList("serviceProviders")?.map { (v: Value) throws(PortError) -> String in
                guard let s = v.stringValue else { throw PortError("call setRequestor: serviceProviders must hold URLs") }
                return s
            }
            return .setRequestor(requestorID: try a.string("requestorID"), serviceProviders: sps,
                                 signedRequestorID: try a.optionalString("signedRequestorID"),
                                 secret: try a.optionalString("secret"), publicKey: try a.optionalString("publicKey"))
        case "checkAuthentication": return .checkAuthentication
        case "getSelectedProvider": return .getSelectedProvider
        case "logout": return .logout
        case "getAuthenticationToken": return .getAuthenticationToken
        case "getAuthentication":
            return .getAuthentication(forceAuthn: try a.optionalBool("forceAuthn") ?? false, data: a.optional("data"), filter: a.optional("filter"))
        case "setSelectedProvider": return .setSelectedProvider(try a.optionalString("mvpd"))
        case "handleExternalURL": return .handleExternalURL(try a.string("url"))
        case "checkAuthorization": return .checkAuthorization(resource: try a.string("resource"), data: a.optional("data"))
        case "getAuthorization": return .getAuthorization(resource: try a.string("resource"), data: a.optional("data"))
        case "checkPreauthorizedResources":
            let resources = try (try a.optionalList("resources") ?? []).map { (v: Value) throws(PortError) -> String in
                guard let s = v.stringValue else { throw PortError("call checkPreauthorizedResources: resources must be strings") }
                return s
            }
            return .checkPreauthorizedResources(resources, cache: try a.optionalBool("cache") ?? true)
        case "getMetadata": return .getMetadata(a.value("key") ?? .null)
        default: throw PortError("unknown call \(name)")
        }
    }

    // MARK: Callbacks

    /// A callback's `args` array (for `passim shim`): MVPDs as objects, constants as their values.
    public static func arguments(of callback: Callback) -> [Value] {
        callback.arguments.map { arg in mvpdsAsObjects(arg.value) }
    }

    /// The callback a `callback` message names. An argument `{"$symbol": "NAME"}` is that constant;
    /// a top-level string or number listed in `constants` (the port's own values) is the constant it
    /// stands for.
    public static func callback(named name: String, _ raw: [Value], constants: ConstantMap = ConstantMap()) throws(PortError) -> Callback {
        let args = try raw.map { (v: Value) throws(PortError) -> Value in try constants.resolve(v) }
        let a = Positional(args, callback: name)
        switch name {
        case "setRequestorComplete":
            try a.count(1)
            return .setRequestorComplete(status: try a.int(0))
        case "setAuthenticationStatus":
            try a.count(2)
            return .setAuthenticationStatus(status: try a.int(0), errorCode: try a.string(1))
        case "displayProviderDialog":
            try a.count(1)
            return .displayProviderDialog(try a.mvpds(0))
        case "navigateToUrl":
            try a.count(1...2)
            return .navigateToUrl(try a.string(0), useSVC: args.count == 2 ? try a.bool(1) : nil)
        case "setToken":
            try a.count(2)
            return .setToken(token: try a.string(0), resource: try a.string(1))
        case "tokenRequestFailed":
            try a.count(3)
            return .tokenRequestFailed(resource: try a.string(0), errorCode: try a.string(1), details: try a.string(2))
        case "preauthorizedResources":
            try a.count(1)
            return .preauthorizedResources(try a.strings(0))
        case "selectedProvider":
            try a.count(1)
            return .selectedProvider(args[0] == .null ? nil : try mvpd(args[0], in: name))
        case "setMetadataStatus":
            try a.count(4)
            return .setMetadataStatus(value: args[0], encrypted: try a.bool(1), opcode: try a.int(2), arguments: args[3])
        case "presentTvProviderDialog":
            try a.count(2)
            return .presentTvProviderDialog(shown: try a.mvpds(0), featured: try a.mvpds(1))
        case "dismissTvProviderDialog":
            try a.count(2)
            return .dismissTvProviderDialog(shown: try a.mvpds(0), featured: try a.mvpds(1))
        case "status":
            try a.count(1...2)
            return .status(code: try a.string(0), message: args.count == 2 ? try a.string(1) : nil)
        case "sendTrackingData":
            try a.count(2)
            guard let items = args[1].listValue else { throw PortError("sendTrackingData: argument 2 must be an array") }
            let data = try items.map { (v: Value) throws(PortError) -> String? in
                if v == .null { return nil }
                guard let s = v.stringValue else { throw PortError("sendTrackingData: the data array holds strings or nulls") }
                return s
            }
            return .sendTrackingData(event: try a.int(0), data: data)
        default:
            throw PortError("unknown callback \(name)")
        }
    }

    // MARK: MVPDs

    public static func object(_ m: MVPD) -> Value {
        var entries = [Value.Entry("id", .string(m.id)), Value.Entry("displayName", .string(m.displayName))]
        if let logo = m.logoURL { entries.append(Value.Entry("logoURL", .string(logo))) }
        entries.append(Value.Entry("enablePlatformServices", .bool(m.enablePlatformServices)))
        if let status = m.boardingStatus { entries.append(Value.Entry("boardingStatus", .string(status.rawValue))) }
        entries += [Value.Entry("tempPass", .bool(m.tempPass)), Value.Entry("promoTempPass", .bool(m.promoTempPass)),
                    Value.Entry("requiresSVC", .bool(m.requiresSVC))]
        if let sp = m.spURL { entries.append(Value.Entry("spURL", .string(sp))) }
        return .dict(entries)
    }

    static func mvpd(_ v: Value, in context: String) throws(PortError) -> MVPD {
        guard case .dict = v else { throw PortError("\(context): an MVPD must be an object with an id") }
        let f = Fields(v, context: "\(context): MVPD")
        let id = try f.string("id")
        var status: BoardingStatus?
        if let text = try f.optionalString("boardingStatus") {
            guard let s = BoardingStatus(rawValue: text) else { throw PortError("\(context): boardingStatus must be PICKER or SUPPORTED") }
            status = s
        }
        return MVPD(id: id, displayName: try f.optionalString("displayName") ?? id, logoURL: try f.optionalString("logoURL"),
                    enablePlatformServices: try f.optionalBool("enablePlatformServices") ?? false, boardingStatus: status,
                    tempPass: try f.optionalBool("tempPass") ?? false, promoTempPass: try f.optionalBool("promoTempPass") ?? false,
                    requiresSVC: try f.optionalBool("requiresSVC") ?? false, spURL: try f.optionalString("spURL"))
    }

    private static func mvpdsAsObjects(_ v: Value) -> Value {
        switch v {
        case .mvpd(let m): return object(m)
        case .list(let items): return .list(items.map(mvpdsAsObjects))
        case .dict(let entries): return .dict(entries.map { Value.Entry($0.key, mvpdsAsObjects($0.value)) })
        default: return v
        }
    }
}

/// A port's own constant values (`constant SYMBOL VALUE` in an expectations file), and `{"$symbol": …}`.
public struct ConstantMap: Hashable, Sendable {
    /// The port's value → the reference value of the symbol it stands for.
    private var values: [Value: Value] = [:]

    public init() {}

    /// Maps the port's `value` to `symbol`'s reference value.
    public mutating func add(symbol: String, portValue: Value) throws(PortError) {
        guard let reference = Constants.value(of: symbol) else { throw PortError("unknown constant \(symbol)") }
        values[portValue] = reference
    }

    func resolve(_ v: Value) throws(PortError) -> Value {
        if case .dict(let entries) = v, entries.count == 1, entries[0].key == "$symbol" {
            guard let name = entries[0].value.stringValue, let value = Constants.value(of: name) else {
                throw PortError("unknown constant \(entries[0].value.jsonText) in {\"$symbol\": …}")
            }
            return value
        }
        return values[v] ?? v
    }
}

/// Named fields of a JSON object, read with messages that name the field.
struct Fields {
    let object: Value
    let context: String

    init(_ object: Value, context: String) {
        self.object = object
        self.context = context
    }

    func value(_ key: String) -> Value? { object[key] }

    func optional(_ key: String) -> Value? {
        guard let v = value(key), v != .null else { return nil }
        return v
    }

    func string(_ key: String) throws(PortError) -> String {
        guard let s = value(key)?.stringValue else { throw PortError("\(context): \(key) must be a string") }
        return s
    }

    func optionalString(_ key: String) throws(PortError) -> String? {
        guard let v = optional(key) else { return nil }
        guard let s = v.stringValue else { throw PortError("\(context): \(key) must be a string or null") }
        return s
    }

    func optionalBool(_ key: String) throws(PortError) -> Bool? {
        guard let v = optional(key) else { return nil }
        guard let b = v.boolValue else { throw PortError("\(context): \(key) must be true or false") }
        return b
    }

    func optionalList(_ key: String) throws(PortError) -> [Value]? {
        guard let v = optional(key) else { return nil }
        guard let l = v.listValue else { throw PortError("\(context): \(key) must be an array or null") }
        return l
    }

    /// `[[name, value], …]` (absent: none).
    func headers(_ key: String) throws(PortError) -> HTTPHeaders {
        var headers = HTTPHeaders()
        for pair in try optionalList(key) ?? [] {
            guard let p = pair.listValue, p.count == 2, let name = p[0].stringValue, let value = p[1].stringValue, !name.isEmpty else {
                throw PortError("\(context): \(key) must be [name, value] pairs of strings")
            }
            headers.add(name, value)
        }
        return headers
    }

    /// An HTTP outcome: `error` (a transport failure), `timeout: true`, or `status` with optional
    /// `headers` and `body`.
    func outcome() throws(PortError) -> HTTPResult {
        if let error = try optionalString("error") { return .failure(error) }
        if try optionalBool("timeout") == true { return .timeout }
        guard value("status")?.intValue != nil else { throw PortError("\(context): needs status, error or timeout: true") }
        return .response(HTTPResponse(status: try int("status"), headers: try headers("headers"),
                                      body: Array((try optionalString("body") ?? "").utf8)))
    }

    func int(_ key: String) throws(PortError) -> Int {
        guard let i = value(key)?.intValue else { throw PortError("\(context): \(key) must be an integer") }
        return i
    }
}

/// A callback's positional arguments, read with messages that name the position.
struct Positional {
    let args: [Value]
    let callback: String

    init(_ args: [Value], callback: String) {
        self.args = args
        self.callback = callback
    }

    func count(_ n: Int) throws(PortError) { try count(n...n) }

    func count(_ range: ClosedRange<Int>) throws(PortError) {
        guard range.contains(args.count) else {
            let want = range.count == 1 ? "\(range.lowerBound)" : "\(range.lowerBound) or \(range.upperBound)"
            throw PortError("\(callback) takes \(want) argument(s), got \(args.count)")
        }
    }

    private func fail(_ i: Int, _ what: String) -> PortError { PortError("\(callback): argument \(i + 1) must be \(what), got \(args[i].jsonText)") }

    func int(_ i: Int) throws(PortError) -> Int {
        guard let v = args[i].intValue else { throw fail(i, "an integer") }
        return v
    }

    func string(_ i: Int) throws(PortError) -> String {
        guard let v = args[i].stringValue else { throw fail(i, "a string") }
        return v
    }

    func bool(_ i: Int) throws(PortError) -> Bool {
        guard let v = args[i].boolValue else { throw fail(i, "true or false") }
        return v
    }

    func strings(_ i: Int) throws(PortError) -> [String] {
        guard let items = args[i].listValue else { throw fail(i, "an array of strings") }
        return try items.map { (v: Value) throws(PortError) -> String in
            guard let s = v.stringValue else { throw fail(i, "an array of strings") }
            return s
        }
    }

    func mvpds(_ i: Int) throws(PortError) -> [MVPD] {
        guard let items = args[i].listValue else { throw fail(i, "an array of MVPD objects") }
        return try items.map { (v: Value) throws(PortError) -> MVPD in try PortCodec.mvpd(v, in: callback) }
    }
}
