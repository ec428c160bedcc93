import MockPass
import PassModel

/// A journal entry as the rules read it: the mock's `LoggedRequest` (the one journal type, which
/// `GET /admin/log` writes as JSON lines), its place in the journal, and what every rule asks of it,
/// read once: every rule asks each entry for its device and its route, some several times, and
/// parsing a path or searching the headers on each ask was most of a report's time. The request's
/// own fields read through (`entry.method`, `entry.status`).
@dynamicMemberLookup
public struct ClassifiedRequest: Hashable, Sendable {
    public let request: LoggedRequest
    /// 1 for the journal's first entry.
    public let sequence: Int
    /// Whom the request came from, as the mock's throttle keys it (`LoggedRequest.device`).
    public let device: String
    let v2Route: V2Route?
    let spRoute: Route?

    public init(_ request: LoggedRequest, sequence: Int) {
        self.request = request
        self.sequence = sequence
        device = request.device
        v2Route = V2Route(method: request.method, path: request.path)
        spRoute = Route.route(atSPPath: request.path)?.route
    }

    public subscript<T>(dynamicMember field: KeyPath<LoggedRequest, T>) -> T { request[keyPath: field] }

    /// The call as a repeat is counted: its method and path, and the resources a decision names (a
    /// decision for another resource after a deny is another call, not a repeat).
    public var call: String {
        let head = request.method + " " + request.path
        return request.resources.isEmpty ? head : head + " " + request.resources.joined(separator: ",")
    }

    /// Milliseconds since the epoch, on the mock's (virtual) clock.
    public var time: Int64 { request.time.milliseconds }

    /// The first header with this name, any case.
    public func header(_ name: String) -> String? { request.headers[name] }

    public func parameter(_ name: String) -> String? { request.parameter(name) }

    /// Whether the answer was a success (2xx or 3xx with no refusal inside); nil when not recorded.
    public var succeeded: Bool? { request.status.map { (200..<400).contains($0) && !refusedInside } }

    /// A REST v2 decision answer (a 200) whose every decision was refused: the mock's journal
    /// gives it the first refusal's code (`LoggedRequest.record`).
    public var refusedInside: Bool {
        request.status.map { (200..<300).contains($0) } == true && request.errorCode != nil
    }

    /// A refusal: a 4xx but an expired token (401) or a throttle (429), or every decision refused.
    public var refused: Bool {
        guard let s = request.status else { return false }
        return ((400..<500).contains(s) && s != 401 && s != 429) || refusedInside
    }

    /// `#SEQ @+S.mmm METHOD PATH -> STATUS`, S the seconds since the journal's first entry.
    public func evidence(since start: Int64) -> String {
        let answer = request.status.map { " -> \($0)" + (request.errorCode.map { " " + $0 } ?? "") } ?? ""
        return "#\(sequence) @\(Journal.seconds(time - start)) \(request.method) \(request.path)\(answer)"
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
    public var entries: [ClassifiedRequest]
    /// Entries the source dropped before the first kept (a bounded log); rules say so in their notes.
    public var dropped: Int

    /// `log` as a mock kept it, `dropped` the entries it let go of before the first.
    public init(_ log: [LoggedRequest], dropped: Int = 0) {
        entries = log.enumerated().map { ClassifiedRequest($0.element, sequence: dropped + $0.offset + 1) }
        self.dropped = dropped
    }

    /// The largest journal text `parse` reads by default (64 MiB).
    public static let defaultMaxBytes = 64 << 20
    /// The most entries `parse` reads.
    public static let maxEntries = 1_000_000

    /// Parses JSON lines as `GET /admin/log` writes them (`LoggedRequest(jsonLine:)`; blank lines
    /// skipped). Refused: a text over `maxBytes`, a line that is not an entry (a truncated last line
    /// included), more than `maxEntries` entries.
    public static func parse(_ text: String, maxBytes: Int = defaultMaxBytes) throws(JournalError) -> Journal {
        guard text.utf8.count <= maxBytes else {
            throw JournalError("the journal is larger than \(maxBytes) bytes")
        }
        var log: [LoggedRequest] = []
        var lineNumber = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let trimmed = line.trimmingCharacters(in: " ").trimmingCharacters(in: "\r")
            if trimmed.isEmpty { continue }
            guard log.count < maxEntries else { throw JournalError("more than \(maxEntries) entries") }
            do { log.append(try LoggedRequest(jsonLine: trimmed)) } catch {
                throw JournalError("line \(lineNumber): \(error.message)")
            }
        }
        return Journal(log)
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
