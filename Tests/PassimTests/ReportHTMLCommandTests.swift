import Foundation
import Testing

/// `passim run --report-html DIR` and `passim doc --diagrams` from the command line (the binary
/// `swift build` makes, as CommandLineOptionsTests).
@Suite struct ReportHTMLCommandTests {
    static let failing = "Fixtures/reports/wrong-status.scenario"

    @Test func aFailingRunWritesItsPageAndExitsOne() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("passim-report-\(UUID())/new/report")
        defer { try? FileManager.default.removeItem(at: dir.deletingLastPathComponent().deletingLastPathComponent()) }
        let outcome = try CommandLineOptionsTests().passim(["run", "--report-html", dir.path, Self.failing])
        #expect(outcome.status == 1, "\(outcome.stderr)")
        let page = try String(contentsOf: dir.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(page.contains("<tr class=\"scenario failed\">"))
        #expect(page.contains("<table class=\"diff\">"))
        #expect(page.contains("<svg xmlns=\"http://www.w3.org/2000/svg\""))
    }

    @Test func anUnwritablePlaceIsOneMessageAndExitTwo() throws {
        for place in ["Package.swift", "/proc/passim-no/report"] {
            let outcome = try CommandLineOptionsTests().passim(["run", "--report-html", place, Self.failing])
            #expect(outcome.status == 2, "\(place)")
            #expect(outcome.stderr.hasPrefix("passim: cannot write the HTML report to \(place): "), "\(outcome.stderr)")
            #expect(outcome.stderr.split(separator: "\n").count == 1, "\(outcome.stderr)")
            #expect(outcome.stdout.isEmpty, "nothing runs: \(outcome.stdout)")
        }
    }

    @Test func docDrawsSVGByDefaultAndMermaidOnRequest() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("passim-doc-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenario = "Scenarios/logout/logout-with-token.scenario"
        let svg = try CommandLineOptionsTests().passim(["doc", scenario, "--out", dir.path + "/svg"])
        #expect(svg.status == 0, "\(svg.stderr)")
        #expect(svg.stdout == "wrote 3 pages and 1 diagram to \(dir.path)/svg\n")
        let image = try String(contentsOfFile: dir.path + "/svg/diagrams/logout/logout-with-token.svg", encoding: .utf8)
        #expect(image.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        let seeds = try String(contentsOfFile: dir.path + "/svg/seed-elements.md", encoding: .utf8)
        #expect(!seeds.contains("](../spec/README.md"), "no link that does not resolve there")
        let mermaid = try CommandLineOptionsTests().passim(
            ["doc", scenario, "--out", dir.path + "/mermaid", "--diagrams", "mermaid"])
        #expect(mermaid.status == 0)
        let page = try String(contentsOfFile: dir.path + "/mermaid/logout.md", encoding: .utf8)
        #expect(page.contains("```mermaid\nsequenceDiagram\n"))
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/mermaid/diagrams"))
        let bad = try CommandLineOptionsTests().passim(["doc", scenario, "--out", dir.path, "--diagrams", "png"])
        #expect(bad.status == 2)
    }
}
