import Foundation
import Port
import Testing
@testable import Scenario

/// `passim doc`'s migration pages (docs/migration/).
@Suite struct MigrationDocsTests {
    /// A login whose URL pattern is the SDK's: on v2 the login page is the session's, so the line
    /// changes, for the reason of the expectations file's `fail` line.
    static let tiny = """
        # A tiny login for the migration pages' tests.
        scenario "tiny login"
        sp main "https://sp.test"
        mvpd Comcast "Xfinity" at main
        requestor REQ1

        \(pickSteps)
        < navigateToUrl(/https:\\/\\/sp\\.test\\/authenticate\\/saml\\?.*/)

        """

    @Test func bothWiresAppearAndAChangedCallbackShowsItsReason() throws {
        let path = temporaryScenario(Self.tiny, name: "cookbook-z-tiny")
        let folder = (path as NSString).deletingLastPathComponent
        let expectations = try Expectations.parse(
            "# the tiny wire\nfail cookbook-z-tiny  by design: the login page is the session's (a test)\n",
            path: folder + "/tiny.expect")
        let g = CallbackDocs.generate(paths: [folder], migration: expectations, root: folder)
        #expect(g.status == .passed, "\(g.errors)")
        #expect(
            g.migration.map(\.name) == [
                "call-getAuthentication.md", "call-setRequestor.md", "call-setSelectedProvider.md",
                "flow-cookbook-z-tiny.md", "index.md",
            ])
        let page = try #require(g.migration.first { $0.name == "call-getAuthentication.md" }).text
        #expect(page.contains("### SDK wire\n\n```mermaid\nsequenceDiagram\n"))
        #expect(page.contains("### REST API v2\n\nThe run stops at line 13 (expected navigateToUrl("))
        #expect(page.components(separatedBy: "```mermaid\nsequenceDiagram\n").count == 3, "two diagrams")
        #expect(page.contains("    Engine->>SP_main: GET /config/REQ1\n"), "the SDK run's request")
        #expect(page.contains("    Engine->>SP_main: GET /api/v2/REQ1/configuration\n"), "the v2 run's request")
        #expect(
            page.contains(
                "| `> setRequestor(\"REQ1\")` | `GET /config/REQ1 (SP main)` | `GET /api/v2/REQ1/configuration (SP main)` |"
            ), "the requests side by side")
        #expect(page.contains("| **`> getAuthentication()`** |"), "the page's call in bold")
        #expect(
            page.contains(
                "| `setRequestorComplete(1)` | `setRequestorComplete(1)` | same |"))
        #expect(
            page.contains(
                "| `navigateToUrl(\"https://sp.test/api/v2/authenticate/REQ1/WXVPXLS\")` | **changes**: by design: the login page is the session's (a test) ([tiny.expect:2](../../tiny.expect#L2)) |"
            ), "\(page)")
        let index = try #require(g.migration.first { $0.name == "index.md" }).text
        #expect(index.contains("| [`getAuthentication`](call-getAuthentication.md) | "))
        #expect(
            index.contains(" | by rule | 3 same, 1 changed or not reached, [tiny.expect:2](../../tiny.expect#L2) |"))
        #expect(index.contains("| `logout` | no scenario calls it | | |"))
        #expect(index.contains("| [tiny login](flow-cookbook-z-tiny.md) | "))
        // Determinism: the same pages with another number of threads.
        let again = CallbackDocs.generate(paths: [folder], jobs: 2, migration: expectations, root: folder)
        #expect(again.migration == g.migration)
    }

    /// The committed docs/migration/ is what the suite generates now (`make docs-check` checks the
    /// same from the command line, with docs/callbacks).
    @Test func committedPagesAreUpToDate() throws {
        let expectations = try Expectations.load(packageRoot + "/Scenarios/wire-v2.expect")
        let g = CallbackDocs.generate(
            paths: [packageRoot + "/Scenarios"], jobs: 2, migration: expectations, root: packageRoot, diagrams: .svg)
        #expect(g.status == .passed, "\(g.errors)")
        let folder = packageRoot + "/docs/migration"
        // The pages and, under diagrams/, their SVG files (`make docs` draws SVG).
        let committed = (FileManager.default.subpaths(atPath: folder) ?? []).filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isDirectory)
                && !isDirectory.boolValue
        }.sorted()
        #expect(committed == g.migration.map(\.name).sorted(), "run `make docs` and commit docs/migration")
        #expect(committed.contains("diagrams/call-getAuthentication.v2.svg"))
        for page in g.migration {
            let text = try String(contentsOfFile: folder + "/" + page.name, encoding: .utf8)
            #expect(text == page.text, "docs/migration/\(page.name) is stale: run `make docs` and commit it")
        }
        let index = try #require(g.migration.first { $0.name == "index.md" }).text
        #expect(index.contains("| [`getAuthentication`](call-getAuthentication.md) | [authn/classic-login]"))
        #expect(!index.contains("| by rule |"), "every call has its scenario in the table")
        #expect(index.contains("(flow-cookbook-i-logout-apple-sso.md)"))
    }
}
