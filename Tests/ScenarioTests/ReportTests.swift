import Foundation
import PassModel
import ScenarioSyntax
import Testing
@testable import Scenario

/// `passim run`'s selection, parallelism and reports, and `passim doc`.
@Suite struct ReportTests {
    static let suite = packageRoot + "/Scenarios"

    static let failing = temporaryScenario(
        SuiteRunTests.world + "> setRequestor(\"REQ1\")\n< setRequestorComplete(0)\n", name: "fails")

    @Test func shardsPartitionTheSuiteStably() throws {
        let all = try SuiteLoader.files(in: [Self.suite])
        let parts = try (1...3).map { try Shard(index: $0, count: 3).select(all) }
        #expect(parts.map(\.count).reduce(0, +) == all.count)
        #expect(Set(parts.flatMap { $0 }) == Set(all))
        #expect(parts.map(\.count).max()! - parts.map(\.count).min()! <= 1)
        #expect(try Shard(parsing: "2/3").select(all) == parts[1], "the same shard twice is the same files")
        for bad in ["3/2", "0/2", "1/0", "x", "1/2/3", "-1/2"] {
            #expect(throws: Shard.ParseError.self, "\(bad)") { try Shard(parsing: bad) }
        }
    }

    @Test func tagsSelectScenariosWithAnyOfThem() {
        let report = SuiteRun(options: .init(tags: ["tvos", "preauth"])).run(paths: [Self.suite])
        #expect(report.status == .passed)
        #expect(report.results.count > 5)
        #expect(report.skipped > 50)
        #expect(report.output.hasSuffix("not selected by --tag\n"))
        for r in report.results {
            let tags = (try? ScenarioParser.parse(fileAt: r.path).tags) ?? []
            #expect(tags.contains("tvos") || tags.contains("preauth"), "\(r.path)")
        }
    }

    @Test func jobsGiveTheSameOutputAsOneJob() {
        let one = SuiteRun(options: .init(verbose: true, jobs: 1)).run(paths: [Self.suite, Self.failing])
        let two = SuiteRun(options: .init(verbose: true, jobs: 2)).run(paths: [Self.suite, Self.failing])
        let four = SuiteRun(options: .init(verbose: true, jobs: 4)).run(paths: [Self.suite, Self.failing])
        #expect(one.status == .failed)
        #expect(one.output == two.output)
        #expect(one.output == four.output)
        #expect(SuiteReports.jsonLines(one) == SuiteReports.jsonLines(two))
    }

    @Test func colourOnlyWhenAsked() {
        let plain = SuiteRun().run(paths: [Self.failing])
        #expect(!plain.output.contains("\u{1B}["))
        let colour = SuiteRun(options: .init(color: true)).run(paths: [Self.failing])
        #expect(colour.output.contains("\u{1B}[31mFAIL\u{1B}[0m"))
    }

    @Test func junitHasOneTestcasePerScenarioWithTheFailureReport() {
        let unusable = temporaryScenario("scenario \"u\"\nbogus\n", name: "unusable")
        let report = SuiteRun().run(paths: [packageRoot + "/Scenarios/authn", Self.failing, unusable])
        let xml = SuiteReports.junit(report)
        #expect(xml.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites"))
        #expect(xml.components(separatedBy: "<testcase ").count - 1 == report.results.count + 1)
        #expect(xml.contains("<testcase classname=\"authn\" name=\"classic login through the SAML IdP\""))
        #expect(xml.contains("failures=\"1\" errors=\"1\""))
        #expect(
            xml.contains(
                "<failure message=\"FAIL \(Self.failing):6:1: expected setRequestorComplete(0), got setRequestorComplete(1)&#10;"
            ))
        #expect(xml.contains("&gt;&gt;&gt; &lt; setRequestorComplete(0)"))
        #expect(xml.contains("<error message=\"\(unusable):2:1: unknown statement"))
        #expect(SuiteReports.xml("a<&>\"'\u{1}\n", attribute: true) == "a&lt;&amp;&gt;&quot;&apos;\u{FFFD}&#10;")
    }

    @Test func jsonLinesAreOneObjectPerScenarioThenASummary() throws {
        let report = SuiteRun().run(paths: [packageRoot + "/Scenarios/logout", Self.failing])
        let lines = SuiteReports.jsonLines(report).split(separator: "\n").map(String.init)
        #expect(lines.count == report.results.count + 1)
        let first = try Value(jsonText: lines[0])
        #expect(first["file"]?.stringValue?.hasSuffix(".scenario") == true)
        #expect(first["status"] == .string("passed"))
        #expect((first["steps"]?.intValue ?? 0) > 0)
        #expect(first["transcript"]?.stringValue == report.results[0].transcript)
        #expect(first["title"]?.stringValue == report.results[0].title)
        let failed = try Value(jsonText: lines[lines.count - 2])
        #expect(failed["status"] == .string("failed"))
        #expect(failed["failure"]?["line"] == .int(6))
        let summary = try Value(jsonText: lines[lines.count - 1])
        #expect(summary["summary"]?["failed"] == .int(1))
        #expect(summary["summary"]?["exitStatus"] == .int(1))
    }

    @Test func docsAreDeterministicAndDrawEveryParty() throws {
        let a = CallbackDocs.generate(paths: [Self.suite], jobs: 2)
        let b = CallbackDocs.generate(paths: [Self.suite], jobs: 1)
        #expect(a.status == .passed, "\(a.errors)")
        #expect(a.pages == b.pages)
        let names = a.pages.map(\.name)
        #expect(
            names.contains("authn.md") && names.contains("tvos.md")
                && names.suffix(2) == ["index.md", "seed-elements.md"])
        let authn = try #require(a.pages.first { $0.name == "authn.md" }).text
        #expect(authn.contains("## classic login through the SAML IdP\n\nA classic login: dialog, pick"))
        #expect(
            authn.contains(
                "```mermaid\nsequenceDiagram\n    participant App\n    participant Engine\n    participant Browser as Browser/User\n    participant SP_main as SP main\n    participant IdP_Comcast as IdP Comcast\n"
            ))
        #expect(
            authn.contains(
                "    App->>Engine: setRequestor(\"REQ1\")\n    Engine->>SP_main: GET /config/REQ1\n    SP_main-->>Engine: 200\n    Engine-->>App: setRequestorComplete(1)\n"
            ))
        #expect(authn.contains("    Note over Browser: user login \"alice\" \"secret\"\n"))
        #expect(authn.contains("Browser->>IdP_Comcast: POST /"))
        #expect(!authn.contains("?mso_id"), "URLs are method and path")
        let index = try #require(a.pages.first { $0.name == "index.md" }).text
        #expect(index.contains("## getAuthentication\n"))
        #expect(index.contains("| displayProviderDialog | "))
        #expect(index.contains("[authn/classic-login](authn.md#classic-login)"))
    }

    @Test func docTextIsSafeForMermaid() {
        #expect(CallbackDocs.message("a; b # c") == "a#59; b #35; c")
        #expect(
            CallbackDocs.shortenStrings(#"setToken("PHNob3J0QXV0aG9yaXphdGlvblRva2Vu", "CNN")"#)
                == #"setToken("PHNob3J0QXV0…", "CNN")"#)
        #expect(
            CallbackDocs.shortenStrings(#"navigateToUrl("https://sp.test/a/b?x=1&y=\"2\"")"#)
                == #"navigateToUrl("https://sp.test/a/b?…")"#)
    }
}

/// The seed-element table of `passim doc`.
@Suite struct SeedElementTests {
    func file(_ body: String, header: String = "") throws -> ScenarioFile {
        try ScenarioParser.parse(
            "scenario \"t\"\n\(header)sp main \"https://sp.test\"\nrequestor REQ1\n" + body,
            path: "Scenarios/x/t.scenario")
    }

    func matched(_ f: ScenarioFile) -> [String] {
        SeedElements.elements.filter { $0.matches(f) }.map {
            $0.element + ($0.variant.isEmpty ? "" : " / " + $0.variant)
        }
    }

    @Test func everyPatternCompiles() throws {
        // A pattern that does not compile matches nothing: a file that shows every element would not show it.
        let source = try String(contentsOfFile: packageRoot + "/Sources/Scenario/SeedElements.swift", encoding: .utf8)
        let patterns = source.matches(of: /(?:call|callback)\(#"(.*?)"#\)/).map { String($0.1) }
        #expect(patterns.count >= 60)
        for p in patterns { #expect((try? Regex(p)) != nil, "\(p)") }
    }

    @Test func overloadsAreToldApart() throws {
        let signedWithSPs = try file("> setRequestor(\"REQ1\", signedRequestorID: \"x\", serviceProviders: [main])\n")
        // The header's default device is mobile.
        #expect(
            matched(signedWithSPs) == ["setRequestor:setSignedRequestorId:serviceProviders:", "device type / mobile"])
        let tvos = try file("app> setRequestor(\"REQ1\", signedRequestorID: \"x\", secret: \"s\", publicKey: \"p\")\n")
        #expect(matched(tvos) == ["setRequestor:setSignedRequestorId:secret:publicKey:", "device type / mobile"])
        let both = try file("> getAuthentication(forceAuthn: false, withData: {a: \"b\"}, filter: [main])\n")
        #expect(matched(both).contains("getAuthentication:withData:andFilter:"))
        #expect(!matched(both).contains("getAuthentication:filter:"))
    }

    @Test func headersAndCallbacksCount() throws {
        let f = try file(
            "> setRequestor(\"REQ1\")\n< setRequestorComplete(0) at 30s\n", header: "platform tvos\ndevice computer\n")
        let m = matched(f)
        #expect(m.contains("setRequestorComplete: / failure"))
        #expect(m.contains("device type / computer"))
        #expect(!m.contains("device type / mobile"))
    }

    @Test func thePageListsGaps() {
        let page = SeedElements.page([])
        #expect(page.text.contains("\(SeedElements.elements.count) elements, 0 exercised by at least one scenario"))
        #expect(
            page.text.contains(
                "| `api#setReq_tvos` | `setRequestor:setSignedRequestorId:secret:publicKey:` |  | 0 | **none** |"))
    }
}
