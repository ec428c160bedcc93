import PassModel

extension PortOutput {
    /// The line a port writes for this (docs/PORTING.md): what `parse` reads back. `passim shim` and
    /// the in-process bridge of `PassimConformance` write their lines with it.
    public var line: String {
        switch self {
        case .ready(let version, let implementation, let reset):
            var fields: [(String, Value)] = [("protocol", .int(version)), ("implementation", .string(implementation))]
            if reset { fields.append((PortMessage.resetField, .bool(true))) }
            return PortMessage.line("ready", fields)
        case .callback(let app, let callback):
            return PortMessage.line(
                "callback",
                [
                    ("app", .string(app)), ("callback", .string(callback.name)),
                    ("args", .list(PortCodec.arguments(of: callback))),
                ])
        case .present(let app, let url):
            return PortMessage.line("present", [("app", .string(app)), ("url", .string(url))])
        case .request(let app, let id, let request):
            return PortMessage.line(
                "request",
                [
                    ("app", .string(app)), ("id", .int(id)), ("method", .string(request.method)),
                    ("url", .string(request.url)), ("headers", PortMessage.headers(request.headers)),
                    ("body", PortMessage.body(request.body)),
                ])
        case .fetched(let app, let id, let request, let result):
            // The harness reads the answer from the server itself: the status only.
            return PortMessage.line(
                "fetched",
                [
                    ("app", .string(app)), ("id", .int(id)), ("method", .string(request.method)),
                    ("url", .string(request.url)),
                ] + PortMessage.outcome(result, statusOnly: true))
        case .timer(let app, let id, let at):
            return PortMessage.line(
                "timer", [("app", .string(app)), ("id", .int(id)), ("at", .int(Int(at.milliseconds)))])
        case .cancelTimer(let app, let id):
            return PortMessage.line("cancel-timer", [("app", .string(app)), ("id", .int(id))])
        case .appCall(let app, let call):
            return PortMessage.line(
                "app-call",
                [
                    ("app", .string(app)), ("call", .string(call.name)),
                    ("args", PortCodec.arguments(of: call)),
                ])
        case .idle:
            return PortMessage.line("idle", [])
        case .unimplemented(let what):
            return PortMessage.line("unimplemented", [("what", .string(what))])
        case .error(let message):
            return PortMessage.line("error", [("message", .string(message))])
        }
    }
}
