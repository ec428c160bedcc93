import Entitlement
import PassModel

/// The messages of the driver protocol, version 1 (docs/PORTING.md), as JSON lines.
public enum PortMessage {
    public static let version = 1

    static func line(_ type: String, _ fields: [(String, Value)]) -> String {
        Value.dict([Value.Entry("type", .string(type))] + fields.map { Value.Entry($0.0, $0.1) }).jsonText
    }

    static func now(_ at: Instant) -> (String, Value) { ("now", .int(Int(at.milliseconds))) }

    static func headers(_ h: HTTPHeaders) -> Value {
        .list(h.fields.map { .list([.string($0.name), .string($0.value)]) })
    }

    static func body(_ bytes: [UInt8]) -> Value { .string(String(decoding: bytes, as: UTF8.self)) }

    /// Harness → port: the answer to request `id`.
    static func response(app: String, id: Int, _ result: HTTPResult, at now: Instant) -> String {
        var fields: [(String, Value)] = [("app", .string(app)), ("id", .int(id)), PortMessage.now(now)]
        switch result {
        case .response(let r): fields += [("status", .int(r.status)), ("headers", headers(r.headers)), ("body", body(r.body))]
        case .failure(let why): fields.append(("error", .string(why)))
        case .timeout: fields.append(("timeout", .bool(true)))
        }
        return line("response", fields)
    }

    /// Harness → port: a user action in Apple's picker.
    static func picker(app: String, _ outcome: PickerOutcome, at now: Instant) -> String {
        let value: Value
        switch outcome {
        case .picked(let id, let token):
            value = .dict([Value.Entry("picked", .string(id)), Value.Entry("appleToken", token.map(Value.string) ?? .null)])
        case .otherProvider: value = .string("other")
        case .cancelled: value = .string("cancelled")
        }
        return line("picker", [("app", .string(app)), ("outcome", value), PortMessage.now(now)])
    }
}

/// One line a port wrote (port → harness), read and checked.
public enum PortOutput: Hashable, Sendable {
    case ready(protocol: Int, implementation: String)
    case callback(app: String, Callback)
    case request(app: String, id: Int, HTTPRequest)
    case timer(app: String, id: Int, at: Instant)
    case cancelTimer(app: String, id: Int)
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
            return .ready(protocol: try m.int("protocol"), implementation: try m.optionalString("implementation") ?? "")
        case "callback":
            guard let args = m.value("args")?.listValue else { throw PortError("callback: args must be an array") }
            return .callback(app: try m.string("app"), try PortCodec.callback(named: try m.string("callback"), args, constants: constants))
        case "request":
            let url = try m.string("url")
            guard URLParts(url)?.isHTTP == true else { throw PortError("request: url must be an http(s) URL, got \(url)") }
            let headers = try m.headers("headers")
            let body = try m.optionalString("body") ?? ""
            return .request(app: try m.string("app"), id: try m.int("id"),
                            HTTPRequest(method: try m.string("method"), url: url, headers: headers, body: Array(body.utf8)))
        case "timer":
            return .timer(app: try m.string("app"), id: try m.int("id"), at: Instant(milliseconds: Int64(try m.int("at"))))
        case "cancel-timer":
            return .cancelTimer(app: try m.string("app"), id: try m.int("id"))
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
