import Foundation
import Testing
@testable import Scenario

/// Which files `passim run PATH...` finds: links followed, a folder searched
/// whatever its name, and a path that yields nothing an error unless `--allow-empty`.
@Suite struct SuiteLoaderTests {
    /// A fresh temporary folder.
    func folder() -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("passim-loader-\(UUID().uuidString)")
            .path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A passing scenario of the suite, copied to `path`.
    func scenario(at path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: packageRoot + "/Scenarios/startup/one-sp.scenario", toPath: path)
    }

    @Test func aLinkToTheSuiteFolderRunsItsScenarios() throws {
        let root = folder()
        try scenario(at: root + "/real/area/a.scenario")
        try FileManager.default.createSymbolicLink(atPath: root + "/link", withDestinationPath: root + "/real")
        let report = SuiteRun().run(paths: [root + "/link"])
        #expect(report.status == .passed, "\(report.errors)")
        #expect(report.results.map(\.path) == [root + "/link/area/a.scenario"])
    }

    @Test func linksInsideAFolderAreFollowedAndALoopEnds() throws {
        let root = folder()
        try scenario(at: root + "/elsewhere/b.scenario")
        try scenario(at: root + "/suite/a.scenario")
        let fm = FileManager.default
        try fm.createSymbolicLink(atPath: root + "/suite/linked-folder", withDestinationPath: root + "/elsewhere")
        try fm.createSymbolicLink(
            atPath: root + "/suite/linked.scenario", withDestinationPath: root + "/elsewhere/b.scenario")
        try fm.createSymbolicLink(atPath: root + "/suite/loop", withDestinationPath: root + "/suite")
        let files = try SuiteLoader.files(in: [root + "/suite"])
        #expect(files == ["a.scenario", "linked-folder/b.scenario", "linked.scenario"].map { root + "/suite/" + $0 })
    }

    @Test func aFolderNamedLikeAScenarioIsSearched() throws {
        let root = folder()
        try scenario(at: root + "/x.scenario/a.scenario")
        #expect(try SuiteLoader.files(in: [root]) == [root + "/x.scenario/a.scenario"])
        let report = SuiteRun().run(paths: [root + "/x.scenario"])
        #expect(report.status == .passed && report.results.count == 1, "\(report.errors)")
    }

    @Test func aPathWithNoScenarioIsUnusableUnlessAllowed() throws {
        let root = folder()
        try Data("not a scenario".utf8).write(to: URL(fileURLWithPath: root + "/notes.txt"))
        let report = SuiteRun().run(paths: [root])
        #expect(report.status == .unusable)
        #expect(report.status.rawValue == 2)
        #expect(report.errors == "passim: \(root): no .scenario file in this folder (--allow-empty accepts that)\n")
        var options = SuiteRun.Options()
        options.allowEmpty = true
        let allowed = SuiteRun(options: options).run(paths: [root])
        #expect(allowed.status == .passed)
        #expect(allowed.results.isEmpty)
    }
}

/// The hostile scenario files of issue 12, run as `passim run` runs them: exit 2 with the diagnostic.
@Suite struct HostileRunTests {
    static let hostile = packageRoot + "/Fixtures/hostile/scenarios/"

    @Test(arguments: [
        ("arity-setRequestor.scenario", ":6:3: missing argument requestorID of setRequestor"),
        ("arity-extra.scenario", ":5:24: unexpected argument '\"REQ2\"' for setRequestor"),
        ("arg-type.scenario", ":6:21: getAuthentication's forceAuthn takes true or false"),
        ("sp-not-a-url.scenario", ":2:9: invalid SP URL \"not a url at all\""),
        ("control-chars.scenario", ":3:21: control character U+001B (in a string, write it as \\u{1B})"),
        // Issue 27: callbacks are checked as calls are; a pattern that needs backtracking is refused.
        ("callback-arity.scenario", ":6:27: setRequestorComplete takes 1 argument, not 2"),
        ("callback-no-argument.scenario", ":6:3: missing argument status of setRequestorComplete"),
        ("catastrophic-pattern.scenario", ":5:21: invalid regex: escape '\\1' is not supported"),
        // Issue 44 row 10: a 1xx is no final answer.
        ("net-1xx-status.scenario", ":5:24: invalid HTTP status '101' (expected an integer from 200 to 599)"),
        // Names and literals are checked when the file is read, not found at run time as a mismatch.
        (
            "unknown-constant.scenario",
            ":6:30: unknown constant 'PROVIDER_NOT_SELECTED' (did you mean 'PROVIDER_NOT_SELECTED_ERROR'?)"
        ),
        ("undeclared-mvpd.scenario", ":9:23: undeclared name 'Comcst' (did you mean 'Comcast'?): no MVPD, SP,"),
        ("undeclared-sp.scenario", ":5:43: undeclared name 'mian' (did you mean 'main'?)"),
        ("undeclared-user.scenario", ":9:12: undeclared user 'alcie' (did you mean 'alice'?)"),
        ("undeclared-pick.scenario", ":9:11: undeclared MVPD 'Dish'"),
        (
            "callback-literal.scenario",
            ":6:30: setAuthenticationStatus's errorCode is USER_AUTHENTICATED, USER_NOT_AUTHENTICATED_ERROR, "
                + "PROVIDER_NOT_SELECTED_ERROR or GENERIC_AUTHENTICATION_ERROR, never \"Provider Not Selected\" "
                + "(did you mean 'PROVIDER_NOT_SELECTED_ERROR'?)"
        ),
        (
            "callback-status.scenario",
            ":5:24: setRequestorComplete's status is ACCESS_ENABLER_STATUS_SUCCESS (1) or ACCESS_ENABLER_STATUS_ERROR (0), never 2"
        ),
    ])
    func aHostileFileIsAnErrorOfTheFile(_ name: String, _ expected: String) {
        let report = SuiteRun().run(paths: [Self.hostile + name])
        #expect(report.status == .unusable, "\(report.output)")
        #expect(report.results.isEmpty, "nothing ran")
        let lines = report.errors.split(separator: "\n").map(String.init)
        #expect(lines.first?.contains(name + expected) == true, "\(report.errors)")
        #expect(lines.count == 3 && lines[2].hasSuffix("^"), "the line and a caret: \(report.errors)")
        #expect(!report.errors.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "control characters escaped")
    }

    @Test func aThirtyThousandDeepValueIsAnErrorOfTheFile() {
        let nested = String(repeating: "[", count: 30_000) + String(repeating: "]", count: 30_000)
        let path = temporaryScenario("scenario \"deep\"\n> getMetadata(" + nested + ")\n")
        let report = SuiteRun().run(paths: [path])
        #expect(report.status == .unusable)
        #expect(
            report.errors.contains(":2:16385: line longer than 16384 characters (limit: line-length)"),
            "\(report.errors.prefix(300))")
    }
}
