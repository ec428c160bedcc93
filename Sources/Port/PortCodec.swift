import PassModel

/// Calls, callbacks and MVPDs as the driver protocol writes them (docs/PORTING.md): a call's
/// arguments as a JSON object with named fields, a callback's as an array in the SDK's order, an MVPD
/// as an object. Both directions, since the harness and `passim shim` each use one of them.
public enum PortCodec {
    // MARK: Calls

    /// The `args` object of a `call` message: every field of the call (`Call.Name.fields`), absent
    /// ones as `null`.
    public static func arguments(of call: Call) -> Value {
        let values = call.fields
        return .dict(call.kind.fields.map { Value.Entry($0, values[$0] ?? .null) })
    }

    /// The call a `call` message names (for `passim shim`).
    public static func call(named name: String, _ args: Value) throws(PortError) -> Call {
        guard let kind = Call.Name(rawValue: name) else { throw PortError("unknown call \(name)") }
        var fields: [String: Value] = [:]
        for field in kind.fields {
            if let v = args[field] { fields[field] = v }
        }
        do throws(ArgumentError) {
            return try Call(kind, fields: fields)
        } catch {
            throw PortError("call \(name): \(error.description)")
        }
    }

    // MARK: Callbacks

    /// A callback's `args` array (for `passim shim`): MVPDs as objects, constants as their values.
    public static func arguments(of callback: Callback) -> [Value] {
        callback.arguments.map { arg in mvpdsAsObjects(arg.value) }
    }

    /// The callback a `callback` message names. An argument `{"$symbol": "NAME"}` is that constant;
    /// a top-level string or number listed in `constants` (the port's own values) is the constant it
    /// stands for. Each argument is read by its kind (`Callback.Name.parameters`).
    public static func callback(named name: String, _ raw: [Value], constants: ConstantMap = ConstantMap())
        throws(PortError) -> Callback
    {
        guard let kind = Callback.Name(rawValue: name) else { throw PortError("unknown callback \(name)") }
        let args = try raw.map { (v: Value) throws(PortError) -> Value in try constants.resolve(v) }
        let a = Positional(args, callback: name)
        let parameters = kind.parameters
        try a.count(parameters.filter { !$0.optional }.count...parameters.count)
        var values: [Value] = []
        for (i, p) in parameters.enumerated() where i < args.count {
            values.append(try a.value(i, p.kind))
        }
        do throws(ArgumentError) {
            return try Callback(kind, values: values)
        } catch {
            throw PortError("\(name): \(error.description)")
        }
    }

    // MARK: MVPDs

    public static func object(_ m: MVPD) -> Value {
        var entries = [Value.Entry("id", .string(m.id)), Value.Entry("displayName", .string(m.displayName))]
        if let logo = m.logoURL { entries.append(Value.Entry("logoURL", .string(logo))) }
        entries.append(Value.Entry("enablePlatformServices", .bool(m.enablePlatformServices)))
        if let status = m.boardingStatus { entries.append(Value.Entry("boardingStatus", .string(status.rawValue))) }
        entries += [
            Value.Entry("tempPass", .bool(m.tempPass)), Value.Entry("promoTempPass", .bool(m.promoTempPass)),
            Value.Entry("requiresSVC", .bool(m.requiresSVC)),
        ]
        if let sp = m.spURL { entries.append(Value.Entry("spURL", .string(sp))) }
        return .dict(entries)
    }

    static func mvpd(_ v: Value, in context: String) throws(PortError) -> MVPD {
        guard case .dict = v else { throw PortError("\(context): an MVPD must be an object with an id") }
        let f = Fields(v, context: "\(context): MVPD")
        let id = try f.string("id")
        var status: BoardingStatus?
        if let text = try f.optionalString("boardingStatus") {
            guard let s = BoardingStatus(rawValue: text) else {
                throw PortError("\(context): boardingStatus must be PICKER or SUPPORTED")
            }
            status = s
        }
        return MVPD(
            id: id, displayName: try f.optionalString("displayName") ?? id, logoURL: try f.optionalString("logoURL"),
            enablePlatformServices: try f.optionalBool("enablePlatformServices") ?? false, boardingStatus: status,
            tempPass: try f.optionalBool("tempPass") ?? false,
            promoTempPass: try f.optionalBool("promoTempPass") ?? false,
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

    /// `other`'s mappings too; where both map one value, this map's stands (`Expectations.merged`).
    public mutating func merge(_ other: ConstantMap) {
        values.merge(other.values) { mine, _ in mine }
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
            guard let p = pair.listValue, p.count == 2, let name = p[0].stringValue, let value = p[1].stringValue,
                !name.isEmpty
            else {
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
        guard value("status")?.intValue != nil else {
            throw PortError("\(context): needs status, error or timeout: true")
        }
        return .response(
            HTTPResponse(
                status: try int("status"), headers: try headers("headers"),
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

    private func fail(_ i: Int, _ what: String) -> PortError {
        PortError("\(callback): argument \(i + 1) must be \(what), got \(args[i].jsonText)")
    }

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

    /// Argument `i` read as `kind`, MVPD objects made MVPDs.
    func value(_ i: Int, _ kind: ArgumentKind) throws(PortError) -> Value {
        switch kind {
        case .int: return .int(try int(i))
        case .text: return .string(try string(i))
        case .bool: return .bool(try bool(i))
        case .textList, .serviceProviders: return .list(try strings(i).map(Value.string))
        case .mvpds: return .list(try mvpds(i).map(Value.mvpd))
        case .mvpdOrNil, .mvpdIDOrNil:
            if args[i] == .null { return .null }
            return kind == .mvpdOrNil ? .mvpd(try PortCodec.mvpd(args[i], in: callback)) : .string(try string(i))
        case .textOrNilList:
            guard let items = args[i].listValue, items.allSatisfy({ $0 == .null || $0.stringValue != nil }) else {
                throw fail(i, "an array of strings or nulls")
            }
            return args[i]
        case .dict:
            guard case .dict = args[i] else { throw fail(i, "an object") }
            return args[i]
        case .any: return args[i]
        }
    }

    func mvpds(_ i: Int) throws(PortError) -> [MVPD] {
        guard let items = args[i].listValue else { throw fail(i, "an array of MVPD objects") }
        return try items.map { (v: Value) throws(PortError) -> MVPD in try PortCodec.mvpd(v, in: callback) }
    }
}
