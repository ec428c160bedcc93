import Entitlement
import PassModel

/// A line the harness writes to a port (harness → port, docs/PORTING.md), read and checked: what a
/// port written in Swift reads (`passim shim`, the in-process bridge of `PassimConformance`).
/// `PortOutput` is the other direction.
public struct HarnessMessage: Sendable {
    public enum Event: Sendable {
        /// A new world (protocol 1.1: also a reset of a port kept from an earlier scenario).
        case hello(Hello)
        case call(Call)
        /// Harness network: the answer to the port's request.
        case response(RequestID, HTTPResult)
        /// Live network: the answer the port fetched for this request has arrived.
        case deliver(RequestID)
        case timer(TimerID)
        case picker(PickerOutcome)
    }

    public struct Hello: Sendable {
        public var protocolVersion: Int
        public var apps: [String]
        public var configuration: EngineConfiguration
        /// Apps with a wire of their own (`appWires`: a world with both faces); the others speak
        /// `configuration.wire`.
        public var appWires: [String: EngineWire] = [:]
        /// Live network: each origin of the world with its loopback origin, and how long a fetch may
        /// wait; nil on the harness network.
        public var live: (hosts: [String: String], fetchTimeout: Millis)?
        /// The `requestTimeout` the `hello` gave: only a world whose timeout is not BEHAVIOR.md's says
        /// one (protocol 1.3); nil: the port's own default (`configuration` holds passim's).
        public var requestTimeout: Millis?
    }

    public var event: Event
    /// The app the input is for; empty for `hello`.
    public var app: String
    public var now: Instant
    /// Live network: the device's `Cookie` header for each host, for this message's requests.
    public var cookies: [String: String]

    public init(line: String) throws(PortError) {
        let message: Value
        do {
            message = try Value(jsonText: line)
        } catch {
            throw PortError("not JSON: \(error.message)")
        }
        let f = Fields(message, context: "message")
        let type = try f.string("type")
        now = Instant(milliseconds: Int64(try f.int("now")))
        cookies = try HarnessMessage.cookies(f)
        if type == "hello" {
            app = ""
            event = .hello(try HarnessMessage.hello(f))
            return
        }
        app = try f.string("app")
        switch type {
        case "call":
            guard let args = f.value("args") else { throw PortError("call: args missing") }
            event = .call(try PortCodec.call(named: try f.string("call"), args))
        case "response":
            event = .response(RequestID(try f.int("id")), try Fields(message, context: "response").outcome())
        case "deliver":
            event = .deliver(RequestID(try f.int("id")))
        case "timer":
            event = .timer(TimerID(try f.int("id")))
        case "picker":
            event = .picker(try HarnessMessage.picker(f.value("outcome")))
        default:
            throw PortError("unknown message type \(type)")
        }
    }

    private static func hello(_ f: Fields) throws(PortError) -> Hello {
        var c = EngineConfiguration()
        if let p = try f.optionalString("platform") {
            guard let platform = Platform(rawValue: p) else { throw PortError("hello: unknown platform \(p)") }
            c.platform = platform
        }
        if let d = try f.optionalString("device") {
            guard let device = DeviceType(rawValue: d) else { throw PortError("hello: unknown device \(d)") }
            c.deviceType = device
        }
        if let sp = try f.optionalString("defaultServiceProvider") { c.defaultServiceProvider = sp }
        if let scheme = try f.optionalString("svcScheme") { c.svcScheme = scheme }
        if let id = try f.optionalString("deviceID") { c.deviceID = id }
        if let version = try f.optionalString("clientVersion") { c.clientVersion = version }
        var timeout: Millis?
        if f.optional("requestTimeout") != nil {
            let ms = try f.int("requestTimeout")
            guard ms > 0 else { throw PortError("hello: requestTimeout must be a positive number of ms") }
            timeout = Millis(Int64(ms))
            c.requestTimeout = Millis(Int64(ms))
        }
        if let w = try f.optionalString("wire") {
            guard let wire = EngineWire(rawValue: w) else { throw PortError("hello: unknown wire \(w) (sdk or v2)") }
            c.wire = wire
        }
        for id in try f.optionalList("promotionalTempPasses") ?? [] {
            guard let mvpd = id.stringValue else { throw PortError("hello: promotionalTempPasses must be strings") }
            c.promotionalTempPasses.insert(mvpd)
        }
        var apps: [String] = []
        for app in try f.optionalList("apps") ?? [] {
            guard let name = app.stringValue else { throw PortError("hello: apps must be strings") }
            apps.append(name)
        }
        var live: (hosts: [String: String], fetchTimeout: Millis)?
        if try f.optionalString("network") == "live" {
            live = (try hosts(f), Millis(Int64(try f.int("fetchTimeout"))))
        }
        var appWires: [String: EngineWire] = [:]
        if let own = f.value("appWires") {
            guard case .dict(let entries) = own else { throw PortError("hello: appWires must be an object") }
            for entry in entries {
                guard let w = entry.value.stringValue, let wire = EngineWire(rawValue: w) else {
                    throw PortError("hello: appWires[\(entry.key)] must be \"sdk\" or \"v2\"")
                }
                appWires[entry.key] = wire
            }
        }
        return Hello(
            protocolVersion: try f.int("protocol"), apps: apps, configuration: c, appWires: appWires, live: live,
            requestTimeout: timeout)
    }

    private static func hosts(_ f: Fields) throws(PortError) -> [String: String] {
        guard case .dict(let entries)? = f.value("hosts") else { throw PortError("hello: hosts must be an object") }
        var hosts: [String: String] = [:]
        for entry in entries {
            guard let connect = entry.value.stringValue else {
                throw PortError("hello: hosts[\(entry.key)] must be a string")
            }
            hosts[entry.key] = connect
        }
        return hosts
    }

    private static func cookies(_ f: Fields) throws(PortError) -> [String: String] {
        guard let value = f.optional("cookies") else { return [:] }
        guard case .dict(let entries) = value else { throw PortError("\(f.context): cookies must be an object") }
        var cookies: [String: String] = [:]
        for entry in entries {
            guard let header = entry.value.stringValue else {
                throw PortError("\(f.context): cookies[\(entry.key)] must be a string")
            }
            cookies[entry.key] = header
        }
        return cookies
    }

    private static func picker(_ v: Value?) throws(PortError) -> PickerOutcome {
        if v == .string("other") { return .otherProvider }
        if v == .string("cancelled") { return .cancelled }
        if let id = v?["picked"]?.stringValue { return .picked(mvpdID: id, appleToken: v?["appleToken"]?.stringValue) }
        throw PortError("picker: outcome must be \"other\", \"cancelled\" or {\"picked\": MVPD, \"appleToken\": …}")
    }
}
