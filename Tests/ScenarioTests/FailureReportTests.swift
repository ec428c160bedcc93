import Foundation
import ScenarioSyntax
import Testing

@testable import Scenario

/// What a failure says: both columns of the table cut alike with an ellipsis (whole with `-v`), the
/// requests a failing `seen` came nearest to.
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
        let report = run(
            """
            > setRequestor("REQ1")
            < setRequestorComplete(1)
            > getAuthentication()
            < displayProviderDialog([Comcast])
            > setSelectedProvider(Comcast)
            < sendTrackingData(TRACKING_GET_SELECTED_PROVIDER, ["Comcast", "mobile", "ios", "iOS"])
            < navigateToUrl(_)
            user login "alice" "secret"
            > handleExternalURL("adobepass://ios.app")
            < setAuthenticationStatus(1, "")
            < sendTrackingData(TRACKING_AUTHENTICATION, _)
            seen main authentication with requestor="REQ9"

            """)
        let message = try #require(report.results.first?.failure?.message)
        let nearest = try #require(message.components(separatedBy: "the nearest: ").last)
        let first = nearest.components(separatedBy: "; ")[0]
        #expect(first.contains("(requestor=\"REQ1\")"), "\(message)")
        #expect(nearest.components(separatedBy: "; ").count == RunState.nearestShown, "\(message)")
    }
}
