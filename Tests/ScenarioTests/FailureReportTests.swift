import Foundation
import Port
import ScenarioSyntax
import Testing

@testable import Scenario

/// What a failure says: both columns of the table cut alike with an ellipsis (whole with `-v`), the
/// requests a failing `seen` came nearest to, and why steps written together failed.
@Suite struct FailureReportTests {
    static let world = """
        scenario "t"
        sp main "https://sp.auth.test"
        mvpd Comcast "Xfinity" at main
        user alice "secret" at Comcast allow CNN
        requestor REQ1

        """

    func run(_ body: String, verbose: Bool = false) -> SuiteRun.Report {
        SuiteRun(options: .init(verbose: verbose)).run(paths: [temporaryScenario(Self.world + body)])
    }

    // MARK: The table

    /// A tracking line is longer than a cell: on either side it is cut at the same width, its last
    /// character `…`, and a note says so; `-v`, `--junit` and `--json` have it whole.
    @Test func bothColumnsAreCutAlikeAndWholeWithVerbose() throws {
        let body = """
            > setRequestor("REQ1")
            < setRequestorComplete(1)
            > getAuthentication()
            < displayProviderDialog([Comcast])
            > setSelectedProvider(nil)
            < setAuthenticationStatus(0, PROVIDER_NOT_SELECTED_ERROR)
            < sendTrackingData(TRACKING_AUTHENTICATION, ["true", nil, nil, nil, "mobile", "ios", "iOS"])

            """
        let report = run(body)
        #expect(report.failed == 1)
        let rows = report.output.split(separator: "\n").filter { $0.contains(" | ") }
        let width = ScenarioResult.cellWidth
        let failing = try #require(rows.first { $0.hasPrefix(">>> ") })
        let cells = failing.dropFirst(4).components(separatedBy: " | ")
        #expect(cells.count == 2)
        #expect(cells[0].count == width && cells[0].hasSuffix("…"), "\(failing)")
        #expect(cells[1].count == width && cells[1].hasSuffix("…"), "\(failing)")
        #expect(cells[0].hasPrefix("< sendTrackingData(TRACKING_AUTHENTICATION, [\"true\""))
        #expect(cells[1].hasPrefix("< sendTrackingData(TRACKING_AUTHENTICATION, [\"false\""))
        // Every row is as wide: 4 + cell + 3 + at most a cell.
        for row in rows { #expect(row.count <= 4 + width + 3 + width, "\(row)") }
        #expect(report.output.contains("(lines cut at \(width) characters: passim run -v prints them whole)\n"))

        let verbose = run(body, verbose: true)
        let whole =
            "< sendTrackingData(TRACKING_AUTHENTICATION, [\"false\", nil, nil, nil, \"mobile\", \"ios\", \"iOS\"])"
        let row = try #require(verbose.output.split(separator: "\n").first { $0.hasPrefix(">>> ") })
        #expect(row.hasSuffix(" | " + whole), "\(row)")
        #expect(!verbose.output.contains("lines cut at"))
        let result = try #require(report.results.first)
        #expect(result.failureReport(whole: true).contains(whole))
        #expect(SuiteReports.junit(report).contains("nil, &quot;mobile&quot;, &quot;ios&quot;, &quot;iOS&quot;])"))
    }

    /// A table whose lines all fit is not cut and carries no note.
    @Test func shortLinesAreNotCut() {
        let report = run("> setRequestor(\"REQ1\")\n< setRequestorComplete(0)\n")
        #expect(
            report.output.contains(">>> < setRequestorComplete(0) | < setRequestorComplete(1)\n"), "\(report.output)")
        #expect(!report.output.contains("…") && !report.output.contains("lines cut at"))
    }

    // MARK: `seen`

    /// A `seen` that fails names, nearest first, the requests the SP received since the previous one,
    /// with the fields it names; the actual column says the nearest as a `seen` line would.
    @Test func aFailingSeenListsTheNearestRequests() throws {
        let report = run(
            """
            > setRequestor("REQ1")
            < setRequestorComplete(1)
            seen main GET /config/REQ2 with requestor="REQ2"

            """)
        let result = try #require(report.results.first)
        let message = try #require(result.failure?.message)
        #expect(
            message.hasPrefix("main received no such request since the previous seen; of the "), "\(message)")
        #expect(message.contains("the nearest: GET /config/REQ1 (requestor: none)"), "\(message)")
        #expect(result.actual.last?.text == "seen main GET /config/REQ1 with requestor: none", "\(result.actual)")
        #expect(report.output.contains(">>> seen main GET /config/REQ2 with requestor=\"REQ2\""))

        // An operation line: its fields read where the wire puts them.
        let operation = try #require(
            run(
                """
                > setRequestor("REQ1")
                < setRequestorComplete(1)
                seen main configuration with requestor="REQ2"

                """
            ).results.first)
        #expect(
            operation.failure?.message.contains("the nearest: GET /config/REQ1 (requestor=\"REQ1\")") == true,
            "\(operation.failure?.message ?? "")")
        #expect(operation.actual.last?.text == "seen main GET /config/REQ1 with requestor=\"REQ1\"")

        // Nothing received: said so.
        let none = try #require(run("seen main GET /config/REQ1\n").results.first)
        #expect(none.failure?.message == "main received no such request since the previous seen; it received nothing")
        #expect(none.actual.last?.text == "seen main: no request since the previous seen")
    }

    /// Nearest first: the line's request with other fields, then the same method, then the fields that
    /// match; the earlier on a tie.
    @Test func nearnessRanksRequestThenMethodThenFields() throws {
        let report = run(loginSteps() + "\nseen main authentication with requestor=\"REQ9\"\n")
        let message = try #require(report.results.first?.failure?.message)
        let nearest = try #require(message.components(separatedBy: "the nearest: ").last)
        let first = nearest.components(separatedBy: "; ")[0]
        #expect(first.contains("(requestor=\"REQ1\")"), "\(message)")
        #expect(nearest.components(separatedBy: "; ").count == RunState.nearestShown, "\(message)")
    }

    // MARK: Steps written together

    /// Three calls written together ran at 0 ms: the selection came before its picker. The failure
    /// names the lines and the `<` lines to add, the callbacks time brings there.
    @Test func aSelectionBeforeItsPickerSaysWhatToAdd() throws {
        let body = """
            > setRequestor("REQ1")
            > getAuthentication()
            > setSelectedProvider(Comcast)
            < setRequestorComplete(1)
            user login "alice" "secret"

            """
        let report = run(body)
        let result = try #require(report.results.first)
        #expect(
            result.hint == """
                lines 6, 7 and 8 ran at the same instant (0ms): steps written together happen at once, each \
                before any answer to the one before came. A `<` line is where time runs; to let the answers \
                come first, add
                    after line 6: < setRequestorComplete(1)
                    after line 7: < displayProviderDialog([Comcast])
                """, "\(result.hint ?? "no hint")")
        #expect(report.output.contains("\nhint: lines 6, 7 and 8 ran at the same instant (0ms)"))

        // Recording says the same where the login finds no page.
        do {
            _ = try Recorder().record(text: Self.world + body, path: "t.scenario")
            Issue.record("recorded")
        } catch {
            #expect(
                "\(error)".hasPrefix(
                    "cannot record t.scenario:10:1: no login form to fill: browser closed\nhint: lines 6, 7 and 8"),
                "\(error)")
        }

        // With the lines the hint gives (and the stale `<` line moved), it passes.
        let fixed = run(loginSteps())
        #expect(fixed.status == .passed, "\(fixed.output)")
    }

    /// Only a simulated run gets a hint: with a port or on a live network the reference would be probed
    /// for another runtime's failure.
    @Test func onlyASimulatedRunIsProbed() throws {
        let text =
            Self.world + "> setRequestor(\"REQ1\")\n> getAuthentication()\n> setSelectedProvider(Comcast)\n"
            + "< setRequestorComplete(1)\n"
        let file = try ScenarioParser.parse(text, path: "t.scenario")
        let result = ScenarioRunner().run(file)
        let failure = try #require(result.failure)
        func hint(_ runtime: ScenarioRunner.Runtime) -> String? {
            SameInstant.hint(
                file, failedAt: failure.location, trace: result.trace, runtime: runtime, mismatch: result.mismatch)
        }
        #expect(hint(.simulated) != nil)
        #expect(hint(.live) == nil)
        #expect(hint(.port(PortCommand(inProcess: "shim") { PortShim() })) == nil)
    }

    /// A call made at the instant of the one before, whose callback is still queued, names it too.
    @Test func aCallOnAQueuedCallbackSaysWhatToAdd() throws {
        let result = try #require(
            run(
                """
                > setRequestor("REQ1")
                < setRequestorComplete(1)
                > getAuthentication()
                > setSelectedProvider(Comcast)

                """
            ).results.first)
        #expect(result.failure?.message == "unexpected callback displayProviderDialog([Comcast]) before this step")
        #expect(result.hint?.hasPrefix("lines 8 and 9 ran at the same instant (") == true, "\(result.hint ?? "")")
        #expect(result.hint?.hasSuffix("after line 8: < displayProviderDialog([Comcast])") == true)
    }

    /// No hint where calls at one instant are not the cause: a wrong `<` line after time ran, a race
    /// the file means (its `<` lines as they come), a single call.
    @Test func noHintWhereTheInstantIsNotTheCause() throws {
        for body in [
            "> setRequestor(\"REQ1\")\n< setRequestorComplete(0)\n",
            "> setRequestor(\"REQ1\")\n> getSelectedProvider()\n< selectedProvider(Comcast)\n< setRequestorComplete(1)\n",
        ] {
            let result = try #require(run(body).results.first)
            #expect(result.status == .failed)
            #expect(result.hint == nil, "\(body): \(result.hint ?? "")")
        }
    }

    /// A draft (no `<` line) fails at its first callback and says to record it.
    @Test func aDraftSaysToRecordIt() throws {
        let report = run("> setRequestor(\"REQ1\")\n")
        let result = try #require(report.results.first)
        #expect(result.hint?.hasPrefix("the file has no `<` line yet: `passim record ") == true, "\(result.hint ?? "")")
    }

    /// A draft whose `clock +0ms` lines held time still gets the lines to remove.
    @Test func aDraftsClockLineIsNamed() throws {
        do {
            _ = try Recorder().record(
                text: Self.world + """
                    > setRequestor("REQ1")
                    clock +0ms
                    > getAuthentication()
                    clock +0ms
                    > setSelectedProvider(Comcast)
                    user login "alice" "secret"

                    """, path: "t.scenario")
            Issue.record("recorded")
        } catch {
            #expect(
                "\(error)".hasSuffix(
                    "A `clock` line right after a call says how much time passes there: remove lines 7 and 9 to let the answers come first"
                ), "\(error)")
        }
    }
}
