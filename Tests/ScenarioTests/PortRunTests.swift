import Foundation
import PassModel
import Port
import Testing
@testable import Scenario

/// `passim run --port`: a port's outcomes, and a misbehaving port ending its scenario with a clear
/// error instead of hanging the harness (docs/PORTING.md).
@Suite struct PortRunTests {
    static let scenario = """
        scenario "t"
        sp main "https://sp.test"
        mvpd Comcast "Xfinity" at main
        requestor REQ1
        > setRequestor("REQ1")
        < setRequestorComplete(1)
        > getSelectedProvider()
        < selectedProvider(nil)
        """

    /// A Python port whose every message is answered by `body` (a Python expression over `m`, the
    /// message, returning the list of lines to write), after a correct `ready`.
    func port(_ body: String, hello: String = #"{"type": "ready", "protocol": 1, "implementation": "test"}"#) -> String
    {
        let script = """
            import json, sys
            def answer(m):
                \(body)
            for line in sys.stdin:
                m = json.loads(line)
                if m["type"] == "hello":
                    print('\(hello)', flush=True)
                    continue
                for out in answer(m):
                    sys.stdout.write(out + "\\n")
                sys.stdout.flush()
            """
        let path = temporaryScenario(script, name: "port").replacingOccurrences(of: ".scenario", with: ".py")
        try? FileManager.default.moveItem(atPath: path.replacingOccurrences(of: ".py", with: ".scenario"), toPath: path)
        return "python3 " + path
    }

    func run(
        _ command: String, _ text: String = PortRunTests.scenario, timeout: Millis = .seconds(5),
        expect: String? = nil, network: ScenarioRunner.Runtime.Network = .simulated
    ) throws -> SuiteRun.Report {
        var options = SuiteRun.Options()
        var portCommand = PortCommand(command: command, timeout: timeout)
        if let expect {
            let e = try Expectations.parse(expect, path: "t.expect")
            options.expectations = e
            portCommand.constants = e.constants
        }
        options.runtime = ScenarioRunner.Runtime(network: network, port: portCommand)
        return SuiteRun(options: options).run(paths: [temporaryScenario(text)])
    }

    @Test func theMinimalPortOfPortingMdRunsAndIsTheDocsExample() throws {
        let doc = try String(contentsOfFile: packageRoot + "/docs/PORTING.md", encoding: .utf8)
        let fixture = try String(contentsOfFile: packageRoot + "/Fixtures/ports/minimal/port.py", encoding: .utf8)
        let code = fixture.split(separator: "\n", maxSplits: 1).last.map(String.init) ?? ""
        #expect(doc.contains("```python\n" + code + "```"))

        let report = try run("python3 " + packageRoot + "/Fixtures/ports/minimal/port.py")
        #expect(report.unimplemented == 1, "\(report.output)")
        #expect(report.output.contains("UNIMPLEMENTED"))
        #expect(report.output.contains("does not implement getSelectedProvider"))
        #expect(report.status == .failed)

        // Listed as a known failure, the run is green.
        let accepted = try run(
            "python3 " + packageRoot + "/Fixtures/ports/minimal/port.py", expect: "fail ** only setRequestor\n")
        #expect(accepted.status == .passed, "\(accepted.output)")
        #expect(accepted.expectedFailures == 1)
        #expect(accepted.output.contains("XFAIL"))
    }

    @Test func anUnexpectedPassIsReported() throws {
        let text = PortRunTests.scenario.components(separatedBy: "\n> getSelectedProvider()")[0]
        let report = try run(
            "python3 " + packageRoot + "/Fixtures/ports/minimal/port.py", text, expect: "fail ** said to fail\n")
        #expect(report.unexpectedPasses == 1)
        #expect(report.status == .failed)
        #expect(report.output.contains("UNEXPECTED PASS"))
    }

    @Test func aSkippedScenarioIsNotRun() throws {
        let report = try run("false", expect: "skip ** not yet\n")
        #expect(report.status == .passed)
        #expect(report.excluded == 1)
        #expect(report.output.contains("SKIP") && report.output.contains("(not yet)"))
    }

    @Test(arguments: [
        ("return ['this is not json']", "not a JSON object"),
        (
            "return ['{\"type\": \"callback\", \"app\": \"app\", \"callback\": \"setRequestorComplete\", \"args\": [\"yes\"]}']",
            "setRequestorComplete: argument 1 must be an integer"
        ),
        (
            "return ['{\"type\": \"callback\", \"app\": \"other\", \"callback\": \"setRequestorComplete\", \"args\": [1]}']",
            "an answer for app other to a message for app app"
        ),
        ("return ['{\"type\": \"error\", \"message\": \"boom\"}']", "the port reported an error: boom"),
        ("sys.exit(3)", "the port exited with status 3"),
        // Idle, then a callback nobody asked for.
        (
            "return ['{\"type\": \"idle\"}', '{\"type\": \"callback\", \"app\": \"app\", \"callback\": \"setRequestorComplete\", \"args\": [1]}']",
            "the port wrote after its idle"
        ),
    ])
    func aMisbehavingPortEndsItsScenarioWithAClearError(_ body: String, _ message: String) throws {
        let report = try run(port(body))
        #expect(report.status == .failed)
        let failure = report.results.first?.failure?.message ?? ""
        #expect(failure.contains(message), "\(report.output)")
    }

    /// A port for the protocol 1.1 tests: it logs each start to `log`, announces `reset` when asked,
    /// answers `setRequestor` and `getSelectedProvider`, and breaks the protocol on `checkAuthentication`.
    func countingPort(log: String, reset: Bool, exitOnSecondHello: Bool = false) -> String {
        let script = """
            import json, sys
            with open(sys.argv[1], "a") as f:
                f.write("start\\n")
            hellos = 0
            for line in sys.stdin:
                m = json.loads(line)
                t, call = m["type"], m.get("call")
                if t == "hello":
                    hellos += 1
                    if sys.argv[2] == "once" and hellos == 2:
                        sys.exit(0)
                    out = [{"type": "ready", "protocol": 1, "implementation": "counting", "reset": sys.argv[2] != "0"}]
                elif call == "setRequestor":
                    out = [{"type": "request", "app": m["app"], "id": 1, "method": "GET",
                            "url": "https://sp.test/config/REQ1", "headers": [], "body": ""}, {"type": "idle"}]
                elif t == "response":
                    out = [{"type": "callback", "app": m["app"], "callback": "setRequestorComplete", "args": [1]}, {"type": "idle"}]
                elif call == "checkAuthentication":
                    out = ["this is not json"]
                else:
                    out = [{"type": "callback", "app": m["app"], "callback": "selectedProvider", "args": [None]}, {"type": "idle"}]
                for o in out:
                    sys.stdout.write((o if isinstance(o, str) else json.dumps(o)) + "\\n")
                sys.stdout.flush()
            """
        let path = temporaryScenario(script, name: "counting").replacingOccurrences(of: ".scenario", with: ".py")
        try? FileManager.default.moveItem(atPath: path.replacingOccurrences(of: ".py", with: ".scenario"), toPath: path)
        return "python3 \(path) \(log) \(exitOnSecondHello ? "once" : reset ? "1" : "0")"
    }

    /// Runs `texts` in order through `command` with a pool; the outcomes and the processes started.
    func pooledRun(_ command: String, _ texts: [String]) -> (
        statuses: [ScenarioResult.Status], started: Int, report: SuiteRun.Report
    ) {
        let pool = PortPool()
        defer { pool.closeAll() }
        var options = SuiteRun.Options()
        options.runtime = ScenarioRunner.Runtime(network: .simulated, port: PortCommand(command: command, pool: pool))
        let report = SuiteRun(options: options).run(paths: texts.map { temporaryScenario($0) })
        return (report.results.map(\.status), pool.processesStarted, report)
    }

    static let breaking = """
        scenario "the port breaks here"
        sp main "https://sp.test"
        mvpd Comcast "Xfinity" at main
        requestor REQ1
        > setRequestor("REQ1")
        < setRequestorComplete(1)
        > checkAuthentication()
        """

    @Test func aResettablePortServesScenarioAfterScenarioAndABrokenOneIsReplaced() throws {
        let log = temporaryScenario("", name: "starts")
        let good = PortRunTests.scenario
        let run = pooledRun(countingPort(log: log, reset: true), [good, good, PortRunTests.breaking, good, good])
        #expect(run.statuses == [.passed, .passed, .failed, .passed, .passed], "\(run.report.output)")
        // One process for the first three; the one that broke is ended, a fresh one serves the rest.
        #expect(run.started == 2)
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "start\nstart\n")
    }

    @Test func aKeptPortThatFailsItsNextHelloIsReplacedQuietly() throws {
        let log = temporaryScenario("", name: "starts")
        let good = PortRunTests.scenario
        let run = pooledRun(countingPort(log: log, reset: true, exitOnSecondHello: true), [good, good, good])
        #expect(run.statuses == [.passed, .passed, .passed], "\(run.report.output)")
        // One for the set-up check before the first scenario, then one a scenario.
        #expect(run.started == 4)
    }

    @Test func aVersion1PortStillGetsAProcessPerScenario() {
        let log = temporaryScenario("", name: "starts")
        let run = pooledRun(countingPort(log: log, reset: false), [PortRunTests.scenario, PortRunTests.scenario])
        #expect(run.statuses == [.passed, .passed], "\(run.report.output)")
        // One a scenario, and one for the set-up check (a version 1 port cannot be reset to serve on).
        #expect(run.started == 3)
    }

    @Test func thePythonPortAndTheShimAreReset() throws {
        let folder = packageRoot + "/Scenarios/authz"
        // The shim when the debug binary is built (`swift build`; `make test` builds it first).
        let shim = passimBinary
        let shimCommand = FileManager.default.isExecutableFile(atPath: shim) ? [shim + " shim"] : []
        for command in [PortRunTests.pythonPort] + shimCommand {
            let pool = PortPool()
            defer { pool.closeAll() }
            var options = SuiteRun.Options()
            options.runtime = ScenarioRunner.Runtime(
                network: .simulated, port: PortCommand(command: command, pool: pool))
            let report = SuiteRun(options: options).run(paths: [folder])
            #expect(report.status == .passed, "\(report.output)")
            #expect(report.results.count > 10 && pool.processesStarted == 1, "\(command)")
        }
    }

    @Test func aSilentPortTimesOutInsteadOfHanging() throws {
        let started = Date()
        let report = try run(port("import time; time.sleep(30); return []"), timeout: Millis(300))
        #expect(report.status == .failed)
        #expect(
            report.results.first?.failure?.message.contains("did not answer within 300ms") == true, "\(report.output)")
        #expect(Date().timeIntervalSince(started) < 5)
    }

    /// A port that takes longer to start than `--port-timeout` (an interpreter on a loaded machine)
    /// is given `PortLimits.startupSeconds` for its `ready` line; its answers keep the short timeout.
    @Test func aSlowStartIsNotAnAnswerTimeout() throws {
        let slow = "sleep 0.8; " + port("return ['{\"type\": \"idle\"}']")
        let report = try run(slow, timeout: Millis(300))
        #expect(report.status != .unusable && !report.output.contains("did not answer within"), "\(report.output)")
    }

    /// Issue 25: a port that cannot start is one set-up message, before any scenario runs, not a
    /// failure per scenario.
    @Test func aPortThatCannotStartIsOneMessageBeforeAnyScenario() throws {
        var options = SuiteRun.Options()
        options.runtime = ScenarioRunner.Runtime(port: PortCommand(command: "exit 7", timeout: .seconds(5)))
        let files = [temporaryScenario(PortRunTests.scenario), temporaryScenario(PortRunTests.scenario)]
        let report = SuiteRun(options: options).run(paths: files)
        #expect(report.status == .unusable)
        #expect(report.results.isEmpty)
        #expect(report.errors.hasPrefix("passim: the port did not start (exit 7): "), "\(report.errors)")
        #expect(report.errors.contains("exited with status 7"))
        #expect(report.errors.split(separator: "\n").count <= 4, "one message, not one per scenario")
    }

    /// Issue 25: a first line that is not `ready` is quoted.
    @Test func aPortWhoseFirstLineIsNotReadyIsQuoted() throws {
        let report = try run(port("return []", hello: "hello there"))
        #expect(report.status == .unusable)
        #expect(
            report.errors.contains("the port must answer hello with a ready line, got: hello there"), "\(report.errors)"
        )
    }

    /// Issue 12 row 14: 300 MB on the port's standard error grew a file without bound. Only the tail is
    /// kept, and it is what the failure shows.
    @Test func aPortFloodingItsStandardErrorShowsItsTail() throws {
        let report = try run(
            "head -c 300000000 /dev/zero | tr '\\0' x >&2; echo >&2; echo the-end >&2; exit 7",
            timeout: .seconds(60))
        let message = report.errors
        #expect(message.contains("exited with status 7"), "\(message.prefix(300))")
        #expect(message.contains("port stderr:\n"))
        #expect(message.hasSuffix("the-end\n"), "\(message.suffix(100))")
        #expect(message.utf8.count < 10_000)
    }

    // MARK: The live network

    static let pythonPort = "python3 " + packageRoot + "/Fixtures/ports/python/port.py"

    /// The port sends its own requests: a whole login works, so the SP's session cookie, set in the
    /// harness's browser, reached the port's `sessionDevice` request. The replay line says `--live`.
    @Test func aPortLogsInOverItsOwnHTTP() throws {
        let text = try String(contentsOfFile: packageRoot + "/Scenarios/authn/classic-login.scenario", encoding: .utf8)
        let report = try run(PortRunTests.pythonPort, text, network: .live)
        #expect(report.status == .passed, "\(report.output)")
        #expect(ScenarioRunner.Runtime(network: .live, port: PortCommand(command: "p")).flags == "--live --port 'p' ")
    }

    /// A host that goes down refuses the port's connections, and listens again once up: the port holds
    /// none of the harness's sockets.
    @Test func aHostDownRefusesThePortAndComesBack() throws {
        let text = try String(contentsOfFile: packageRoot + "/Scenarios/faults/sp-back-up.scenario", encoding: .utf8)
        let report = try run(PortRunTests.pythonPort, text, network: .live)
        #expect(report.status == .passed, "\(report.output)")
    }

    @Test(arguments: [
        // Each network has its own way of sending: a port must use the one of its hello.
        (
            ScenarioRunner.Runtime.Network.live,
            "return ['{\"type\": \"request\", \"app\": \"app\", \"id\": 1, \"method\": \"GET\", \"url\": \"https://sp.test/config/REQ1\"}', '{\"type\": \"idle\"}']",
            "request on the live network"
        ),
        (
            .simulated,
            "return ['{\"type\": \"fetched\", \"app\": \"app\", \"id\": 1, \"method\": \"GET\", \"url\": \"https://sp.test/config/REQ1\", \"status\": 200}', '{\"type\": \"idle\"}']",
            "fetched on the harness network"
        ),
    ])
    func aPortMustSendTheWayItsNetworkSays(_ network: ScenarioRunner.Runtime.Network, _ body: String, _ message: String)
        throws
    {
        let report = try run(port(body), network: network)
        #expect(report.status == .failed)
        #expect(report.results.first?.failure?.message.contains(message) == true, "\(report.output)")
    }

    @Test func aPortWithoutTheLiveNetworkIsUnimplemented() throws {
        let report = try run(
            port("return []", hello: #"{"type": "unimplemented", "what": "network live"}"#), network: .live)
        #expect(report.unimplemented == 1, "\(report.output)")
        #expect(
            report.results.first?.failure?.message.contains("does not implement network live") == true,
            "\(report.output)")
    }
}
