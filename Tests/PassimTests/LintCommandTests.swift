import Foundation
import MockPass
import PassModel
import Testing

/// `passim lint` as a team's CI runs it: a report that fits on a screen, pages to publish, and no
/// pass for a journal that holds no client (the binary `swift build` makes, as CommandLineOptionsTests).
@Suite struct LintCommandTests {
    static let good: HTTPHeaders = [
        ("Authorization", "Bearer T1"), ("AP-Device-Identifier", "fingerprint ZGV2aWNl"),
        ("X-Device-Info", "eyJtb2RlbCI6IngifQ=="),
    ]

    /// 45 requests that break four rules: 20 polls a second apart without Authorization
    /// (`v2.polling-configuring`, `v2.authorization-header`), then 25 profile calls 300 ms apart,
    /// each answered 429 (`throttle.within-bucket`, `throttle.wait-after-429`).
    static var fourBroken: String {
        var lines = ""
        for i in 0..<20 {
            var headers = good
            headers.fields.removeFirst()
            var r = LoggedRequest(
                host: .sp("SP"), time: Instant(milliseconds: 1_767_225_600_000 + Int64(i) * 1000), method: "GET",
                path: "/api/v2/REQ/profiles/code/ABC", parameters: [], headers: headers, status: 200)
            r.profiles = []
            lines += r.jsonLine
        }
        for i in 0..<25 {
            lines +=
                LoggedRequest(
                    host: .sp("SP"), time: Instant(milliseconds: 1_767_225_700_000 + Int64(i) * 300), method: "GET",
                    path: "/api/v2/REQ/profiles", parameters: [], headers: good, status: 429
                ).jsonLine
        }
        return lines
    }

    func lint(_ journal: String, _ options: [String] = []) throws -> CommandLineOptionsTests.Outcome {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("passim-lint-\(UUID()).jsonl")
        try journal.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        return try CommandLineOptionsTests().passim(["lint"] + options + [file.path])
    }

    @Test func fourBrokenRulesFitOnAScreenAndTheLastLineNamesThem() throws {
        let outcome = try lint(Self.fourBroken)
        #expect(outcome.status == 1)
        let lines = outcome.stdout.split(separator: "\n")
        #expect(lines.count < 40, "\(outcome.stdout)")
        let broken = [
            "v2.polling-configuring", "v2.authorization-header", "throttle.wait-after-429", "throttle.within-bucket",
        ]
        for id in broken {
            #expect(lines.last?.contains(id) == true, "\(lines.last ?? "")")
            // One block per rule, with its count.
            #expect(lines.filter { $0.contains(": \(id), broken ") }.count == 1, "\(id)")
        }
        #expect(outcome.stdout.contains("v2.polling-configuring, broken 19 times"))
        // The first and the last violation, with their requests.
        #expect(outcome.stdout.contains("  first: ") && outcome.stdout.contains("  last: "))
        #expect(outcome.stdout.contains("#45 @"))
    }

    @Test func pagesToPublishLinkNowhereAndLoadNothing() throws {
        let md = try lint(Self.fourBroken, ["--format", "md", "--title", "Report card: a TV app"])
        #expect(md.status == 1)
        #expect(md.stdout.hasPrefix("# Report card: a TV app\n"))
        #expect(md.stdout.contains("**v2.polling-configuring**"))
        #expect(!md.stdout.contains("]("))
        let html = try lint(Self.fourBroken, ["--format", "html", "--about", "<b>from CI</b>"])
        #expect(html.stdout.hasPrefix("<!DOCTYPE html>"))
        #expect(html.stdout.contains("&lt;b&gt;from CI&lt;/b&gt;"))
        for loads in ["<script", "src=", "href=", "url(", "@import"] {
            #expect(!html.stdout.contains(loads), "\(loads)")
        }
        let junit = try lint(Self.fourBroken, ["--format", "junit"])
        #expect(junit.stdout.contains("failures=\"4\""))
    }

    /// A client pointed at the wrong URL leaves an empty journal, or one of requests no rule judges:
    /// neither passes.
    @Test(arguments: [
        ("", "the journal is empty"),
        (
            LoggedRequest(
                host: .idp("M"), time: Instant(milliseconds: 5), method: "GET", path: "/login", parameters: [],
                headers: [], status: 200
            ).jsonLine, "no rule applies to any of its 1 requests"
        ),
    ])
    func aJournalOfNoClientIsRefused(_ journal: String, _ says: String) throws {
        let outcome = try lint(journal)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains(says), "\(outcome.stderr)")
        #expect(outcome.stderr.split(separator: "\n").count == 1)
    }
}
