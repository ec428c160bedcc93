import PassModel

/// A journal entry as one JSON line, the form `GET /admin/log` writes and `passim lint`, a remote
/// server's `seen` and the tests read back: the one text form of the one journal type. `Value` keeps
/// keys in order, so a line reads the same every time.
extension LoggedRequest {
    /// The entry's line, with its newline. Optional fields (`fault`, the answer and what the rules
    /// read of it, `resources`) appear
    /// only when set, so an answered request's line reads as it always has.
    public var jsonLine: String {
        func pairs(_ xs: [(String, String)]) -> Value {
            .list(xs.map { .dict([Value.Entry("name", .string($0.0)), Value.Entry("value", .string($0.1))]) })
        }
        var fields = [
            Value.Entry("host", .string(host.description)),
            Value.Entry("time", .int(Int(time.milliseconds))),
            Value.Entry("method", .string(method)),
            Value.Entry("path", .string(path)),
            Value.Entry("parameters", pairs(parameters.map { ($0.name, $0.value) })),
            Value.Entry("headers", pairs(headers.fields.map { ($0.name, $0.value) })),
        ]
        if let fault { fields.append(Value.Entry("fault", .string(fault))) }
        if let status { fields.append(Value.Entry("status", .int(status))) }
        if let errorCode { fields.append(Value.Entry("errorCode", .string(errorCode))) }
        if let errorAction { fields.append(Value.Entry("errorAction", .string(errorAction))) }
        if !resources.isEmpty { fields.append(Value.Entry("resources", .list(resources.map(Value.string)))) }
        if !deniedResources.isEmpty {
            fields.append(Value.Entry("deniedResources", .list(deniedResources.map(Value.string))))
        }
        if let profiles { fields.append(Value.Entry("profiles", .list(profiles.map(Value.string)))) }
        if let retryAfter { fields.append(Value.Entry("retryAfter", .int(retryAfter))) }
        return Value.dict(fields).jsonText + "\n"
    }

    /// Reads a line `jsonLine` wrote (without its newline). Refused, with the reason: a line that is
    /// not a JSON object (a truncated last line included), a missing or mistyped `host` (`sp:NAME`
    /// or `idp:ID`), `time` (milliseconds since the epoch), `method` or `path`, a status outside
    /// 100–599, a `parameters` or `headers` item that is not `{"name":…,"value":…}`.
    public init(jsonLine line: String) throws(JournalLineError) {
        let value: Value
        do { value = try Value(jsonText: line, maxDepth: 4) } catch {
            throw JournalLineError(
                "not JSON (\(error.message)); a journal is JSON lines as GET /admin/log gives them (truncated?)")
        }
        guard case .dict = value else { throw JournalLineError("not a JSON object") }
        func text(_ key: String) throws(JournalLineError) -> String {
            guard let s = value[key]?.stringValue else { throw JournalLineError("missing or non-string \"\(key)\"") }
            return s
        }
        func pairs(_ key: String) throws(JournalLineError) -> [(String, String)] {
            guard let v = value[key] else { return [] }
            guard let list = v.listValue else { throw JournalLineError("\"\(key)\" is not a list") }
            var out: [(String, String)] = []
            for item in list {
                guard let n = item["name"]?.stringValue, let val = item["value"]?.stringValue else {
                    throw JournalLineError("an item of \"\(key)\" is not {\"name\":…,\"value\":…}")
                }
                out.append((n, val))
            }
            return out
        }
        let hostText = try text("host")
        guard let host = Host(hostText) else {
            throw JournalLineError("host must be sp:NAME or idp:ID, not \(hostText.prefix(64))")
        }
        guard let time = value["time"]?.intValue, time >= 0 else {
            throw JournalLineError("missing \"time\" (milliseconds since the epoch)")
        }
        var status: Int?
        if let s = value["status"] {
            guard let i = s.intValue, (100...599).contains(i) else { throw JournalLineError("status must be 100-599") }
            status = i
        }
        self.init(
            host: host, time: Instant(milliseconds: Int64(time)), method: try text("method"), path: try text("path"),
            parameters: try pairs("parameters").map { Parameter(name: $0.0, value: $0.1) },
            headers: HTTPHeaders(try pairs("headers").map { HTTPHeader($0.0, $0.1) }),
            fault: value["fault"]?.stringValue, status: status, errorCode: value["errorCode"]?.stringValue,
            errorAction: value["errorAction"]?.stringValue,
            resources: (value["resources"]?.listValue ?? []).compactMap(\.stringValue))
        deniedResources = (value["deniedResources"]?.listValue ?? []).compactMap(\.stringValue)
        profiles = value["profiles"]?.listValue?.compactMap(\.stringValue)
        retryAfter = value["retryAfter"]?.intValue
    }
}

extension LoggedRequest.Host: CustomStringConvertible {
    /// `sp:NAME` or `idp:ID`: how the journal, `/admin/net` and the CLI name a host.
    public var description: String {
        switch self {
        case .sp(let name): "sp:" + name
        case .idp(let id): "idp:" + id
        }
    }

    /// Parses `sp:NAME` or `idp:ID` (a name is not empty).
    public init?(_ text: String) {
        if text.hasPrefix("sp:"), text.count > 3 {
            self = .sp(String(text.dropFirst(3)))
        } else if text.hasPrefix("idp:"), text.count > 4 {
            self = .idp(String(text.dropFirst(4)))
        } else {
            return nil
        }
    }
}

/// Why a line is not a journal entry.
public struct JournalLineError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
