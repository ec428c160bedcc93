import Foundation
import Testing
@testable import Scenario

/// The pages people look at: `passim run --report-html` and the SVG sequence diagrams of `passim doc`.
/// (scripts/check-pages.py opens them in headless Chromium; these check their text.)
@Suite struct ReportPageTests {
    static let logout = packageRoot + "/Scenarios/logout"

    /// Every reference that could leave the page: a URL with a scheme inside a tag (an attribute:
    /// `href`, `src`, …; text that mentions a URL is content, escaped, and fetches nothing), other
    /// than the SVG namespace (a name, never fetched), and any CSS `url(` or `@import`.
    static func externalReferences(_ page: String) -> [String] {
        var found: [String] = []
        var tag = ""
        var inTag = false
        for c in page {
            if c == "<" {
                inTag = true
                tag = ""
            } else if c == ">", inTag {
                inTag = false
                let attributes = tag.replacingOccurrences(of: "xmlns=\"http://www.w3.org/2000/svg\"", with: "")
                if attributes.contains("://") || attributes.contains("src=") { found.append("<" + tag + ">") }
            } else if inTag {
                tag.append(c)
            }
        }
        for css in ["url(", "@import"] where page.contains(css) { found.append(css) }
        return found
    }

    @Test func runReportHasARowPerScenarioTheFailuresDiffAndDiagrams() {
        let report = SuiteRun().run(paths: [Self.logout, ReportTests.failing])
        let page = RunReportPage.html(report)
        #expect(page.hasPrefix("<!DOCTYPE html>\n"))
        #expect(page.contains("content=\"default-src 'none'; style-src 'unsafe-inline'\""), "nothing may load")
        #expect(!page.contains("<script"), "no script")
        #expect(page.components(separatedBy: "<tr class=\"scenario ").count - 1 == report.results.count)
        #expect(page.components(separatedBy: "<tr class=\"scenario failed\">").count - 1 == 1)
        // The failure's diff: the expected and actual lines side by side, the failing one marked.
        #expect(
            page.contains(
                "<tr class=\"first\"><td class=\"num\">6</td><td>&lt; setRequestorComplete(0)</td><td>&lt; setRequestorComplete(1)</td></tr>"
            ))
        #expect(page.contains("expected setRequestorComplete(0), got setRequestorComplete(1)"))
        #expect(page.contains("<details class=\"diagram\" open><summary>Sequence diagram</summary>"))
        // Every scenario that ran has its diagram, inline.
        #expect(page.components(separatedBy: "<svg xmlns=").count - 1 == report.results.count)
        #expect(page.contains("id=\"wall-time-note\""))
        #expect(Self.externalReferences(page).isEmpty, "\(Self.externalReferences(page))")
    }

    @Test func runReportWithoutWallTimesIsTheSameOnEveryRun() {
        let a = RunReportPage.html(SuiteRun(options: .init(jobs: 2)).run(paths: [Self.logout]), wallTimes: false)
        let b = RunReportPage.html(SuiteRun().run(paths: [Self.logout]), wallTimes: false)
        #expect(a == b)
        #expect(!a.contains("wall time"))
        let timed = RunReportPage.html(SuiteRun().run(paths: [Self.logout]))
        #expect(timed.contains("<th>wall time</th>"))
    }

    @Test func runReportEscapesWhatScenariosSay() throws {
        let hostile = temporaryScenario(
            SuiteRunTests.world.replacingOccurrences(
                of: "scenario \"t\"", with: "scenario \"<script>alert('x')</script> & more\"")
                + "> setRequestor(\"REQ1\")\n< setRequestorComplete(0)\n",
            name: "hostile")
        let unusable = temporaryScenario("scenario \"u\"\n<img src=x>\n", name: "unusable-html")
        let page = RunReportPage.html(SuiteRun().run(paths: [hostile, unusable]))
        #expect(!page.contains("<script>"))
        #expect(!page.contains("<img"))
        #expect(page.contains("&lt;script&gt;alert(&apos;x&apos;)&lt;/script&gt; &amp; more"))
        #expect(page.contains("<tr class=\"scenario unusable\">"))
    }

    @Test func svgIsEscapedDeterministicAndHasNoIDs() {
        let d = SequenceDiagram(
            participants: [.init(id: "App", label: "App"), .init(id: "Engine", label: "Engine <&>")],
            items: [
                .message(from: "App", to: "Engine", arrow: .send, text: "call(\"a<b\" & 'c')"),
                .message(from: "Engine", to: "App", arrow: .reply, text: "back\u{1}"),
                .message(from: "Engine", to: "App", arrow: .lost, text: "timed out"),
                .note(over: ["App", "Engine"], text: "5s later", kind: .time),
                .note(over: ["Engine"], text: "user </text><script>", kind: .user),
            ])
        let svg = SequenceSVG.render(d, title: "a \"title\" <x>")
        #expect(svg == SequenceSVG.render(d, title: "a \"title\" <x>"))
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" "))
        #expect(svg.contains("<title>a &quot;title&quot; &lt;x&gt;</title>"))
        #expect(svg.contains(">call(&quot;a&lt;b&quot; &amp; &apos;c&apos;)</text>"))
        #expect(svg.contains(">Engine &lt;&amp;&gt;</text>"))
        #expect(svg.contains(">back\u{FFFD}</text>"), "a control character XML cannot carry")
        #expect(svg.contains(">user &lt;/text&gt;&lt;script&gt;</text>"))
        #expect(!svg.contains("<script"))
        #expect(!svg.contains(" id=") && !svg.contains("<style"), "inline diagrams in one page must not clash")
        #expect(svg.contains("stroke=\"#b00\""), "the lost message's cross")
        #expect(Self.externalReferences(svg).isEmpty)
    }

    @Test func svgColumnsLeaveRoomForEveryLabel() {
        let long = String(repeating: "x", count: 80)
        let d = SequenceDiagram(
            participants: [.init(id: "A", label: "A"), .init(id: "B", label: "B"), .init(id: "C", label: "C")],
            items: [
                .message(from: "A", to: "B", arrow: .send, text: "short"),
                .message(from: "A", to: "C", arrow: .send, text: long),
                .message(from: "B", to: "C", arrow: .reply, text: long + long),
            ])
        let xs = SequenceSVG.columns(d)
        #expect(xs.count == 3)
        #expect(xs[2] - xs[0] >= SequenceSVG.width(long) + SequenceSVG.labelPadding)
        #expect(xs[2] - xs[1] >= SequenceSVG.width(long + long) + SequenceSVG.labelPadding)
        #expect(xs[1] - xs[0] >= SequenceSVG.width("short") + SequenceSVG.labelPadding)
        #expect(SequenceSVG.width("…→") == SequenceSVG.width("ab"), "one column each in a monospace font")
        #expect(SequenceSVG.width("日本") == SequenceSVG.width("abcd"), "wide characters take two")
    }

    @Test func docPagesDrawSVGBesideThePagesAndMermaidOnRequest() throws {
        let svg = CallbackDocs.generate(paths: [Self.logout], diagrams: .svg)
        #expect(svg.status == .passed, "\(svg.errors)")
        let page = try #require(svg.pages.first { $0.name == "logout.md" }).text
        #expect(!page.contains("```mermaid"))
        #expect(page.contains("![Sequence diagram: logout with a token](diagrams/logout/logout-with-token.svg)\n"))
        let image = try #require(svg.pages.first { $0.name == "diagrams/logout/logout-with-token.svg" }).text
        #expect(image.contains(">Browser/User</text>"))
        #expect(Self.externalReferences(image).isEmpty)
        #expect(svg.pages == CallbackDocs.generate(paths: [Self.logout], jobs: 2, diagrams: .svg).pages)
        let mermaid = CallbackDocs.generate(paths: [Self.logout], diagrams: .mermaid)
        #expect(!mermaid.pages.contains { $0.name.hasSuffix(".svg") })
        #expect(
            try #require(mermaid.pages.first { $0.name == "logout.md" }).text.contains("```mermaid\nsequenceDiagram\n"))
    }

    @Test func seedPageLinksTheSpecOnlyWhereItResolves() throws {
        let g = CallbackDocs.generate(paths: [Self.logout], specLink: nil)
        let seeds = try #require(g.pages.first { $0.name == "seed-elements.md" }).text
        #expect(!seeds.contains("../spec/README.md"))
        #expect(seeds.contains("docs/spec/README.md in passim's repository"))
    }

    @Test func indexCellsStaySmall() throws {
        let g = CallbackDocs.generate(paths: [ReportTests.suite], jobs: 2)
        let index = try #require(g.pages.first { $0.name == "index.md" }).text
        let widest = index.split(separator: "\n").filter { $0.hasPrefix("|") }.map(\.count).max() ?? 0
        #expect(widest < 2000, "a table row of \(widest) characters")
        #expect(index.contains("more](#getauthentication-order-"))
        #expect(index.contains("<a id=\"getauthentication-order-"))
    }
}
