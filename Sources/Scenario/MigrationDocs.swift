import Harness
import MockPass
import PassModel
import ScenarioSyntax
import Simulation

/// `passim doc`'s migration pages (`docs/migration/`): per SDK call and per cookbook
/// flow, one scenario run on the SDK's wire and on REST API v2's, side by side: the requests of each
/// wire step by step, the callbacks that stay and those that change (with the reason the wire's
/// expectations file gives), and both sequence diagrams. Everything is taken from the two runs, never
/// written by hand; the output depends only on the scenarios and the expectations file.
public enum MigrationDocs {
    public typealias Expectations = ScenarioRunner.Runtime.Expectations

    /// The scenario each SDK call's page runs, chosen by hand for showing the call in an ordinary flow
    /// (a rule picks edge cases: the fewest steps is often a queued or refused call). A call missing
    /// here, or whose scenario is not among those documented, gets one by `byRule`.
    static let representatives: [(call: String, scenario: String)] = [
        ("init", "startup/client-registration"),
        ("setOptions", "startup/options-on-every-request"),
        ("setRequestor", "startup/one-sp"),
        ("checkAuthentication", "authn/classic-login"),
        ("getAuthentication", "authn/classic-login"),
        ("setSelectedProvider", "authn/classic-login"),
        ("handleExternalURL", "logout/logout-with-token"),
        ("getSelectedProvider", "startup/one-sp"),
        ("checkAuthorization", "authz/refused-with-message"),
        ("getAuthorization", "authz/get-authorization-drives-login"),
        ("checkPreauthorizedResources", "preauth/preauthorize-in-request-order"),
        ("getMetadata", "metadata/user-meta"),
        ("logout", "logout/logout-with-token"),
        ("getAuthenticationToken", "deprecated/get-authentication-token"),
        ("getVersion", "authn/get-version-changes-nothing"),
    ]

    /// A page's subject: an SDK call or a cookbook flow, and the scenario that shows it.
    struct Subject {
        enum Kind { case call, flow }
        var kind: Kind
        /// The call's name, or the flow scenario's stem.
        var name: String
        var entry: CallbackDocs.Entry?
        var byTable: Bool
        var page: String { (kind == .call ? "call-" : "flow-") + name + ".md" }
    }

    /// `area/stem`: how the table and the expectations file name a scenario.
    static func key(_ e: CallbackDocs.Entry) -> String { e.area + "/" + e.stem }

    static func calls(of file: ScenarioFile) -> Set<String> {
        var names: Set<String> = []
        for step in file.steps { if case .call(_, let call) = step.value { names.insert(call.name) } }
        return names
    }

    /// The rule: among the scenarios on the SDK's wire that call `call`, one the expectations file
    /// does not list as failing on v2 if any, then the fewest steps, then the first path.
    static func byRule(_ call: String, _ entries: [CallbackDocs.Entry], _ expectations: Expectations) -> CallbackDocs
        .Entry?
    {
        entries.filter { $0.file.wire == .sdk && calls(of: $0.file).contains(call) }.min { a, b in
            let (fa, fb) = (expectations.rule(for: a.file.path) != nil, expectations.rule(for: b.file.path) != nil)
            if fa != fb { return !fa }
            if a.file.steps.count != b.file.steps.count { return a.file.steps.count < b.file.steps.count }
            return a.file.path < b.file.path
        }
    }

    static func subjects(_ entries: [CallbackDocs.Entry], _ expectations: Expectations) -> [Subject] {
        var out: [Subject] = []
        for call in CallNames.calls {
            if let scenario = representatives.first(where: { $0.call == call })?.scenario,
                let e = entries.first(where: {
                    key($0) == scenario && $0.file.wire == .sdk && calls(of: $0.file).contains(call)
                })
            {
                out.append(Subject(kind: .call, name: call, entry: e, byTable: true))
            } else {
                out.append(Subject(kind: .call, name: call, entry: byRule(call, entries, expectations), byTable: false))
            }
        }
        // The cookbook flows: every scenario whose file name starts with `cookbook-`.
        let flows = entries.filter { $0.stem.hasPrefix("cookbook-") && $0.file.wire == .sdk }
        for e in flows.sorted(by: { ($0.stem, $0.file.path) < ($1.stem, $1.file.path) }) {
            out.append(Subject(kind: .flow, name: e.stem, entry: e, byTable: false))
        }
        return out
    }

    /// Runs every subject's scenario on REST API v2 (each scenario once) and writes the pages.
    /// `entries`: the scenarios' passing runs on their own wire. `root`: the repository's folder, when
    /// the scenarios or the expectations file were named by absolute paths: the pages link files
    /// relative to it (`docs/migration/` is two folders below it).
    public static func pages(
        _ entries: [CallbackDocs.Entry], expectations: Expectations, jobs: Int = 1, root: String? = nil,
        diagrams: CallbackDocs.DiagramFormat = .mermaid
    ) -> [CallbackDocs.Page] {
        var expectations = expectations
        var entries = entries
        if let root, !root.isEmpty {
            let prefix = root.hasSuffix("/") ? root : root + "/"
            func relative(_ path: String) -> String {
                path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
            }
            expectations.path = relative(expectations.path)
            for i in entries.indices { entries[i].file.path = relative(entries[i].file.path) }
        }
        let sorted = entries.sorted { $0.file.path < $1.file.path }
        let subjects = subjects(sorted, expectations)
        var paths: [String] = []
        for s in subjects { if let e = s.entry, !paths.contains(e.file.path) { paths.append(e.file.path) } }
        let files = paths.compactMap { p in sorted.first { $0.file.path == p }?.file }
        let runner = ScenarioRunner(runtime: ScenarioRunner.Runtime(wire: .restV2), expectations: expectations)
        let results = parallelMap(files, jobs: jobs) { runner.run($0) }
        var v2: [String: ScenarioResult] = [:]
        for (file, result) in zip(files, results) { v2[file.path] = result }
        var pages: [CallbackDocs.Page] = []
        var comparisons: [String: Comparison] = [:]
        for s in subjects {
            guard let e = s.entry, let r = v2[e.file.path] else { continue }
            let c = comparisons[e.file.path] ?? Comparison(e, r, expectations)
            comparisons[e.file.path] = c
            let made = page(s, e, c, expectations, diagrams: diagrams)
            pages.append(CallbackDocs.Page(name: s.page, text: made.text))
            pages += made.files
        }
        pages.append(CallbackDocs.Page(name: "index.md", text: index(subjects, comparisons, expectations)))
        return pages.sorted { $0.name < $1.name }
    }

    // MARK: Comparing the two runs

    /// One `<` line of the scenario on both wires.
    struct Row {
        enum Verdict: Equatable {
            case same
            /// Different values that the scenario's own `<` line accepts (a pattern, `_`, a regex).
            case pattern
            /// Different text that the expectations file's `equivalent` or `mask` rule accepts.
            case equivalent(reason: String, line: Int)
            /// Different, or not reached on v2: the scenario's `fail` rule says why (nil: no rule does).
            case changes(reason: String?, line: Int?)
            case notReached
            /// A callback only the v2 run gave.
            case v2Only
        }
        var line: Int
        var sdk: String?
        var v2: String?
        var verdict: Verdict
    }

    /// A callback line of a transcript taken apart: `app< callback at T` (the app's name only for a
    /// second app, `at T` only where the line pins a time).
    struct CallbackLine {
        var line: Int
        var app: String
        var callback: String
        var at: String

        /// What the pages show: the callback, after its app's name when it is not the first app's.
        var shown: String { (app.isEmpty ? "" : app + ": ") + callback + at }

        init?(_ t: TranscriptLine, apps: [String], pinned: Set<Int>) {
            guard
                let app = apps.enumerated().map({ $0.offset == 0 ? "" : $0.element })
                    .filter({ t.text.hasPrefix($0 + "< ") }).max(by: { $0.count < $1.count })
            else { return nil }
            line = t.line
            self.app = app
            var body = String(t.text.dropFirst(app.count + 2))
            at = ""
            if pinned.contains(t.line), let r = body.range(of: " at ", options: .backwards) {
                at = String(body[r.lowerBound...])
                body = String(body[..<r.lowerBound])
            }
            callback = body
        }
    }

    struct Comparison {
        /// The callback `line`'s app took before it (an `equivalent … after` rule reads it).
        static func previous(_ line: CallbackLine, in lines: [CallbackLine]) -> String? {
            lines.last { $0.app == line.app && $0.line < line.line }?.callback
        }

        var rows: [Row] = []
        var v2: CallbackDocs.Entry
        /// The expectations file's `fail` rule for the scenario.
        var rule: (reason: String, line: Int)?
        /// Where and why the v2 run stopped, if it did.
        var stop: (message: String, line: Int)?

        struct Counts { var same = 0, pattern = 0, equivalent = 0, changes = 0 }

        var counts: Counts {
            var c = Counts()
            for r in rows {
                switch r.verdict {
                case .same: c.same += 1
                case .pattern: c.pattern += 1
                case .equivalent: c.equivalent += 1
                default: c.changes += 1
                }
            }
            return c
        }

        init(_ e: CallbackDocs.Entry, _ result: ScenarioResult, _ expectations: Expectations) {
            v2 = CallbackDocs.Entry(file: e.file, result: result)
            rule = expectations.rule(for: e.file.path).map { ($0.reason, $0.line) }
            if result.status != .passed, let f = result.failure { stop = (f.message, f.location.line) }
            var pinned: Set<Int> = []
            for step in e.file.steps {
                if case .expect(_, _, let at) = step.value, at != nil { pinned.insert(step.location.line) }
            }
            let apps = e.file.appNames
            let sdkLines = e.result.actual.compactMap { CallbackLine($0, apps: apps, pinned: pinned) }
            let v2Lines = result.actual.compactMap { CallbackLine($0, apps: apps, pinned: pinned) }
            let changed = Row.Verdict.changes(reason: rule?.reason, line: rule?.line)
            for s in sdkLines {
                guard let v = v2Lines.first(where: { $0.line == s.line }) else {
                    rows.append(Row(line: s.line, sdk: s.shown, v2: nil, verdict: stop == nil ? changed : .notReached))
                    continue
                }
                let verdict: Row.Verdict
                if v.shown == s.shown {
                    verdict = .same
                } else if s.at != v.at || s.app != v.app || stop?.line == s.line {
                    verdict = changed
                } else if let q = expectations.equivalences.first(where: {
                    $0.applies(expected: s.callback, actual: v.callback, previous: Self.previous(v, in: v2Lines))
                }) {
                    verdict = .equivalent(reason: q.reason, line: q.line)
                } else if expectations.equivalent(
                    expected: s.callback, actual: v.callback, previous: Self.previous(v, in: v2Lines)),
                    let m = expectations.masks.first(where: { $0.regex.matches(in: s.callback) })
                {
                    verdict = .equivalent(reason: m.reason, line: m.line)
                } else {
                    // The v2 run went past this line, so the scenario's own pattern took both.
                    verdict = .pattern
                }
                rows.append(Row(line: s.line, sdk: s.shown, v2: v.shown, verdict: verdict))
            }
            for v in v2Lines where !sdkLines.contains(where: { $0.line == v.line }) {
                rows.append(Row(line: v.line, sdk: nil, v2: v.shown, verdict: .v2Only))
            }
            rows.sort { $0.line < $1.line }
        }
    }

    /// The trace cut at each call and each user step: what each wire requested in between.
    struct Segment {
        var label: String
        var requests: [String] = []
    }

    static func segments(_ e: CallbackDocs.Entry) -> [Segment] {
        let apps = e.file.appNames
        var out = [Segment(label: "(before the first call)")]
        for event in e.result.trace {
            switch event.kind {
            case .call(let app, let call):
                out.append(Segment(label: (app == apps[0] ? "" : app) + "> " + call.description))
            case .user(let action):
                out.append(Segment(label: action))
            case .request(let from, let method, let url, let host):
                let who: String
                switch from {
                case .engine(let app): who = apps.count > 1 ? "engine (\(app)) " : ""
                case .browser: who = "browser "
                case .secondScreen: who = "second screen "
                case .client: who = "client "
                }
                let to = CallbackDocs.hostParticipant(host).label
                out[out.count - 1].requests.append(
                    who + method + " " + CallbackDocs.shortURL(url, withHost: host == nil) + " (" + to + ")")
            default: break
            }
        }
        if out[0].requests.isEmpty { out.removeFirst() }
        return out
    }

    // MARK: Pages

    static func cell(_ text: String) -> String {
        "`"
            + CallbackDocs.shortenStrings(text).replacingOccurrences(of: "|", with: "\\|")
            .replacingOccurrences(of: "`", with: "'") + "`"
    }

    /// A path regex of a `request` rule as a reader writes a path: `^\/api\/v2\/[^\/]+\/sessions$`
    /// becomes `/api/v2/{…}/sessions`.
    static func readable(_ pattern: String) -> String {
        var p = pattern
        if p.hasPrefix("^") { p.removeFirst() }
        if p.hasSuffix("$") { p.removeLast() }
        p = p.replacingOccurrences(of: "\\/", with: "/").replacingOccurrences(of: "[^/]+", with: "{…}")
        return p.replacingOccurrences(of: ".+", with: "…").replacingOccurrences(of: "|", with: "\\|")
    }

    /// A link from `docs/migration/` to a file of the repository given relative to its root.
    static func repoLink(_ path: String, line: Int? = nil, text: String? = nil) -> String {
        let shown = text ?? path + (line.map { ":\($0)" } ?? "")
        guard !path.hasPrefix("/") else { return "`\(shown)`" }
        return "[\(shown)](../../\(path)" + (line.map { "#L\($0)" } ?? "") + ")"
    }

    /// A line of the expectations file, as `wire-v2.expect:12` linked to it.
    static func cite(_ expectations: Expectations, _ line: Int) -> String {
        let name = expectations.path.split(separator: "/").last.map(String.init) ?? expectations.path
        return repoLink(expectations.path, line: line, text: "\(name):\(line)")
    }

    static func verdictText(_ v: Row.Verdict, _ expectations: Expectations) -> String {
        switch v {
        case .same: return "same"
        case .pattern: return "same to the scenario: its `<` line is a pattern both values match"
        case .equivalent(let reason, let line): return "equivalent: " + reason + " (" + cite(expectations, line) + ")"
        case .changes(let reason?, let line?): return "**changes**: " + reason + " (" + cite(expectations, line) + ")"
        case .changes: return "**changes**, and no line of the expectations file says why (`make suite-v2` fails)"
        case .notReached: return "not reached on v2"
        case .v2Only: return "**v2 only**"
        }
    }

    static func summary(_ c: Comparison, _ expectations: Expectations) -> String {
        let n = c.counts
        var out =
            "\(n.same) of \(c.rows.count) callbacks the same on both wires"
            + (n.pattern > 0 ? ", \(n.pattern) with other values the scenario's pattern accepts" : "")
            + (n.equivalent > 0 ? ", \(n.equivalent) equivalent by a rule of the expectations file" : "")
            + (n.changes > 0 ? ", \(n.changes) changed or not reached" : "") + "."
        if let stop = c.stop {
            out += " The v2 run stops at line \(stop.line): " + CallbackDocs.shortenStrings(stop.message) + "."
        }
        if let rule = c.rule {
            out +=
                " " + cite(expectations, rule.line) + " says: "
                + rule.reason + "."
        }
        return out
    }

    static func page(
        _ s: Subject, _ e: CallbackDocs.Entry, _ c: Comparison, _ expectations: Expectations,
        diagrams: CallbackDocs.DiagramFormat
    ) -> (text: String, files: [CallbackDocs.Page]) {
        var out = CallbackDocs.header
        out += s.kind == .call ? "# `\(s.name)` on both wires\n\n" : "# \(e.file.title): on both wires\n\n"
        out +=
            "The scenario \(repoLink(e.file.path, text: key(e))) (\"\(e.file.title)\"), run on the SDK's wire and on "
            + "REST API v2's (`passim run --wire v2`), "
            + (s.kind == .flow
                ? "a cookbook flow"
                : s.byTable
                    ? "chosen for `\(s.name)` by the table of MigrationDocs.swift"
                    : "chosen for `\(s.name)` by the rule (the index says which)")
            + ". Its page on the SDK's wire alone: [callbacks/\(key(e))](../callbacks/\(e.area).md#\(e.stem)). "
            + "Back to the [index](index.md).\n\n"
        if let d = e.file.description { out += d + "\n\n" }
        out += "**On REST API v2:** " + summary(c, expectations) + "\n\n"

        out += "## Requests, step by step\n\n"
        out +=
            "What each wire requested after each call and user step (method and path; the host in brackets)"
            + (s.kind == .call ? ", the steps calling `\(s.name)` in bold" : "")
            + ". The second table says which v2 request Adobe's migration FAQ maps each SDK request to "
            + "(the operations table, PassModel's `WireOperation`; a scenario's `seen SP OPERATION` names one).\n\n"
        out += "| step | SDK wire | REST API v2 |\n| --- | --- | --- |\n"
        let (a, b) = (segments(e), segments(c.v2))
        for i in 0..<max(a.count, b.count) {
            let label = i < a.count ? a[i].label : b[i].label
            let bold = s.kind == .call && label.contains("> \(s.name)(")
            let step = bold ? "**" + cell(label) + "**" : cell(label)
            func list(_ segs: [Segment]) -> String {
                guard i < segs.count else { return "(not reached)" }
                if segs[i].label != label { return "(another step: " + cell(segs[i].label) + ")" }
                return segs[i].requests.isEmpty ? "—" : segs[i].requests.map(cell).joined(separator: "<br>")
            }
            out += "| \(step) | \(list(a)) | \(list(b)) |\n"
        }

        // The operations of the SDK requests this run made (PassModel's WireOperation): Adobe's mapping, with its reason.
        var operations: [WireOperation] = []
        for event in e.result.trace {
            guard case .request(.engine(_), let method, let url, _) = event.kind, let path = URLParts(url)?.path,
                let operation = WireOperation.all.first(where: { $0.sdk.matches(method: method, path: path) }),
                !operations.contains(where: { $0.id == operation.id })
            else { continue }
            operations.append(operation)
        }
        if !operations.isEmpty {
            out += "\n| SDK request | operation | on REST API v2 | why |\n| --- | --- | --- | --- |\n"
            for operation in operations.sorted(by: { $0.id.rawValue < $1.id.rawValue }) {
                let v2 = operation.restV2.map { "`\($0.shown)`" } ?? "none"
                out += "| `\(operation.sdk.shown)` | `\(operation.id.rawValue)` | \(v2) | " + operation.why + " |\n"
            }
        }

        out += "\n## Callbacks\n\n"
        out +=
            "Each `<` line of the scenario: the callback each wire delivered there (long strings shortened). "
            + "\"same\": identical text; \"same to the scenario\": other values (a token, a code) that the "
            + "line's own pattern takes on both wires; \"equivalent\": a rule of the expectations file accepts "
            + "the difference; \"changes\": the run on v2 differs there, for the reason its `fail` line gives.\n\n"
        out += "| line | SDK wire | REST API v2 | on v2 |\n| --- | --- | --- | --- |\n"
        for r in c.rows {
            out +=
                "| \(repoLink(e.file.path, line: r.line, text: String(r.line))) | \(r.sdk.map(cell) ?? "—") | "
                + "\(r.v2.map(cell) ?? "—") | \(verdictText(r.verdict, expectations)) |\n"
        }
        if c.rows.isEmpty { out += "| — | (no `<` line) | | |\n" }

        let stem = String(s.page.dropLast(".md".count))
        let sdk = CallbackDocs.diagramBlock(
            CallbackDocs.sequence(e), title: e.file.title + " (SDK wire)", name: "diagrams/\(stem).sdk.svg", diagrams)
        let v2 = CallbackDocs.diagramBlock(
            CallbackDocs.sequence(c.v2), title: e.file.title + " (REST API v2)", name: "diagrams/\(stem).v2.svg",
            diagrams)
        out += "\n## Sequence diagrams\n\n### SDK wire\n\n" + sdk.markdown
        out += "\n### REST API v2\n\n"
        if let stop = c.stop {
            out += "The run stops at line \(stop.line) (" + CallbackDocs.shortenStrings(stop.message) + ").\n\n"
        }
        out += v2.markdown
        return (out, [sdk.file, v2.file].compactMap { $0 })
    }

    static func index(_ subjects: [Subject], _ comparisons: [String: Comparison], _ expectations: Expectations)
        -> String
    {
        var out = CallbackDocs.header + "# Migration to REST API v2, call by call\n\n"
        out +=
            "For each call of the AccessEnabler API and each cookbook flow, one scenario run on the SDK's wire and on "
            + "REST API v2's (`passim run --wire v2`), side by side: the requests of each wire step by step, the "
            + "callbacks that stay and those that change, with the reason \(repoLink(expectations.path)) gives, "
            + "and both sequence diagrams. Generated by `passim doc` from the two runs; "
            + "[MIGRATION.md](../MIGRATION.md) explains the differences by cause.\n\n"
        out +=
            "A call's scenario comes from the table `representatives` of Sources/Scenario/MigrationDocs.swift "
            + "(\"table\"); a call the table does not name gets \"by rule\" the scenario calling it that the "
            + "expectations file does not list as failing, then with the fewest steps, then the first by path. "
            + "The cookbook flows are the scenarios whose file name starts with `cookbook-`.\n\n"
        func status(_ e: CallbackDocs.Entry) -> String {
            guard let c = comparisons[e.file.path] else { return "" }
            let n = c.counts
            if c.stop == nil && n.changes == 0 && n.equivalent == 0 && n.pattern == 0 { return "identical" }
            var parts = ["\(n.same + n.pattern) same"]
            if n.equivalent > 0 { parts.append("\(n.equivalent) equivalent") }
            if n.changes > 0 { parts.append("\(n.changes) changed or not reached") }
            if let rule = c.rule {
                parts.append(cite(expectations, rule.line))
            }
            return parts.joined(separator: ", ")
        }
        out += "## SDK calls\n\n| call | scenario | chosen | callbacks on v2 |\n| --- | --- | --- | --- |\n"
        for s in subjects where s.kind == .call {
            guard let e = s.entry else {
                out += "| `\(s.name)` | no scenario calls it | | |\n"
                continue
            }
            out +=
                "| [`\(s.name)`](\(s.page)) | \(repoLink(e.file.path, text: key(e))) | "
                + (s.byTable ? "table" : "by rule") + " | \(status(e)) |\n"
        }
        out += "\n## Cookbook flows\n\n| flow | scenario | callbacks on v2 |\n| --- | --- | --- |\n"
        let flows = subjects.filter { $0.kind == .flow }
        for s in flows {
            guard let e = s.entry else { continue }
            out += "| [\(e.file.title)](\(s.page)) | \(repoLink(e.file.path, text: key(e))) | \(status(e)) |\n"
        }
        if flows.isEmpty { out += "| (no scenario named `cookbook-*`) | | |\n" }
        return out
    }
}
