import Entitlement
import PassModel

/// The messages of the driver protocol (docs/PORTING.md), as JSON lines.
public enum PortMessage {
    /// The driver protocol's version, stated here only: `version` goes in `hello` and `ready`,
    /// `minorVersion` counts the compatible additions since (1.1: `reset`, `present`; 1.2: `app-call`;
    /// 1.3: `hello` carries `requestTimeout` only when the world's differs from `specRequestTimeout`).
    public static let version = 1
    public static let minorVersion = 3
    public static var versionText: String { "\(version).\(minorVersion)" }
    /// Version 1.1: a port whose `ready` says `"reset": true` takes another `hello` as a reset to a new
    /// world, so one process serves scenario after scenario (see `PortPool`).
    public static let resetField = "reset"

    /// BEHAVIOR.md's request timeout ("timed out after 30 s of simulated time"), spelled here for the
    /// protocol: a `hello` says `requestTimeout` only when the world's differs from it (protocol 1.3,
    /// CONFORMANCE.md choice 71), so a port runs on its own default, and a port whose default is not
    /// the spec's fails the suite's timeout scenarios instead of being handed the right value.
    /// Not `EngineConfiguration()`'s default: that is the engine's own, which a port must match.
    public static let specRequestTimeout: Millis = .seconds(30)

    static func line(_ type: String, _ fields: [(String, Value)]) -> String {
        Value.dict([Value.Entry("type", .string(type))] + fields.map { Value.Entry($0.0, $0.1) }).jsonText
    }

    static func now(_ at: Instant) -> (String, Value) { ("now", .int(Int(at.milliseconds))) }

    static func headers(_ h: HTTPHeaders) -> Value {
        .list(h.fields.map { .list([.string($0.name), .string($0.value)]) })
    }

    static func body(_ bytes: [UInt8]) -> Value { .string(String(decoding: bytes, as: UTF8.self)) }

    /// The fields of an HTTP outcome: `status`, `headers`, `body` of an answer, or `error`, or `timeout`
    /// (`response` on the harness network; `fetched`, status only, on the live network).
    static func outcome(_ result: HTTPResult, statusOnly: Bool = false) -> [(String, Value)] {
        switch result {
        case .response(let r):
            return statusOnly
                ? [("status", .int(r.status))]
                : [("status", .int(r.status)), ("headers", headers(r.headers)), ("body", body(r.body))]
        case .failure(let why): return [("error", .string(why))]
        case .timeout: return [("timeout", .bool(true))]
        }
    }

    /// The `outcome` of a `picker` message: a user action in Apple's picker.
    static func picker(_ outcome: PickerOutcome) -> Value {
        switch outcome {
        case .picked(let id, let token):
            return .dict([
                Value.Entry("picked", .string(id)), Value.Entry("appleToken", token.map(Value.string) ?? .null),
            ])
        case .otherProvider: return .string("other")
        case .cancelled: return .string("cancelled")
        }
    }

    /// The `cookies` of a message on the live network: the `Cookie` header of each host.
    static func cookies(_ cookies: [(host: String, header: String)]) -> Value {
        .dict(cookies.map { Value.Entry($0.host, .string($0.header)) })
    }
}

/// One line a port wrote (port → harness), read and checked.
public enum PortOutput: Hashable, Sendable {
    /// `reset`: the port takes a later `hello` as a reset to a new world (protocol 1.1).
    case ready(protocol: Int, implementation: String, reset: Bool)
    case callback(app: String, Callback)
    /// Protocol 1.1: the SDK presents SFSafariViewController itself at `url` (no callback; the
    /// harness opens the device's browser there).
    case present(app: String, url: String)
    case request(app: String, id: Int, HTTPRequest)
    /// Live network: the port sent the request itself and got this (a status only, or a failure).
    case fetched(app: String, id: Int, HTTPRequest, HTTPResult)
    case timer(app: String, id: Int, at: Instant)
    case cancelTimer(app: String, id: Int)
    /// Protocol 1.2: the app's own code in the port (a wrapper's delegate) made this API call, from
    /// inside the delivery of the last `callback` of this answer (none: on its own). The port runs it
    /// itself; the harness only judges the liveness rules on it (docs/PORTING.md, "Liveness").
    case appCall(app: String, Call)
    case idle
    case unimplemented(String)
    case error(String)

    /// Parses one line. `constants` maps the port's own constant values.
    public static func parse(_ line: String, constants: ConstantMap = ConstantMap()) throws(PortError) -> PortOutput {
        let value: Value
        do {
            value = try Value(jsonText: line)
        } catch {
            throw PortError("not a JSON object: \(error.message)")
        }
        guard case .dict = value else { throw PortError("not a JSON object") }
        let f = Fields(value, context: "message")
        let type = try f.string("type")
        let m = Fields(value, context: type)
        switch type {
        case "ready":
            return .ready(
                protocol: try m.int("protocol"), implementation: try m.optionalString("implementation") ?? "",
                reset: try m.optionalBool(PortMessage.resetField) ?? false)
        case "callback":
            guard let args = m.value("args")?.listValue else { throw PortError("callback: args must be an array") }
            return .callback(
                app: try m.string("app"),
                try PortCodec.callback(named: try m.string("callback"), args, constants: constants))
        case "present":
            let url = try m.string("url")
            guard URLParts(url)?.isHTTP == true else {
                throw PortError("present: url must be an http(s) URL, got \(url)")
            }
            return .present(app: try m.string("app"), url: url)
        case "request":
            let url = try m.string("url")
            guard URLParts(url)?.isHTTP == true else {
                throw PortError("request: url must be an http(s) URL, got \(url)")
            }
            let headers = try m.headers("headers")
            let body = try m.optionalString("body") ?? ""
            return .request(
                app: try m.string("app"), id: try m.int("id"),
                HTTPRequest(method: try m.string("method"), url: url, headers: headers, body: Array(body.utf8)))
        case "fetched":
            let url = try m.string("url")
            guard URLParts(url)?.isHTTP == true else {
                throw PortError("fetched: url must be an http(s) URL, got \(url)")
            }
            return .fetched(
                app: try m.string("app"), id: try m.int("id"), HTTPRequest(method: try m.string("method"), url: url),
                try m.outcome())
        case "timer":
            return .timer(
                app: try m.string("app"), id: try m.int("id"), at: Instant(milliseconds: Int64(try m.int("at"))))
        case "cancel-timer":
            return .cancelTimer(app: try m.string("app"), id: try m.int("id"))
        case "app-call":
            guard let args = m.value("args") else { throw PortError("app-call: args missing") }
            return .appCall(app: try m.string("app"), try PortCodec.call(named: try m.string("call"), args))
        case "idle":
            return .idle
        case "unimplemented":
            return .unimplemented(try m.optionalString("what") ?? "(unnamed)")
        case "error":
            return .error(try m.optionalString("message") ?? "(no message)")
        default:
            throw PortError("unknown message type \(type)")
        }
    }
}
