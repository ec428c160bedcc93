/// A report as a page to publish: Markdown (a client's report card, docs/clients/) or a
/// self-contained HTML page (no script, no style sheet or font fetched, nothing to load). Both list
/// the requests of each violation by sequence number, method, path and answer, without their times,
/// so a journal of `passim serve` (on the wall clock) gives the same page on every run. No link
/// leaves the page, so it reads the same wherever it is written.
extension LintReport {
    /// `#SEQ METHOD PATH -> STATUS CODE`.
    static func request(_ e: ClassifiedRequest) -> String {
        "#\(e.sequence) \(e.method) \(e.path)" + (e.status.map { " -> \($0)" } ?? "")
            + (e.errorCode.map { " " + $0 } ?? "")
    }

    /// `judged on N requests`, the reason it is not applicable, or the broken count.
    static func why(_ r: RuleResult) -> String {
        switch r.verdict {
        case .passed(let n): "judged on \(n) request" + (n == 1 ? "" : "s")
        case .notApplicable(let why): why
        case .broken(let vs):
            "broken \(vs.map(\.represents).reduce(0, +)) time" + (vs.map(\.represents).reduce(0, +) == 1 ? "" : "s")
        }
    }

    /// The counts line both pages open with.
    var counts: String {
        let passed = results.filter { if case .passed = $0.verdict { true } else { false } }.count
        return
            "\(entries) requests; \(passed) rules passed, \(broken.count) broken, \(results.count - passed - broken.count) not applicable."
    }

    /// Markdown: `title` as the heading, `about` under it (where the journal comes from), the broken
    /// rules with their first and last violation, then every rule in a table.
    public func markdown(title: String = "passim lint report", about: String? = nil) -> String {
        func cell(_ s: String) -> String { s.replacingAll("|", with: "/").replacingAll("\n", with: " ") }
        var md = ["# \(title)", ""]
        if let about { md += [about, ""] }
        if let emptyReason { md += ["**Not a client's journal**: \(emptyReason).", ""] }
        md += [counts, ""]
        if !broken.isEmpty {
            md += ["## Findings", "", "Rules this client breaks:", ""]
            for r in broken {
                guard case .broken(let vs) = r.verdict else { continue }
                md.append("- **\(r.rule.id)** (\(r.rule.severity.rawValue), \(LintReport.why(r)); \(r.rule.citation))")
                let shown = vs.filter { !$0.evidence.isEmpty }
                for v in shown.count > 1 ? [shown[0], shown[shown.count - 1]] : shown {
                    md.append(
                        "  - \(v.message): "
                            + v.evidence.prefix(LintReport.shownRequests).map { "`\(LintReport.request($0))`" }
                            .joined(separator: ", "))
                }
            }
            md.append("")
        }
        md += ["## Every rule", "", "| rule | severity | verdict | why |", "| --- | --- | --- | --- |"]
        for r in results {
            md.append(
                "| `\(r.rule.id)` | \(r.rule.severity.rawValue) | \(r.verdict.name) | \(cell(LintReport.why(r))) |")
        }
        return md.joined(separator: "\n") + "\n"
    }

    /// A self-contained HTML page of the same content as `markdown`.
    public func html(title: String = "passim lint report", about: String? = nil) -> String {
        let esc = LintReport.escaped
        var h = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
            <title>\(esc(title))</title>
            <style>body{font:15px/1.4 system-ui,sans-serif;margin:2em;max-width:70em}code{font-size:13px}
            table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}
            .broken{color:#a00}.passed{color:#070}.na{color:#666}</style></head><body>

            """
        h += "<h1>\(esc(title))</h1>\n"
        if let about { h += "<p>\(esc(about))</p>\n" }
        if let emptyReason {
            h += "<p class=\"broken\"><strong>Not a client's journal</strong>: \(esc(emptyReason)).</p>\n"
        }
        h += "<p id=\"counts\">\(esc(counts))</p>\n"
        if !broken.isEmpty {
            h += "<h2>Findings</h2>\n<ul id=\"findings\">\n"
            for r in broken {
                guard case .broken(let vs) = r.verdict else { continue }
                h += "<li><strong class=\"broken\">\(esc(r.rule.id))</strong> (\(esc(r.rule.severity.rawValue)), "
                h += "\(esc(LintReport.why(r))); \(esc(r.rule.citation)))<ul>\n"
                let shown = vs.filter { !$0.evidence.isEmpty }
                for v in shown.count > 1 ? [shown[0], shown[shown.count - 1]] : shown {
                    let requests = v.evidence.prefix(LintReport.shownRequests).map {
                        "<code>\(esc(LintReport.request($0)))</code>"
                    }
                    h += "<li>\(esc(v.message)): \(requests.joined(separator: ", "))</li>\n"
                }
                h += "</ul></li>\n"
            }
            h += "</ul>\n"
        }
        h +=
            "<h2>Every rule</h2>\n<table id=\"rules\"><tr><th>rule</th><th>severity</th><th>verdict</th><th>why</th></tr>\n"
        for r in results {
            let kind =
                switch r.verdict {
                case .passed: "passed"
                case .broken: "broken"
                case .notApplicable: "na"
                }
            h += "<tr><td><code>\(esc(r.rule.id))</code></td><td>\(esc(r.rule.severity.rawValue))</td>"
            h += "<td class=\"\(kind)\">\(esc(r.verdict.name))</td><td>\(esc(LintReport.why(r)))</td></tr>\n"
        }
        h += "</table>\n</body></html>\n"
        return h
    }
}

extension String {
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for ch in self { if ch == target { out += replacement } else { out.append(ch) } }
        return out
    }
}
