import MockPass
import PassModel

/// The admin endpoint's JSON lines. `Value` keeps dictionary keys in order, so the lines read the same
/// every time.
enum JSONLine {
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
