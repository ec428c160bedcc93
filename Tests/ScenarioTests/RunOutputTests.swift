import Foundation
import Testing
@testable import Scenario

/// Issue 25: `passim run`'s output for people: `-q`, `-k`, `-x`, `--durations`, results streamed as
/// each scenario ends in the files' order, and a selection that selects nothing is an error.
@Suite struct RunOutputTests {
    static let passing =
        SuiteRunTests.world + """
            > setRequestor("REQ1")
            < setRequestorComplete(1)
            """
    static let failing =
        SuiteRunTests.world + """
            > setRequestor("REQ1")
            < setRequestorComplete(0)
            """

    /// Three files in one folder, named so that sorting puts them a, b, c.
    func folder(_ texts: [(String, String)]) -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("passim-run-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for (name, text) in texts {
            _ = FileManager.default.createFile(atPath: dir + "/" + name + ".scenario", contents: Data(text.utf8))
        }
        return dir
    }

    func tagged(_ text: String, _ tags: String, title: String) -> String {
        text.replacingOccurrences(of: "scenario \"t\"", with: "scenario \"\(title)\"\ntags \(tags)")
    }

    @Test func quietPrintsACharacterEachThenTheFailures() {
        let dir = folder([("a", Self.passing), ("b", Self.failing), ("c", Self.passing)])
        var options = SuiteRun.Options()
        options.quiet = true
        let report = SuiteRun(options: options).run(paths: [dir])
        let lines = report.output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == ".F.", "\(report.output)")
        #expect(report.output.contains("FAIL \(dir)/b.scenario:6:1"))
        #expect(!report.output.contains("ok   "))
        #expect(report.output.hasSuffix("2 passed, 1 failed\n"))
    }

    @Test func streamedTextIsTheOutputInTheFilesOrderWhateverTheJobs() {
        let dir = folder((0..<12).map { (String(format: "s%02d", $0), $0 % 5 == 3 ? Self.failing : Self.passing) })
        for jobs in [1, 3] {
            let pieces = Pieces()
            var options = SuiteRun.Options(jobs: jobs)
            options.stream = { pieces.append($0) }
            let report = SuiteRun(options: options).run(paths: [dir])
            #expect(pieces.text == report.output, "jobs \(jobs)")
            #expect(pieces.count == 13, "a piece per file, then the summary")
        }
    }

    @Test func kSelectsByPathOrTitleWithAndOrNot() throws {
        let dir = folder([
            ("tvos-cancel", tagged(Self.passing, "x", title: "one")),
            ("tvos-login", tagged(Self.passing, "x", title: "two")),
            ("ios-login", tagged(Self.passing, "x", title: "Three TVOS in the title")),
        ])
        func selected(_ expressions: [String]) throws -> [String] {
            var options = SuiteRun.Options()
            options.names = try expressions.map { try NameFilter(parsing: $0) }
            return SuiteRun(options: options).run(paths: [dir]).results.map {
                URL(fileURLWithPath: $0.path).lastPathComponent
            }
        }
        #expect(try selected(["tvos"]) == ["ios-login.scenario", "tvos-cancel.scenario", "tvos-login.scenario"])
        #expect(try selected(["tvos and not cancel"]) == ["ios-login.scenario", "tvos-login.scenario"])
        #expect(try selected(["cancel or (login and not TVOS)"]) == ["tvos-cancel.scenario"])
        #expect(try selected(["cancel", "three"]) == ["ios-login.scenario", "tvos-cancel.scenario"])
        var options = SuiteRun.Options()
        options.names = [try NameFilter(parsing: "cancel")]
        #expect(
            SuiteRun(options: options).run(paths: [dir]).output.hasSuffix("1 passed, 0 failed, 2 not selected by -k\n"))
    }

    @Test(arguments: ["", "a and", "(a", "a)", "and a", "not"])
    func aMalformedKExpressionIsRefused(_ text: String) {
        #expect(throws: NameFilter.ParseError.self) { try NameFilter(parsing: text) }
    }

    @Test func aTagOrKThatSelectsNothingIsAnError() throws {
        let dir = folder([("a", tagged(Self.passing, "tvos sso", title: "a"))])
        var options = SuiteRun.Options(tags: ["tvoss"])
        var report = SuiteRun(options: options).run(paths: [dir])
        #expect(report.status == .unusable)
        #expect(
            report.errors
                == "passim: unknown tag 'tvoss' (did you mean 'tvos'?): no scenario here has it; the tags are sso, tvos\n"
        )
        options = SuiteRun.Options()
        options.names = [try NameFilter(parsing: "nothing-like-this")]
        report = SuiteRun(options: options).run(paths: [dir])
        #expect(report.status == .unusable)
        #expect(report.errors.contains("-k 'nothing-like-this' selects no scenario"))
        // A tag present elsewhere than in this shard is not unknown.
        let two = folder([
            ("a", tagged(Self.passing, "one", title: "a")), ("b", tagged(Self.passing, "two", title: "b")),
        ])
        options = SuiteRun.Options(tags: ["two"], shard: try Shard(parsing: "1/2"))
        report = SuiteRun(options: options).run(paths: [two])
        #expect(report.status == .passed, "\(report.errors)")
    }

    @Test func failFastStartsNothingAfterTheFirstFailure() {
        let dir = folder([("a", Self.passing), ("b", Self.failing), ("c", Self.passing), ("d", Self.failing)])
        var options = SuiteRun.Options()
        options.failFast = true
        let report = SuiteRun(options: options).run(paths: [dir])
        #expect(report.status == .failed)
        #expect(report.results.count == 2)
        #expect(report.output.hasSuffix("1 passed, 1 failed, 2 not run (--fail-fast)\n"), "\(report.output)")
    }

    @Test func durationsListTheSlowestBeforeTheSummary() {
        let dir = folder([("a", Self.passing), ("b", Self.passing), ("c", Self.passing)])
        var options = SuiteRun.Options()
        options.durations = 2
        let report = SuiteRun(options: options).run(paths: [dir])
        let lines = report.output.split(separator: "\n").map(String.init)
        #expect(lines.suffix(4).first == "slowest 2 of 3 scenarios (wall time):", "\(report.output)")
        #expect(lines.suffix(3).dropLast().allSatisfy { $0.hasSuffix(".scenario") && $0.contains("s  ") })
        #expect(lines.last == "3 passed, 0 failed")
    }
}

/// Collects streamed pieces from any thread.
final class Pieces: @unchecked Sendable {
    private let lock = NSLock()
    private var pieces: [String] = []
    func append(_ piece: String) { lock.lock(); pieces.append(piece); lock.unlock() }
    var text: String { lock.lock(); defer { lock.unlock() }; return pieces.joined() }
    var count: Int { lock.lock(); defer { lock.unlock() }; return pieces.count }
}

/// The command line itself (the debug binary, which `swift test` builds with the tests).
@Suite struct RunCommandTests {
    func shell(_ command: String) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-o", "pipefail", "-c", command]
        process.currentDirectoryURL = URL(fileURLWithPath: packageRoot)
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    /// A reader that goes away (`| head -1`) ends the run quietly, as a closed pipe ends a shell
    /// tool, instead of a trap in FileHandle.write (SIGPIPE is ignored for NIO).
    @Test func aClosedPipeEndsTheRunQuietly() throws {
        let (status, stderr) = try shell(passimBinary + " run --jobs 2 Scenarios | head -1")
        #expect(status == 141, "\(stderr.prefix(500))")
        #expect(!stderr.contains("Fatal error") && !stderr.contains("crashed"), "\(stderr.prefix(500))")
    }

    @Test func aBadKExpressionIsAUsageErrorWithExit2() throws {
        let (status, stderr) = try shell(passimBinary + " run -k 'tvos and' Scenarios")
        #expect(status == 2)
        #expect(stderr.contains("-k 'tvos and': the expression ends too soon"), "\(stderr)")
    }
}

/// Issue 25: one set-up mistake is one message and exit 2, before any scenario runs.
@Suite struct SetUpMistakeTests {
    func run(_ runtime: ScenarioRunner.Runtime) -> SuiteRun.Report {
        var options = SuiteRun.Options()
        options.runtime = runtime
        return SuiteRun(options: options).run(paths: [
            packageRoot + "/Scenarios/authn", packageRoot + "/Scenarios/cancel",
        ])
    }

    @Test func aRunningServerWithoutItsTokenIsOneMessage() {
        let report = run(.liveServer(adminURL: "http://127.0.0.1:9", adminToken: nil))
        #expect(report.status == .unusable)
        #expect(report.results.isEmpty && report.output.isEmpty)
        #expect(
            report.errors
                == "passim: live mode: no admin token for the server at http://127.0.0.1:9: give --admin-token TOKEN "
                + "or set PASSIM_ADMIN_TOKEN (passim serve prints it on its admin-token line)\n")
    }

    @Test func aServerThatCannotBeReachedIsOneMessage() {
        let report = run(.liveServer(adminURL: "http://127.0.0.1:9", adminToken: "t"))
        #expect(report.status == .unusable)
        #expect(report.results.isEmpty)
        #expect(
            report.errors.hasPrefix(
                "passim: live mode: cannot reach the server's admin endpoint at http://127.0.0.1:9: "),
            "\(report.errors)")
        #expect(report.errors.split(separator: "\n").count == 1)
    }
}

extension RunCommandTests {
    /// `passim serve` on a port another program holds: one line naming the address, the way out, exit 2.
    @Test func aPortInUseIsOneLineWithTheWayOut() throws {
        let holder = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(holder) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(holder, $0, length) == 0 && listen(holder, 1) == 0
                    && getsockname(holder, $0, &length) == 0
            }
        }
        try #require(bound)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let (status, stderr) = try shell(passimBinary + " serve --adobe --listen-port \(port) --admin-port 0")
        #expect(status == 2)
        #expect(
            stderr == "passim serve: cannot listen on 127.0.0.1:\(port): the port is in use (another passim serve?): "
                + "give other ports with --listen-port N, or --listen-port 0 for free ones\n", "\(stderr)")
    }
}
