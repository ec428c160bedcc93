import Foundation
import Testing
@testable import Scenario

/// The package root, found from this file so the tests run from any working directory.
let packageRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    while url.path != "/" {
        url.deleteLastPathComponent()
        if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url.path }
    }
    return FileManager.default.currentDirectoryPath
}()

/// The passim executable the tests run: `PASSIM_BINARY` when set (CI runs the tests beside its
/// mutation check, which relinks .build/debug/passim with each mutant, and gives a copy), else the one
/// `swift build` makes.
let passimBinary: String = ProcessInfo.processInfo.environment["PASSIM_BINARY"] ?? packageRoot + "/.build/debug/passim"

/// The steps of an iOS login: `requestor REQ1`, the user alice (password secret) at Comcast, through
/// its tracking. `authenticated`: the instant the status line pins (`at 60ms`), if any.
func loginSteps(authenticated: String? = nil) -> String {
    """
    \(pickSteps)
    < navigateToUrl(_)
    user login "alice" "secret"
    > handleExternalURL("adobepass://ios.app")
    < setAuthenticationStatus(1, "")\(authenticated.map { " at " + $0 } ?? "")
    < sendTrackingData(TRACKING_AUTHENTICATION, ["true", "Comcast", $guid, "false", "mobile", "ios", "iOS"])
    """
}

/// Up to the provider picked: `setRequestor("REQ1")`, then Comcast chosen from the dialog (the start
/// of `loginSteps`, and of a scenario that stops at the login page).
let pickSteps = """
    > setRequestor("REQ1")
    < setRequestorComplete(1)
    > getAuthentication()
    < displayProviderDialog([Comcast])
    > setSelectedProvider(Comcast)
    < sendTrackingData(TRACKING_GET_SELECTED_PROVIDER, ["Comcast", "mobile", "ios", "iOS"])
    """

/// Writes `text` to a fresh temporary `.scenario` file and returns its path.
func temporaryScenario(_ text: String, name: String = "t") -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("passim-tests-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let path = dir.appendingPathComponent("\(name).scenario").path
    _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    return path
}

@Suite struct SuiteRunTests {
    @Test func theWholeSuitePassesAndIsDeterministic() {
        let suite = packageRoot + "/Scenarios"
        let first = SuiteRun(options: .init(repeatCount: 2)).run(paths: [suite])
        #expect(first.status == .passed, "\(first.output)")
        #expect(first.results.count >= 20)
        let second = SuiteRun().run(paths: [suite])
        #expect(first.results.map(\.transcript) == second.results.map(\.transcript))
        #expect(first.output.hasSuffix("\(first.results.count) passed, 0 failed\n"))
    }

    static let world = """
        scenario "t"
        sp main "https://sp.test"
        mvpd Comcast "Xfinity" at main
        requestor REQ1

        """

    @Test(arguments: [
        ("bogus statement\n", "t.scenario:5:1: unknown statement 'bogus'"),
        ("> handleExternalURL(\"adobepass://ios.app)\n", "t.scenario:5:21: unterminated string"),
        ("clock +5x\n", "t.scenario:5:8: invalid duration '5x'"),
        ("net backup down\n", "t.scenario:5:5: undeclared SP 'backup'"),
    ])
    func malformedFilesAreUnusable(tail: String, expected: String) throws {
        let path = temporaryScenario(Self.world + tail)
        let report = SuiteRun().run(paths: [path])
        #expect(report.status == .unusable)
        let lines = report.errors.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0].hasPrefix(path) && lines[0].contains(expected), "\(report.errors)")
        #expect(lines[1] == tail.dropLast().description, "the offending line")
        let column = Int(expected.split(separator: ":")[2])!
        #expect(lines[2] == String(repeating: " ", count: column - 1) + "^", "a caret under the column")
        #expect(report.output.hasSuffix("0 passed, 0 failed, 1 unusable\n"))
    }

    @Test func missingPathIsUnusable() {
        let report = SuiteRun().run(paths: ["/no/such/place"])
        #expect(report.status == .unusable)
        #expect(report.errors.contains("/no/such/place: no such file or directory"))
    }

    @Test func aWrongExpectationFailsWithSideBySideTranscripts() {
        let path = temporaryScenario(
            Self.world + """
                > setRequestor("REQ1")
                < setRequestorComplete(0)
                """)
        let report = SuiteRun().run(paths: [path])
        #expect(report.status == .failed)
        #expect(
            report.output.contains("FAIL \(path):6:1: expected setRequestorComplete(0), got setRequestorComplete(1)"))
        #expect(report.output.contains(">>> < setRequestorComplete(0)"))
        #expect(report.output.contains("replay: passim run \(path)"))
    }

    @Test func aCallbackNobodyExpectedFails() {
        let early = temporaryScenario(
            Self.world + """
                > setRequestor("REQ1")
                clock +1s
                > getSelectedProvider()
                """)
        let report = SuiteRun().run(paths: [early])
        #expect(report.status == .failed)
        #expect(report.results[0].failure?.message == "unexpected callback setRequestorComplete(1) before this step")
        #expect(report.results[0].failure?.location.line == 7)

        let leftover = temporaryScenario(Self.world + "> setRequestor(\"REQ1\")\n")
        let r2 = SuiteRun().run(paths: [leftover]).results[0]
        #expect(r2.status == .failed)
        #expect(r2.failure?.message == "callback left at the end: setRequestorComplete(1)")
    }

    /// `unseen`: no such request since the previous `seen` on the SP; it leaves that point where it is.
    @Test func unseenFailsOnARequestThatWasMadeAndLeavesSeenWhereItWas() {
        let made = Self.world + "> setRequestor(\"REQ1\")\n< setRequestorComplete(1)\nunseen main GET /config/REQ1\n"
        let failed = SuiteRun().run(paths: [temporaryScenario(made)]).results[0]
        #expect(failed.status == .failed)
        #expect(
            failed.failure?.message
                == "main received GET /config/REQ1 since the previous seen, which this line says it did not")
        let notMade =
            Self.world + "> setRequestor(\"REQ1\")\n< setRequestorComplete(1)\nunseen main POST /sessionDevice\n"
            + "seen main GET /config/REQ1\nunseen main GET /config/REQ1\n"
        let passed = SuiteRun().run(paths: [temporaryScenario(notMade)]).results[0]
        #expect(passed.status == .passed, "\(passed.failure?.message ?? "")")
    }

    @Test func anIdleEngineFailsAnExpectation() {
        let path = temporaryScenario(Self.world + "< setRequestorComplete(1)\n")
        let result = SuiteRun().run(paths: [path]).results[0]
        #expect(result.failure?.message == "engine idle, expected setRequestorComplete(1)")
    }

}
