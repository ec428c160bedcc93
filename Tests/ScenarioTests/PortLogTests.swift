import Foundation
import PassModel
import Port
import Testing

@testable import Scenario

/// `passim run --port … --port-log FILE|DIR`: every line exchanged with the port, after its virtual
/// time; and a run's summary tells the scenarios the port took part in from those that never asked it
/// anything (docs/PORTING.md, "Seeing the conversation").
@Suite struct PortLogTests {
    static let login = PortRunTests.scenario
    /// Steps the harness carries out itself: the port is said hello, then asked nothing.
    static let harnessOnly = """
        scenario "only the harness"
        sp main "https://sp.test"
        requestor REQ1
        http GET main /api/v2/REQ1/configuration header "AP-Device-Identifier: fingerprint dGFibGU=" expect 200
        """

    func run(_ texts: [String], log: String?) -> SuiteRun.Report {
        var options = SuiteRun.Options()
        var port = PortCommand(inProcess: "passim shim") { PortShim() }
        port.log = log != nil
        options.runtime = ScenarioRunner.Runtime(port: port)
        options.portLog = log
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("passim-port-log-\(UUID())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let paths = texts.enumerated().map { i, text in
            let path = folder.appendingPathComponent("s\(i).scenario").path
            _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
            return path
        }
        return SuiteRun(options: options).run(paths: paths)
    }

    @Test func aFileHoldsEveryLineWithItsVirtualTimeUnderEachScenario() throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("passim-\(UUID()).log").path
        let report = run([Self.login, Self.harnessOnly], log: log)
        #expect(report.status == .passed, "\(report.output)")
        let text = try String(contentsOfFile: log, encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        let headers = lines.filter { $0.hasPrefix("# ") }
        #expect(headers.count == 2 && headers[0].hasSuffix("/s0.scenario") && headers[1].hasSuffix("/s1.scenario"))
        #expect(lines[1].hasPrefix("0ms > {\"type\":\"hello\",\"protocol\":1,"), "\(lines[1])")
        #expect(
            lines[2] == "0ms < {\"type\":\"ready\",\"protocol\":1,\"implementation\":\"passim shim\",\"reset\":true}")
        #expect(lines[3].hasPrefix("0ms > {\"type\":\"call\",\"app\":\"app\",\"call\":\"setRequestor\""))
        #expect(
            lines.contains { $0.contains("ms > {\"type\":\"call\",\"app\":\"app\",\"call\":\"getSelectedProvider\"") }
        )
        // The configuration's answer at its virtual instant, a round trip later, then the callback then.
        let response = try #require(lines.firstIndex { $0.contains("ms > {\"type\":\"response\"") })
        let instant = try #require(lines[response].split(separator: " ").first)
        #expect(instant != "0ms")
        let callback = "\(instant) < {\"type\":\"callback\",\"app\":\"app\",\"callback\":\"setRequestorComplete\""
        #expect(lines[(response + 1)...].contains { $0.hasPrefix(callback) }, "\(text)")
        // Every line is `TIME > JSON` or `TIME < JSON`, and the JSON is each side's line as it was.
        for line in lines where !line.hasPrefix("# ") {
            let parts = line.split(separator: " ", maxSplits: 2).map(String.init)
            #expect(parts.count == 3 && parts[0].hasSuffix("ms") && [">", "<"].contains(parts[1]), "\(line)")
            #expect((try? Value(jsonText: parts[2])) != nil, "\(line)")
        }
        // The second scenario only said hello.
        let second = lines.drop { $0 != headers[1] }.dropFirst()
        #expect(second.count == 2 && second.first?.contains("\"hello\"") == true, "\(second)")
        // Deterministic: the same lines again (the scenarios' folder aside, a new one each run).
        let again = FileManager.default.temporaryDirectory.appendingPathComponent("passim-\(UUID()).log").path
        _ = run([Self.login, Self.harnessOnly], log: again)
        let conversation = { (text: String) in text.split(separator: "\n").filter { !$0.hasPrefix("# ") } }
        #expect(conversation(try String(contentsOfFile: again, encoding: .utf8)) == conversation(text))
    }

    @Test func aFolderHoldsAFilePerScenario() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("passim-logs-\(UUID())").path + "/"
        let report = run([Self.login], log: folder)
        let path = try #require(report.results.first?.path)
        let file = folder + SuiteRun.portLogName(path)
        #expect(file.hasSuffix("/s0.log"))
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.hasPrefix("0ms > {\"type\":\"hello\""))
        #expect(!text.contains("# "))
        #expect(SuiteRun.portLogName("Scenarios/authn/classic-login.scenario") == "Scenarios/authn/classic-login.log")
        #expect(SuiteRun.portLogName("../x/./y.scenario") == "x/y.log")
    }

    @Test func aLogThatCannotBeWrittenIsUnusableInput() {
        let report = run([Self.login], log: "/nonexistent-folder-\(UUID())/port.log")
        #expect(report.status == .unusable)
        #expect(
            report.errors.hasPrefix("passim: cannot write the port log to /nonexistent-folder-"), "\(report.errors)")
    }

    /// Without `--port-log` nothing is kept.
    @Test func nothingIsKeptUnlessAsked() throws {
        let result = try #require(run([Self.login], log: nil).results.first)
        #expect(result.portConversation.isEmpty)
        #expect((result.portAsked ?? 0) > 0)
    }

    /// A stub that passes every scenario of the harness's own steps is told apart from a port that
    /// took part: the summary, the JSON lines.
    @Test func theSummaryCountsTheScenariosThePortTookPartIn() throws {
        let report = run([Self.login, Self.harnessOnly, Self.harnessOnly], log: nil)
        #expect(report.portCounts?.tookPart == 1 && report.portCounts?.neverAsked == 2)
        #expect(report.output.hasSuffix("3 passed, 0 failed (the port took part in 1; 2 never asked it anything)\n"))
        let json = SuiteReports.jsonLines(report).split(separator: "\n")
        #expect(json[1].contains("\"portMessages\":0"), "\(json[1])")
        #expect(json.last?.contains("\"portTookPart\":1,\"portNeverAsked\":2") == true, "\(json.last ?? "")")
        // Without a port, nothing of it.
        let plain = SuiteRun().run(paths: [temporaryScenario(Self.login)])
        #expect(plain.portCounts == nil && plain.output.hasSuffix("1 passed, 0 failed\n"))
    }
}
