import PassModel
import PassXML

/// The machine-readable reports of `passim run`: JUnit XML (`--junit FILE`) and JSON lines (`--json`).
public enum SuiteReports {
    /// The area of a scenario: the folder it is in (`authn` for `Scenarios/authn/x.scenario`).
    public static func area(of path: String) -> String {
        let parts = path.split(separator: "/").map(String.init)
        return parts.count >= 2 ? parts[parts.count - 2] : "scenarios"
    }

    /// One `<testcase>` per scenario (classname: its area folder), the failure report in the
    /// failure's message and body; an unusable file is a testcase with an `<error>`.
    public static func junit(_ report: SuiteRun.Report) -> String {
        var cases = ""
        for outcome in report.outcomes {
            switch outcome {
            case .ran(let r):
                let head =
                    "    <testcase classname=\"\(xml(area(of: r.path)))\" name=\"\(xml(r.title))\" file=\"\(xml(r.path))\""
                if r.verdict == .passed {
                    cases += head + "/>\n"
                } else if r.verdict == .expectedFailure {
                    cases +=
                        head
                        + ">\n      <skipped message=\"expected failure: \(xml(r.expectedToFail ?? ""))\"/>\n    </testcase>\n"
                } else {
                    let text = r.failureReport(whole: true)  // a report for machines: no line cut
                    cases +=
                        head
                        + ">\n      <failure message=\"\(xml(text))\" type=\"failure\">\(xml(text, attribute: false))</failure>\n    </testcase>\n"
                }
            case .unusable(let path, let diagnostic):
                cases +=
                    "    <testcase classname=\"\(xml(area(of: path)))\" name=\"\(xml(path))\" file=\"\(xml(path))\">\n"
                cases +=
                    "      <error message=\"\(xml(diagnostic))\" type=\"unusable\">\(xml(diagnostic, attribute: false))</error>\n    </testcase>\n"
            case .excluded(let path, let reason):
                cases +=
                    "    <testcase classname=\"\(xml(area(of: path)))\" name=\"\(xml(path))\" file=\"\(xml(path))\">\n"
                cases += "      <skipped message=\"\(xml(reason))\"/>\n    </testcase>\n"
            case .notRun(let path):
                cases +=
                    "    <testcase classname=\"\(xml(area(of: path)))\" name=\"\(xml(path))\" file=\"\(xml(path))\">\n"
                cases += "      <skipped message=\"not run: --fail-fast stopped the run\"/>\n    </testcase>\n"
            case .skipped:
                break
            }
        }
        let tests = report.results.count + report.unusable
        let counts = "tests=\"\(tests)\" failures=\"\(report.failed)\" errors=\"\(report.unusable)\""
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"passim\" \(counts)>\n"
            + "  <testsuite name=\"passim run\" \(counts)>\n" + cases + "  </testsuite>\n</testsuites>\n"
    }

    /// One JSON object a line per scenario, `{file, title, status, steps, transcript}` (plus
    /// `failure` when it failed), then `{"summary": {...}}`.
    public static func jsonLines(_ report: SuiteRun.Report) -> String {
        var out = ""
        for outcome in report.outcomes {
            switch outcome {
            case .ran(let r):
                var entries = [
                    Value.Entry("file", .string(r.path)), Value.Entry("title", .string(r.title)),
                    Value.Entry("status", .string(r.status.rawValue)),
                    Value.Entry("verdict", .string(r.verdict.rawValue)),
                    Value.Entry("steps", .int(r.steps)),
                    Value.Entry("transcript", .string(r.transcript)),
                ]
                // With a port: how many messages it was sent after hello (0: never asked anything).
                if let asked = r.portAsked { entries.append(Value.Entry("portMessages", .int(asked))) }
                if let f = r.failure {
                    entries.append(
                        Value.Entry(
                            "failure",
                            .dict([
                                Value.Entry("line", .int(f.location.line)),
                                Value.Entry("column", .int(f.location.column)),
                                Value.Entry("message", .string(f.message)),
                                Value.Entry("report", .string(r.failureReport(whole: true))),
                            ])))
                }
                out += Value.dict(entries).jsonText + "\n"
            case .unusable(let path, let diagnostic):
                out +=
                    Value.dict([
                        Value.Entry("file", .string(path)), Value.Entry("title", .null),
                        Value.Entry("status", .string("unusable")),
                        Value.Entry("steps", .int(0)), Value.Entry("transcript", .string("")),
                        Value.Entry("error", .string(diagnostic)),
                    ]).jsonText + "\n"
            case .excluded(let path, let reason):
                out +=
                    Value.dict([
                        Value.Entry("file", .string(path)), Value.Entry("status", .string("skipped")),
                        Value.Entry("reason", .string(reason)),
                    ]).jsonText + "\n"
            case .notRun(let path):
                out +=
                    Value.dict([
                        Value.Entry("file", .string(path)), Value.Entry("status", .string("not-run")),
                        Value.Entry("reason", .string("--fail-fast stopped the run")),
                    ]).jsonText + "\n"
            case .skipped:
                break
            }
        }
        out +=
            Value.dict([
                Value.Entry(
                    "summary",
                    .dict(
                        [
                            Value.Entry("passed", .int(report.passed)), Value.Entry("failed", .int(report.failed)),
                            Value.Entry("unusable", .int(report.unusable)),
                            Value.Entry("notSelected", .int(report.skipped)),
                            Value.Entry("unimplemented", .int(report.unimplemented)),
                            Value.Entry("expectedFailures", .int(report.expectedFailures)),
                            Value.Entry("unexpectedPasses", .int(report.unexpectedPasses)),
                            Value.Entry("skipped", .int(report.excluded)),
                            Value.Entry("notRun", .int(report.notRun)),
                        ] + SuiteReports.portCounts(report) + [
                            Value.Entry("exitStatus", .int(Int(report.status.rawValue)))
                        ]))
            ]).jsonText + "\n"
        return out
    }

    /// With a port: the scenarios it took part in (sent a message after hello) and those that never
    /// asked it anything, their steps all the harness's own.
    static func portCounts(_ report: SuiteRun.Report) -> [Value.Entry] {
        guard let counts = report.portCounts else { return [] }
        return [
            Value.Entry("portTookPart", .int(counts.tookPart)), Value.Entry("portNeverAsked", .int(counts.neverAsked)),
        ]
    }

    /// XML text: the five entities, newlines kept in bodies and written `&#10;` in attributes, and
    /// characters XML 1.0 cannot carry (other controls) replaced by U+FFFD.
    static func xml(_ s: String, attribute: Bool = true) -> String {
        var out = ""
        for c in s.unicodeScalars {
            if let entity = SafeXML.entity(for: c) {
                out += entity
                continue
            }
            switch c {
            case "\n": out += attribute ? "&#10;" : "\n"
            case "\t": out += attribute ? "&#9;" : "\t"
            case "\r": out += "&#13;"
            default:
                if c.value < 0x20 || c.value == 0xFFFE || c.value == 0xFFFF {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(c)
                }
            }
        }
        return out
    }
}
