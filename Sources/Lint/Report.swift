import PassModel

/// One rule's verdict on one journal.
public struct RuleResult: Sendable {
    public var rule: Rule
    public var verdict: Verdict
}

/// Every rule's verdict on a journal, in the rules' order; text, JSON and JUnit renderings, each
/// made only of the journal's instants and sequence numbers (no wall clock, no dictionary order).
public struct LintReport: Sendable {
    public var results: [RuleResult]
    public var entries: Int
    public var dropped: Int
    /// The journal's first instant: evidence times are written relative to it.
    public var start: Int64

    public init(_ journal: Journal, rules: [Rule] = Rules.all) {
        self.init(journal, rules: rules, stopping: { false })!
    }

    /// The report, or nil when `stopping` says so between two rules (a server shutting down while
    /// it judges: each rule is linear in the journal, so it gives up within one rule's time).
    public init?(_ journal: Journal, rules: [Rule] = Rules.all, stopping: () -> Bool) {
        var results: [RuleResult] = []
        for rule in rules {
            if stopping() { return nil }
            results.append(RuleResult(rule: rule, verdict: rule.check(journal)))
        }
        self.results = results
        entries = journal.entries.count
        dropped = journal.dropped
        start = journal.entries.first?.time ?? 0
    }

    public var broken: [RuleResult] { results.filter { if case .broken = $0.verdict { true } else { false } } }
    public var brokenMandatory: Bool { broken.contains { $0.rule.severity == .mandatory } }
    /// How many rules judged the journal (passed or broken).
    public var judged: Int { results.filter { if case .notApplicable = $0.verdict { false } else { true } }.count }

    /// Why the journal is no client's: it is empty, or no rule could judge any of its requests (a
    /// client pointed elsewhere, a journal of another server). nil for a client's journal.
    public var emptyReason: String? {
        if entries == 0 { return "the journal is empty: no request reached passim (is the client pointed at it?)" }
        if judged == 0 {
            return
                "no rule applies to any of its \(entries) requests: none is a call of a REST v2, REST v1 or SDK client"
        }
        return nil
    }

    public func verdict(_ id: String) -> Verdict? { results.first { $0.rule.id == id }?.verdict }

    /// Exit status of `passim lint`: 1 when a mandatory rule is broken, else 0.
    public var exitStatus: Int32 { brokenMandatory ? 1 : 0 }

    /// How many requests of each shown violation a block lists.
    static let shownRequests = 4

    /// One block per broken rule (its count, its first and last violation with their requests), then
    /// the summary, which names the broken rules: a screen for a journal of any size (every violation
    /// is in `json` and `junit`).
    public var text: String {
        var out = ""
        for r in broken {
            guard case .broken(let violations) = r.verdict else { continue }
            let count = violations.map(\.represents).reduce(0, +)
            let shown = violations.filter { !$0.evidence.isEmpty }
            out += "\(r.rule.severity == .mandatory ? "error" : "warning"): \(r.rule.id), broken \(count) time"
            out += (count == 1 ? "" : "s") + ": \(r.rule.title)\n  cites: \(r.rule.citation)\n"
            func block(_ label: String, _ v: Violation) {
                out += "  \(label): \(v.message)\n"
                for e in v.evidence.prefix(LintReport.shownRequests) { out += "    \(e.evidence(since: start))\n" }
                if v.evidence.count > LintReport.shownRequests {
                    out += "    … \(v.evidence.count - LintReport.shownRequests) more\n"
                }
            }
            if let first = shown.first { block(shown.count == 1 ? "seen" : "first", first) }
            if shown.count > 1, let last = shown.last { block("last", last) }
        }
        if dropped > 0 {
            out += "note: the journal's source dropped its \(dropped) oldest requests; rules saw only the rest\n"
        }
        if let emptyReason { out += "note: \(emptyReason)\n" }
        out += summary + "\n"
        return out
    }

    /// `N requests, R rules: P passed, B broken (M mandatory), A not applicable`, then the broken
    /// rules by id.
    public var summary: String {
        let passed = results.filter { if case .passed = $0.verdict { true } else { false } }.count
        let na = results.filter { if case .notApplicable = $0.verdict { true } else { false } }.count
        let mandatory = broken.filter { $0.rule.severity == .mandatory }.count
        let names = broken.isEmpty ? "" : ": " + broken.map(\.rule.id).joined(separator: ", ")
        return
            "\(entries) requests, \(results.count) rules: \(passed) passed, \(broken.count) broken (\(mandatory) mandatory)\(names); \(na) not applicable"
    }

    public var json: Value {
        func evidence(_ e: ClassifiedRequest) -> Value {
            var fields = [
                Value.Entry("sequence", .int(e.sequence)), Value.Entry("at", .string(Journal.seconds(e.time - start))),
                Value.Entry("method", .string(e.method)), Value.Entry("path", .string(e.path)),
            ]
            if let s = e.status { fields.append(Value.Entry("status", .int(s))) }
            if let c = e.errorCode { fields.append(Value.Entry("errorCode", .string(c))) }
            return .dict(fields)
        }
        let rules: [Value] = results.map { r in
            var fields = [
                Value.Entry("id", .string(r.rule.id)), Value.Entry("title", .string(r.rule.title)),
                Value.Entry("citation", .string(r.rule.citation)),
                Value.Entry("severity", .string(r.rule.severity.rawValue)),
                Value.Entry("families", .list(r.rule.families.map { .string($0.rawValue) })),
                Value.Entry("verdict", .string(r.verdict.name)),
            ]
            switch r.verdict {
            case .passed(let n): fields.append(Value.Entry("checked", .int(n)))
            case .notApplicable(let why): fields.append(Value.Entry("reason", .string(why)))
            case .broken(let vs):
                fields.append(Value.Entry("count", .int(vs.map(\.represents).reduce(0, +))))
                fields.append(
                    Value.Entry(
                        "violations",
                        .list(
                            vs.map { v in
                                .dict([
                                    Value.Entry("message", .string(v.message)),
                                    Value.Entry("requests", .list(v.evidence.prefix(10).map(evidence))),
                                ])
                            })))
            }
            return .dict(fields)
        }
        var top = [
            Value.Entry("requests", .int(entries)), Value.Entry("dropped", .int(dropped)),
            Value.Entry("brokenMandatory", .bool(brokenMandatory)),
        ]
        if let emptyReason { top.append(Value.Entry("notAClient", .string(emptyReason))) }
        return .dict(top + [Value.Entry("rules", .list(rules))])
    }

    /// JUnit XML: a test case per rule; broken is a failure, not applicable is skipped.
    public var junit: String {
        let esc = LintReport.escaped
        let failures = broken.count
        let skipped =
            results.count - failures - results.filter { if case .passed = $0.verdict { true } else { false } }.count
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out +=
            "<testsuite name=\"passim lint\" tests=\"\(results.count)\" failures=\"\(failures)\" skipped=\"\(skipped)\">\n"
        for r in results {
            out += "  <testcase classname=\"\(esc(r.rule.severity.rawValue))\" name=\"\(esc(r.rule.id))\">"
            switch r.verdict {
            case .passed: break
            case .notApplicable(let why): out += "<skipped message=\"\(esc(why))\"/>"
            case .broken(let vs):
                let body = vs.map { v in
                    v.message + "\n" + v.evidence.prefix(10).map { $0.evidence(since: start) }.joined(separator: "\n")
                }
                .joined(separator: "\n")
                out +=
                    "<failure message=\"\(esc(vs.first?.message ?? ""))\">\(esc(r.rule.citation + "\n" + body))</failure>"
            }
            out += "</testcase>\n"
        }
        out += "</testsuite>\n"
        return out
    }

    /// Text as XML and HTML take it between tags and in attribute values: `&`, `<`, `>` and `"`
    /// escaped, the control characters XML 1.0 refuses replaced by `?`.
    static func escaped(_ s: String) -> String {
        var out = ""
        for ch in s.unicodeScalars {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default:
                if ch.value < 0x20, ch != "\n", ch != "\t", ch != "\r" {
                    out += "?"
                } else {
                    out.unicodeScalars.append(ch)
                }
            }
        }
        return out
    }
}
