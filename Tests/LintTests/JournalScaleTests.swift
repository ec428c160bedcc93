import Foundation
import Testing
@testable import Lint

/// The rules are linear in the journal and hold what they report in bounds, whatever one device
/// does: `Fixtures/hostile/journals/` (its README).
@Suite struct JournalScaleTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/hostile/journals").path

    /// The template repeated `times` times, one millisecond a line, each repetition with its own code.
    static func journal(_ template: String, times: Int) -> String {
        var out = ""
        var t: Int64 = 1_767_225_600_000
        for n in 0..<times {
            for line in template.split(separator: "\n") {
                out +=
                    line.replacingOccurrences(of: "{CODE}", with: "C\(n)")
                    .replacingOccurrences(of: "{T}", with: String(t)) + "\n"
                t += 1
            }
        }
        return out
    }

    /// 10,000 sessions of one device within a minute, each polled and followed by a refused
    /// authorization: judged in well under 10 s (about 1 s in a debug build), where the session-storm
    /// window filtered whole on every session and the refusal runs copied on every call took minutes
    /// (10 s in a release build).
    @Test func oneDevicesSessionsAreJudgedInLinearTime() throws {
        let template = try String(
            contentsOfFile: Self.folder + "/one-device-session-cycle.jsonl", encoding: .utf8)
        let journal = try Journal.parse(Self.journal(template, times: 10_000))
        #expect(journal.entries.count == 30_000)
        let clock = ContinuousClock()
        let start = clock.now
        let report = LintReport(journal)
        let took = clock.now - start
        #expect(took < .seconds(10), "judged in \(took)")
        // What it finds is what a short journal of the same client shows.
        guard case .broken(let storms) = report.verdict("live.session-storm") else {
            Issue.record("no session storm")
            return
        }
        #expect(storms.count == 1)
        #expect(storms.first?.evidence.count == 4)
        guard case .broken(let loops) = report.verdict("live.refusal-loop") else {
            Issue.record("no refusal loop")
            return
        }
        #expect(loops.first?.evidence.count == 5)
    }

    /// A rule reports its first 100 violations and counts the rest in one more line, so a journal of
    /// a million bad calls makes a report of a hundred.
    @Test func aRuleShowsAHundredViolationsAndCountsTheRest() throws {
        let line =
            #"{"host":"sp:main","time":{T},"method":"GET","path":"/api/v2/REQ1/configuration","parameters":[],"headers":[{"name":"AP-Device-Identifier","value":"fingerprint eA=="}],"status":200}"#
        let journal = try Journal.parse(Self.journal(line, times: 250))
        guard case .broken(let violations) = Rules.rule("v2.authorization-header")?.check(journal) else {
            Issue.record("the rule is not broken")
            return
        }
        // The first hundred, a line counting 149 left out, and the last: 250 in all, the last shown.
        #expect(violations.count == Findings.kept + 2)
        #expect(violations.map(\.represents).reduce(0, +) == 250)
        #expect(violations[Findings.kept].message.contains("and 149 more like these") == true)
        #expect(violations[Findings.kept].evidence.isEmpty)
        #expect(violations.last?.evidence.first?.sequence == 250)
        let text = LintReport(journal).text
        #expect(text.contains("broken 250 times"))
        #expect(text.contains("#250 "))
    }

    /// A report in progress gives up when asked, between two rules.
    @Test func aReportStopsWhenAsked() throws {
        let template = try String(
            contentsOfFile: Self.folder + "/one-device-session-cycle.jsonl", encoding: .utf8)
        let journal = try Journal.parse(Self.journal(template, times: 10))
        var asked = 0
        func afterThreeRules() -> Bool {
            asked += 1
            return asked > 3
        }
        #expect(LintReport(journal, stopping: afterThreeRules) == nil)
        #expect(asked == 4)
        #expect(LintReport(journal, stopping: { false }) != nil)
    }
}
