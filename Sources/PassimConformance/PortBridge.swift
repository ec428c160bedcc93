import Passim
import Port

/// An `AccessEnablerPort` behind the driver protocol's lines, for the in-process transport of the
/// `Port` module: the harness writes and checks exactly the lines it would for a process.
final class PortBridge: LinePort {
    private let make: () -> any AccessEnablerPort
    private var port: (any AccessEnablerPort)?

    init(_ make: @escaping () -> any AccessEnablerPort) { self.make = make }

    func handle(_ line: String) -> [String] {
        do {
            return try answer(line)
        } catch {
            return [Self.line("error", [("message", .string(error.message))])]
        }
    }

    private func answer(_ line: String) throws(PortError) -> [String] {
        let message: Value
        do {
            message = try Value(jsonText: line)
        } catch {
            throw PortError("not JSON: \(error.message)")
        }
        let type = try Self.string(message, "type")
        let now = Instant(milliseconds: Int64(try Self.int(message, "now")))
        if type == "hello" {
            if message["network"]?.stringValue == "live" {
                return [Self.line("unimplemented", [("what", .string("the live network (an in-process port leaves HTTP to the harness)"))])]
            }
            let port = make()
            self.port = port
            port.start(PortWorld(apps: (message["apps"]?.listValue ?? []).compactMap(\.stringValue),
                                 configuration: try Self.configuration(message), now: now))
            return [Self.line("ready", [("protocol", .int(port.protocolVersion)), ("implementation", .string(port.implementation))])]
        }
        guard let port else { throw PortError("hello must come first") }
        let app = try Self.string(message, "app")
        let event: PortInput.Event
        switch type {
        case "call":
            event = .call(try PortCodec.call(named: try Self.string(message, "call"), message["args"] ?? .dict([])))
        case "response":
            event = .response(RequestID(try Self.int(message, "id")), try Self.result(message))
        case "timer":
            event = .timer(TimerID(try Self.int(message, "id")))
        case "picker":
            event = .picker(try Self.picker(message["outcome"]))
        default:
            throw PortError("unknown message type \(type)")
        }
        var out: [String] = []
        let a = ("app", Value.string(app))
        for action in port.handle(PortInput(app: app, now: now, event: event)) {
            switch action {
            case .callback(let callback):
                out.append(Self.line("callback", [a, ("callback", .string(callback.name)), ("args", .list(PortCodec.arguments(of: callback)))]))
            case .request(let id, let request):
                out.append(Self.line("request", [a, ("id", .int(id.value)), ("method", .string(request.method)), ("url", .string(request.url)),
                                                 ("headers", .list(request.headers.fields.map { .list([.string($0.name), .string($0.value)]) })),
                                                 ("body", .string(String(decoding: request.body, as: UTF8.self)))]))
            case .startTimer(let id, let at):
                out.append(Self.line("timer", [a, ("id", .int(id.value)), ("at", .int(Int(at.milliseconds)))]))
            case .cancelTimer(let id):
                out.append(Self.line("cancel-timer", [a, ("id", .int(id.value))]))
            case .presentBrowser(let url):
                out.append(Self.line("present", [a, ("url", .string(url))]))
            case .unimplemented(let what):
                return out + [Self.line("unimplemented", [("what", .string(what))])]
            }
        }
        return out + [Self.line("idle", [])]
    }

    static func line(_ type: String, _ fields: [(String, Value)]) -> String {
        Value.dict([Value.Entry("type", .string(type))] + fields.map { Value.Entry($0.0, $0.1) }).jsonText
    }

    private static func string(_ m: Value, _ key: String) throws(PortError) -> String {
        guard let s = m[key]?.stringValue else { throw PortError("\(key) must be a string") }
        return s
    }

    private static func int(_ m: Value, _ key: String) throws(PortError) -> Int {
        guard let n = m[key]?.intValue else { throw PortError("\(key) must be an integer") }
        return n
    }

    static func configuration(_ m: Value) throws(PortError) -> EngineConfiguration {
        var c = EngineConfiguration()
        if let p = m["platform"]?.stringValue {
            guard let platform = Platform(rawValue: p) else { throw PortError("hello: unknown platform \(p)") }
            c.platform = platform
        }
        if let d = m["device"]?.stringValue {
            guard let device = DeviceType(rawValue: d) else { throw PortError("hello: unknown device \(d)") }
            c.deviceType = device
        }
        if let sp = m["defaultServiceProvider"]?.stringValue { c.defaultServiceProvider = sp }
        if let scheme = m["svcScheme"]?.stringValue { c.svcScheme = scheme }
        if let id = m["deviceID"]?.stringValue { c.deviceID = id }
        if let version = m["clientVersion"]?.stringValue { c.clientVersion = version }
        if let timeout = m["requestTimeout"]?.intValue { c.requestTimeout = Millis(Int64(timeout)) }
        return c
    }

    static func result(_ m: Value) throws(PortError) -> HTTPResult {
        if m["timeout"]?.boolValue == true { return .timeout }
        if let error = m["error"]?.stringValue { return .failure(error) }
        let status = try int(m, "status")
        var headers = HTTPHeaders()
        for pair in m["headers"]?.listValue ?? [] {
            guard let p = pair.listValue, p.count == 2, let name = p[0].stringValue, let value = p[1].stringValue else {
                throw PortError("response: headers must be [name, value] pairs")
            }
            headers.fields.append(HTTPHeader(name, value))
        }
        return .response(HTTPResponse(status: status, headers: headers, body: Array((m["body"]?.stringValue ?? "").utf8)))
    }

    static func picker(_ v: Value?) throws(PortError) -> PickerOutcome {
        if v == .string("other") { return .otherProvider }
        if v == .string("cancelled") { return .cancelled }
        if let id = v?["picked"]?.stringValue { return .picked(mvpdID: id, appleToken: v?["appleToken"]?.stringValue) }
        throw PortError("picker: outcome must be \"other\", \"cancelled\" or {\"picked\": MVPD, \"appleToken\": …}")
    }
}
