import Passim
import Port

/// An `AccessEnablerPort` behind the driver protocol's lines, for the in-process transport of the
/// `Port` module: the harness writes and checks exactly the lines it would for a process. The lines
/// are read and written by `Port`'s own codec (`HarnessMessage`, `PortOutput.line`), as `passim shim` does.
final class PortBridge: LinePort {
    private let make: () -> any AccessEnablerPort
    private var port: (any AccessEnablerPort)?

    init(_ make: @escaping () -> any AccessEnablerPort) { self.make = make }

    func handle(_ line: String) -> [String] {
        do {
            return try answer(line).map(\.line)
        } catch {
            return [PortOutput.error(error.message).line]
        }
    }

    private func answer(_ line: String) throws(PortError) -> [PortOutput] {
        let message = try HarnessMessage(line: line)
        let event: PortInput.Event
        switch message.event {
        case .hello(let hello):
            if hello.live != nil {
                return [.unimplemented("the live network (an in-process port leaves HTTP to the harness)")]
            }
            let port = make()
            self.port = port
            port.start(
                PortWorld(
                    apps: hello.apps, configuration: hello.configuration, appWires: hello.appWires, now: message.now,
                    requestTimeout: hello.requestTimeout))
            return [.ready(protocol: port.protocolVersion, implementation: port.implementation, reset: false)]
        case .call(let call): event = .call(call)
        case .response(let id, let result): event = .response(id, result)
        case .timer(let id): event = .timer(id)
        case .picker(let outcome): event = .picker(outcome)
        case .deliver: throw PortError("deliver: an in-process port is never on the live network")
        }
        guard let port else { throw PortError("hello must come first") }
        let app = message.app
        var out: [PortOutput] = []
        for action in port.handle(PortInput(app: app, now: message.now, event: event)) {
            switch action {
            case .callback(let callback): out.append(.callback(app: app, callback))
            case .request(let id, let request): out.append(.request(app: app, id: id.value, request))
            case .startTimer(let id, let at): out.append(.timer(app: app, id: id.value, at: at))
            case .cancelTimer(let id): out.append(.cancelTimer(app: app, id: id.value))
            case .presentBrowser(let url): out.append(.present(app: app, url: url))
            case .unimplemented(let what): return out + [.unimplemented(what)]
            }
        }
        return out + [.idle]
    }
}
