import MockPass
import PassModel

/// The admin endpoint's JSON lines. `Value` keeps dictionary keys in order, so the lines read the same
/// every time.
enum JSONLine {
    static func logged(_ r: LoggedRequest) -> String {
        func pairs(_ xs: [(String, String)]) -> Value {
            .list(xs.map { .dict([Value.Entry("name", .string($0.0)), Value.Entry("value", .string($0.1))]) })
        }
        var fields = [
            Value.Entry("host", .string(LiveHost.name(of: r.host))),
            Value.Entry("time", .int(Int(r.time.milliseconds))),
            Value.Entry("method", .string(r.method)),
            Value.Entry("path", .string(r.path)),
            Value.Entry("parameters", pairs(r.parameters.map { ($0.name, $0.value) })),
            Value.Entry("headers", pairs(r.headers.fields.map { ($0.name, $0.value) })),
        ]
        // Only on a faulted request's line, so the lines of answered requests read as before.
        if let fault = r.fault { fields.append(Value.Entry("fault", .string(fault))) }
        // The answer, once given (what `passim lint` judges).
        if let status = r.status { fields.append(Value.Entry("status", .int(status))) }
        if let code = r.errorCode { fields.append(Value.Entry("errorCode", .string(code))) }
        if let action = r.errorAction { fields.append(Value.Entry("errorAction", .string(action))) }
        // Only on a REST v2 decisions request's line.
        if !r.resources.isEmpty { fields.append(Value.Entry("resources", .list(r.resources.map(Value.string)))) }
        return Value.dict(fields).jsonText + "\n"
    }

    static func host(_ h: LiveHost, _ c: HostConditions) -> String {
        Value.dict([
            Value.Entry("host", .string(h.name)),
            Value.Entry("url", .string(h.originalURL)),
            Value.Entry("live", .string(h.liveURL)),
            Value.Entry("port", .int(h.port)),
            Value.Entry("mode", .string(c.mode.rawValue)),
            Value.Entry("latency", .string(c.latency.description)),
            Value.Entry("pendingFailures", .int(c.failures.reduce(0) { $0 + $1.remaining })),
        ]).jsonText + "\n"
    }

    static func store(_ o: StoreOccupancy) -> String {
        var fields = [
            Value.Entry("store", .string(o.store)),
            Value.Entry("limit", .string(o.limit)),
            Value.Entry("count", .int(o.count)),
            Value.Entry("capacity", .int(o.capacity)),
        ]
        if let bytes = o.bytes { fields.append(Value.Entry("bytes", .int(bytes))) }
        if let maxBytes = o.maxBytes { fields.append(Value.Entry("maxBytes", .int(maxBytes))) }
        fields.append(Value.Entry("full", .bool(o.full)))
        return Value.dict(fields).jsonText + "\n"
    }
}
