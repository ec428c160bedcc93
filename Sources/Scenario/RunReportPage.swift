import ScenarioSyntax

/// `passim run --report-html DIR`: a run as one self-contained HTML page (`DIR/index.html`): the
/// counts, a row per scenario with its status and wall time, then each scenario with its failure
/// (the expected and actual transcripts side by side, the first difference marked) and its sequence
/// diagram (`SequenceSVG`, inline). No script, no style sheet, font or image fetched, and a
/// Content-Security-Policy that forbids them, so the page shows the same offline, from a CI
/// artifact or a mail. Wall times are the one thing that differs between two runs of the same
/// scenarios; `wallTimes: false` leaves them out (the tests compare pages byte for byte).
public enum RunReportPage {
    public static func html(_ report: SuiteRun.Report, title: String = "passim run report", wallTimes: Bool = true)
        -> String
    {
        // SuiteRun appends a result and its duration together: the same order.
        let seconds = report.durations.map(\.seconds)
        var rows = ""
        // Failures first, where a reader looks; then every other scenario that ran, in the run's order.
        var failures = ""
        var details = ""
        var ranIndex = 0
        for (n, outcome) in report.outcomes.enumerated() {
            let anchor = "s\(n + 1)"
            switch outcome {
            case .ran(let r):
                let time = ranIndex < seconds.count ? seconds[ranIndex] : nil
                ranIndex += 1
                let status = r.verdict.rawValue
                rows +=
                    "<tr class=\"scenario \(status)\"><td class=\"status\">\(label(r.verdict))</td>"
                    + "<td><a href=\"#\(anchor)\">\(esc(r.title))</a></td><td><code>\(esc(r.path))</code></td>"
                    + "<td class=\"num\">\(r.steps)</td>"
                    + (wallTimes ? "<td class=\"num\">\(time.map(formatSeconds) ?? "")</td>" : "") + "</tr>\n"
                if r.isFailure { failures += section(r, anchor: anchor) } else { details += section(r, anchor: anchor) }
            case .unusable(let path, let diagnostic):
                rows += row("unusable", "unusable", path, anchor: anchor, wallTimes: wallTimes)
                failures +=
                    "<section class=\"detail unusable\" id=\"\(anchor)\"><h3>\(esc(path))</h3>\n"
                    + "<p class=\"status\">unusable: the file could not be run</p>\n"
                    + "<pre class=\"diagnostic\">\(esc(diagnostic))</pre></section>\n"
            case .excluded(let path, let reason):
                rows += row("skipped", "skipped", path, anchor: nil, wallTimes: wallTimes, note: reason)
            case .notRun(let path):
                rows += row(
                    "not-run", "not run", path, anchor: nil, wallTimes: wallTimes, note: "--fail-fast stopped the run")
            case .skipped:
                break
            }
        }
        var counts = ["\(report.passed) passed", "\(report.failed) failed"]
        if report.unusable > 0 { counts.append("\(report.unusable) unusable") }
        if report.expectedFailures > 0 { counts.append("\(report.expectedFailures) expected failures") }
        if report.unexpectedPasses > 0 { counts.append("\(report.unexpectedPasses) unexpected passes") }
        if report.unimplemented > 0 { counts.append("\(report.unimplemented) unimplemented") }
        if report.excluded > 0 { counts.append("\(report.excluded) skipped") }
        if report.notRun > 0 { counts.append("\(report.notRun) not run") }
        if report.skipped > 0 {
            counts.append(
                "\(report.skipped) not selected" + (report.selectedBy.isEmpty ? "" : " by \(report.selectedBy)"))
        }
        let verdict = report.status == .passed ? "passed" : report.status == .failed ? "failed" : "unusable input"
        var h = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(esc(title)): \(verdict)</title>
            <style>
            body{font:15px/1.45 system-ui,sans-serif;margin:2em;color:#1d1f24}
            code,pre,.diff td{font:13px/1.35 ui-monospace,Menlo,Consolas,monospace}
            table{border-collapse:collapse}td,th{border:1px solid #ccd;padding:.25em .5em;text-align:left;vertical-align:top}
            .num{text-align:right}.status{font-weight:600}
            tr.passed .status,.detail.passed .status{color:#176f2c}
            tr.failed .status,tr.unimplemented .status,tr.unexpectedPass .status,tr.unusable .status,
            .detail.failed .status,.detail.unimplemented .status,.detail.unexpectedPass .status,.detail.unusable .status{color:#b00020}
            tr.expectedFailure .status,tr.skipped .status,tr.not-run .status{color:#666}
            section.detail{border-top:1px solid #ccd;margin-top:1.5em}
            .diff td{white-space:pre-wrap;word-break:break-all;max-width:45em}.diff tr.differs td{background:#fff3f3}
            .diff tr.first td{background:#ffd9d9;font-weight:600}
            details>div{overflow-x:auto}
            </style></head><body>
            <h1>\(esc(title))</h1>

            """
        h +=
            "<p id=\"summary\" class=\"\(report.status == .passed ? "passed" : "failed")\"><strong>\(verdict)</strong>: "
        h += esc(counts.joined(separator: ", ")) + "; \(report.steps) steps."
        if !failures.isEmpty { h += " <a href=\"#failures\">The failures</a>." }
        h += "</p>\n"
        if wallTimes {
            h +=
                "<p id=\"wall-time-note\">Wall time: the time each scenario took on the machine that ran it, measured "
                + "by the clock (simulated runs take virtual time, but running them takes real time). It varies from "
                + "run to run; everything else on this page is the same for the same scenarios and options.</p>\n"
        }
        h +=
            "<table id=\"results\"><thead><tr><th>status</th><th>scenario</th><th>file</th><th>steps</th>"
            + (wallTimes ? "<th>wall time</th>" : "") + "</tr></thead>\n<tbody>\n" + rows + "</tbody></table>\n"
        if !failures.isEmpty { h += "<h2 id=\"failures\">Failures</h2>\n" + failures }
        if !details.isEmpty { h += "<h2>" + (failures.isEmpty ? "Scenarios" : "Other scenarios") + "</h2>\n" + details }
        h += "</body></html>\n"
        return h
    }

    static func row(
        _ kind: String, _ text: String, _ path: String, anchor: String?, wallTimes: Bool, note: String? = nil
    ) -> String {
        let name = anchor.map { "<a href=\"#\($0)\">\(esc(path))</a>" } ?? esc(note ?? "")
        return "<tr class=\"scenario \(kind)\"><td class=\"status\">\(text)</td><td>\(name)</td>"
            + "<td><code>\(esc(path))</code></td><td class=\"num\"></td>" + (wallTimes ? "<td class=\"num\"></td>" : "")
            + "</tr>\n"
    }

    static func label(_ v: ScenarioResult.Verdict) -> String {
        switch v {
        case .passed: "passed"
        case .failed: "failed"
        case .unimplemented: "unimplemented"
        case .expectedFailure: "expected failure"
        case .unexpectedPass: "unexpected pass"
        }
    }

    /// One scenario: its status, its failure as a table (expected | actual, the failing line marked) and
    /// its sequence diagram, open when it failed.
    static func section(_ r: ScenarioResult, anchor: String) -> String {
        var s = "<section class=\"detail \(r.verdict.rawValue)\" id=\"\(anchor)\"><h3>\(esc(r.title))</h3>\n"
        s += "<p><span class=\"status\">\(label(r.verdict))</span> · <code>\(esc(r.path))</code> · \(r.steps) steps"
        if let reason = r.expectedToFail { s += " · expected to fail: \(esc(reason))" }
        s += "</p>\n"
        if let failure = r.failure {
            s +=
                "<div class=\"failure\"><p class=\"message\">FAIL \(esc("\(failure.location)")): \(esc(failure.message))</p>\n"
            s += "<table class=\"diff\"><thead><tr><th>line</th><th>expected</th><th>actual</th></tr></thead><tbody>\n"
            let first = r.actual.indices.last
            for i in 0..<max(r.expected.count, r.actual.count) {
                let e = i < r.expected.count ? r.expected[i].text : ""
                let a = i < r.actual.count ? r.actual[i].text : ""
                let line = i < r.expected.count ? String(r.expected[i].line) : ""
                let kind = i == first ? " class=\"first\"" : e != a ? " class=\"differs\"" : ""
                s += "<tr\(kind)><td class=\"num\">\(line)</td><td>\(esc(e))</td><td>\(esc(a))</td></tr>\n"
            }
            s += "</tbody></table>\n"
            if let hint = r.hint { s += "<p class=\"hint\">hint: \(esc(hint))</p>\n" }
            s += "<p>replay: <code>passim run \(esc(r.runtimeFlags + r.path))</code></p>\n"
            s +=
                "<details><summary>As text</summary><pre class=\"report\">\(esc(r.failureReport(whole: true)))</pre></details></div>\n"
        }
        if let diagram = diagram(r) {
            s += "<details class=\"diagram\"\(r.isFailure ? " open" : "")><summary>Sequence diagram</summary><div>\n"
            s += diagram + "</div></details>\n"
        }
        return s + "</section>\n"
    }

    /// The run's trace drawn, when the runtime recorded one (a port or a live network records none)
    /// and the file still parses.
    static func diagram(_ r: ScenarioResult) -> String? {
        guard !r.trace.isEmpty, let file = try? ScenarioParser.parse(fileAt: r.path) else { return nil }
        let entry = CallbackDocs.Entry(file: file, result: r)
        return SequenceSVG.render(
            CallbackDocs.sequence(entry, pins: r.status == .passed), title: "Sequence diagram: " + r.title)
    }

    static func formatSeconds(_ s: Double) -> String {
        let ms = Int((s * 1000).rounded())
        return ms < 1000 ? "\(ms) ms" : "\(ms / 1000).\(String(ms % 1000 / 10).leftPadded(2)) s"
    }

    /// HTML text and attribute values: `&`, `<`, `>`, `"`, `'`, and characters HTML cannot carry replaced.
    static func esc(_ s: String) -> String { SuiteReports.xml(s, attribute: false) }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
