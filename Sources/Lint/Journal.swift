import MockPass
import PassModel

/// One request of a journal as `passim lint` judges it: what `GET /admin/log` writes a line for
/// (`docs/SERVE.md`), or a `LoggedRequest` of a simulated or live run.
public struct JournalEntry: Hashable, Sendable {
    public struct Pair: Hashable, Sendable {
        public var name: String
        public var value: String
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// 1 for the journal's first entry.
    public var sequence: Int
    /// `sp:NAME` or `idp:ID`.
    public var host: String
    /// Milliseconds since the epoch, on the mock's (virtual) clock.
    public var time: Int64
    public var method: String { didSet { derive() } }
    public var path: String { didSet { derive() } }
    public var parameters: [Pair]
    public var headers: [Pair] { didSet { derive() } }
    /// The answer's status; nil when the journal did not record it.
    public var status: Int?
    public var errorCode: String?
    public var errorAction: String?

    /// Read off `method`, `path` and the headers once: every rule asks each entry for them, some
    /// several times, and parsing a path or searching the headers on each ask was most of a
    /// report's time (`device`, `v2`, `route`).
    public private(set) var device = "anonymous"
    private(set) var v2Route: V2Route?
    private(set) var spRoute: Route?

    public init(
        sequence: Int, host: String, time: Int64, method: String, path: String, parameters: [Pair] = [],
        headers: [Pair] = [], status: Int? = nil, errorCode: String? = nil, errorAction: String? = nil
    ) {
        self.sequence = sequence
        self.host = host
        self.time = time
        self.method = method
        self.path = path
        self.parameters = parameters
        self.headers = headers
        self.status = status
        self.errorCode = errorCode
        self.errorAction = errorAction
        derive()
    }

    private mutating func derive() {
        device = JournalEntry.device(headers: headers)
        v2Route = V2Route(method: method, path: path)
        spRoute = Route.route(atSPPath: path)?.route
    }

    public init(_ r: LoggedRequest, sequence: Int) {
        let host =
            switch r.host {
            case .sp(let name): "sp:" + name
            case .idp(let id): "idp:" + id
            }
        self.init(
            sequence: sequence, host: host, time: r.time.milliseconds, method: r.method, path: r.path,
            parameters: r.parameters.map { Pair($0.name, $0.value) },
            headers: r.headers.fields.map { Pair($0.name, $0.value) },
            status: r.status, errorCode: r.errorCode, errorAction: r.errorAction)
    }

    /// The first header with this name, any case.
    public func header(_ name: String) -> String? { JournalEntry.header(name, in: headers) }

    static func header(_ name: String, in headers: [Pair]) -> String? {
        let lower = name.lowercased()
        return headers.first { $0.name.lowercased() == lower }?.value
    }

    public func parameter(_ name: String) -> String? { parameters.first { $0.name == name }?.value }

    /// Whether the answer was a success (2xx or 3xx with no refusal inside); nil when not recorded.
    public var succeeded: Bool? { status.map { (200..<400).contains($0) && !refusedInside } }

    /// A REST v2 decision answer (a 200) whose every decision was refused: the mock's journal
    /// gives it the first refusal's code (`LoggedRequest.record`).
    public var refusedInside: Bool { status.map { (200..<300).contains($0) } == true && errorCode != nil }

    /// A refusal: a 4xx but an expired token (401) or a throttle (429), or every decision refused.
    public var refused: Bool {
        guard let s = status else { return false }
        return ((400..<500).contains(s) && s != 401 && s != 429) || refusedInside
    }

    /// The device the request came from, as Adobe's throttle keys it (rest-api-v2.md 1.10):
    /// `X-Forwarded-For`'s first address, else `AP-Device-Identifier`, else one anonymous device.
    /// The spaces between `fingerprint` and the id are not the device's (the mock's throttle reads
    /// it so too, docs/CONFORMANCE.md choice 94): a client cannot be two devices by respelling it.
    static func device(headers: [Pair]) -> String {
        func header(_ name: String) -> String? { JournalEntry.header(name, in: headers) }
        if let forwarded = header("X-Forwarded-For"),
            let first = forwarded.split(separator: ",").first?.trimmingCharacters(in: " "), !first.isEmpty
        {
            return "ip " + first
        }
        if let id = header("AP-Device-Identifier") {
            let parts = id.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0] == "fingerprint" {
                return "device fingerprint " + parts[1].trimmingCharacters(in: " ")
            }
            return "device " + id
        }
        return "anonymous"
    }

    /// `#SEQ @+S.mmm METHOD PATH -> STATUS`, S the seconds since the journal's first entry.
    public func evidence(since start: Int64) -> String {
        let answer = status.map { " -> \($0)" + (errorCode.map { " " + $0 } ?? "") } ?? ""
        return "#\(sequence) @\(Journal.seconds(time - start)) \(method) \(path)\(answer)"
    }
}

extension StringProtocol {
    func trimmingCharacters(in set: Character) -> String {
        var s = Substring(self)
        while s.first == set { s.removeFirst() }
        while s.last == set { s.removeLast() }
        return String(s)
    }
}

/// Why a text is not a journal.
public struct JournalError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// A request journal: entries oldest first.
public struct Journal: Hashable, Sendable {
    public var entries: [JournalEntry]
    /// Entries the source dropped before the first kept (a bounded log); rules say so in their notes.
    public var dropped: Int

    public init(entries: [JournalEntry], dropped: Int = 0) {
        self.entries = entries
        self.dropped = dropped
    }

    public init(_ log: [LoggedRequest], dropped: Int = 0) {
        self.init(
            entries: log.enumerated().map { JournalEntry($0.element, sequence: dropped + $0.offset + 1) },
            dropped: dropped)
    }

    /// The largest journal text `parse` reads by default (64 MiB).
    public static let defaultMaxBytes = 64 << 20
    /// The most entries `parse` reads.
    public static let maxEntries = 1_000_000

    /// Parses JSON lines as `GET /admin/log` writes them (blank lines skipped). Refused: a text
    /// over `maxBytes`, a line that is not a JSON object with `host`, `time`, `method` and `path`
    /// (a truncated last line included), more than `maxEntries` entries.
    public static func parse(_ text: String, maxBytes: Int = defaultMaxBytes) throws(JournalError) -> Journal {
        guard text.utf8.count <= maxBytes else {
            throw JournalError("the journal is larger than \(maxBytes) bytes")
        }
        var entries: [JournalEntry] = []
        var lineNumber = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let trimmed = line.trimmingCharacters(in: " ").trimmingCharacters(in: "\r")
            if trimmed.isEmpty { continue }
            guard entries.count < maxEntries else { throw JournalError("more than \(maxEntries) entries") }
            entries.append(try entry(trimmed, line: lineNumber, sequence: entries.count + 1))
        }
        return Journal(entries: entries)
    }

    static func entry(_ line: String, line number: Int, sequence: Int) throws(JournalError) -> JournalEntry {
        let value: Value
        do { value = try Value(jsonText: line, maxDepth: 4) } catch {
            throw JournalError(
                "line \(number): not JSON (\(error.message)); a journal is JSON lines as GET /admin/log gives them (truncated?)"
            )
        }
        guard case .dict = value else { throw JournalError("line \(number): not a JSON object") }
        func text(_ key: String) throws(JournalError) -> String {
            guard let s = value[key]?.stringValue else {
                throw JournalError("line \(number): missing or non-string \"\(key)\"")
            }
            return s
        }
        func pairs(_ key: String) throws(JournalError) -> [JournalEntry.Pair] {
            guard let v = value[key] else { return [] }
            guard let list = v.listValue else { throw JournalError("line \(number): \"\(key)\" is not a list") }
            var out: [JournalEntry.Pair] = []
            for item in list {
                guard let n = item["name"]?.stringValue, let val = item["value"]?.stringValue else {
                    throw JournalError("line \(number): an item of \"\(key)\" is not {\"name\":…,\"value\":…}")
                }
                out.append(JournalEntry.Pair(n, val))
            }
            return out
        }
        let host = try text("host")
        guard host.hasPrefix("sp:") || host.hasPrefix("idp:") else {
            throw JournalError("line \(number): host must be sp:NAME or idp:ID, not \(host.prefix(64))")
        }
        guard let time = value["time"]?.intValue, time >= 0 else {
            throw JournalError("line \(number): missing \"time\" (milliseconds since the epoch)")
        }
        var status: Int?
        if let s = value["status"] {
            guard let i = s.intValue, (100...599).contains(i) else {
                throw JournalError("line \(number): status must be 100-599")
            }
            status = i
        }
        return JournalEntry(
            sequence: sequence, host: host, time: Int64(time), method: try text("method"), path: try text("path"),
            parameters: try pairs("parameters"), headers: try pairs("headers"), status: status,
            errorCode: value["errorCode"]?.stringValue, errorAction: value["errorAction"]?.stringValue)
    }

    /// `12.345s`: milliseconds as seconds, three decimals, no locale.
    static func seconds(_ ms: Int64) -> String {
        let sign = ms < 0 ? "-" : ""
        let m = ms.magnitude
        let frac = String(m % 1000)
        return "\(sign)\(m / 1000).\(String(repeating: "0", count: 3 - frac.count))\(frac)s"
    }

    /// Whether the client made a REST v2 call (not the user agent's `authenticate`).
    var hasV2Calls: Bool { entries.contains { $0.isV2ClientCall } }

    /// Whether every entry records its answer's status.
    var hasStatuses: Bool { entries.allSatisfy { $0.status != nil } }
}
