import Entitlement
import Foundation
import PassModel
import Testing
@testable import Port

/// Every wait of the harness on a port ends at `--port-timeout`, whatever the port does meanwhile:
/// silent after its hello, writing line after line without its `idle`, never reading its input, deaf
/// to a second `hello`. The port is then killed at once with its process group, the message names
/// what the harness was waiting for and quotes the tail of the port's standard error.
@Suite struct PortHangTests {
    /// A port that answers `hello`, then runs `then` (a shell command) in place of answering; it
    /// starts a helper in its process group first, as a port's helpers are, and ignores SIGTERM.
    static func port(then: String) -> String {
        """
        trap '' TERM; sleep 3600 & read hello; \
        echo '{"type":"ready","protocol":1,"implementation":"hang","reset":true}'; \
        echo "going to hang: \(then.replacingOccurrences(of: "'", with: ""))" >&2; \(then)
        """
    }

    static let call = PortMessage.line(
        "call",
        [("app", .string("app")), ("call", .string("getSelectedProvider")), ("args", .dict([])), ("now", .int(0))])

    /// Live processes (zombies left out) whose process group is `group`.
    static func members(ofGroup group: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(pid_t.init).filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return false }
            // After comm: state, ppid, pgrp.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 2 && fields[0] != "Z" && pid_t(fields[2]) == group
        }
    }

    /// The process groups of every port started under `marker` so far (a port's shell leads its group).
    static func groups(carrying marker: String) -> Set<pid_t> {
        Set(PortProcess.processes(inSession: -1, orCarrying: marker).map { getpgid($0) }.filter { $0 > 0 })
    }

    /// Runs one call through a session of `command` with a 300 ms timeout; what failed, how long it
    /// took, and whether the port's group outlived it.
    func hang(_ command: String, message: String = PortHangTests.call) throws -> (
        failure: String, seconds: Double, leftover: [pid_t]
    ) {
        let marker = "PASSIM_HANG_TEST=\(UUID().uuidString)"
        let settings = PortCommand(command: "export \(marker); " + command, timeout: Millis(300))
        let session = try PortSession(settings, apps: ["app"], engine: EngineConfiguration(), at: .simulationStart)
        // The marker is in the environment of the port's helper (`sleep 3600 &`) once it has exec'd,
        // which a loaded machine may not have done yet when `ready` arrives: look again for a while.
        var found = Self.groups(carrying: marker).first
        for _ in 0..<250 where found == nil {
            Thread.sleep(forTimeInterval: 0.02)
            found = Self.groups(carrying: marker).first
        }
        let group = try #require(found, "the port runs")
        let started = ContinuousClock.now
        _ = session.exchange(message, app: "app", at: .simulationStart)
        let took = (ContinuousClock.now - started).components
        let seconds = Double(took.seconds) + Double(took.attoseconds) / 1e18
        // No `close` yet: the port must already be gone, killed at the timeout.
        let leftover = Self.members(ofGroup: group)
        session.close()
        return (session.failure?.description ?? "", seconds, leftover)
    }

    /// Bound: the answer's 300 ms, the kill, the stderr read (at most 200 ms): under 30 s however loaded the machine (without it: never).
    @Test func aPortSpinningAfterItsHelloIsKilledAtTheTimeoutWithItsGroup() throws {
        let result = try hang(Self.port(then: "while :; do :; done"))
        #expect(
            result.failure.hasPrefix(
                #"port: the port did not answer within 300ms (--port-timeout): no idle in answer to {"type":"call","app":"app","call":"getSelectedProvider""#
            ), "\(result.failure)")
        #expect(
            result.failure.contains("; its processes were killed\nport stderr:\ngoing to hang: while :; do :; done"))
        #expect(result.leftover.isEmpty, "the port's group outlived its timeout: \(result.leftover)")
        #expect(result.seconds < 30, "\(result.seconds) s")
    }

    /// A port that writes without end and never says `idle` is not answering: the deadline is the
    /// answer's, not each line's. Bound: 30 s (without the deadline: never).
    @Test func linesWithoutIdleDoNotMoveTheDeadline() throws {
        let timer = #"{"type":"timer","app":"app","id":1,"at":0}"#
        let result = try hang(Self.port(then: "read call; while :; do echo '\(timer)'; sleep 0.01; done"))
        #expect(
            result.failure.contains("did not answer within 300ms (--port-timeout): no idle after "), "\(result.failure)"
        )
        #expect(result.failure.contains(" lines in answer to {\"type\":\"call\""))
        #expect(result.leftover.isEmpty)
        #expect(result.seconds < 30, "\(result.seconds) s")
    }

    /// A port that never reads its input fills the pipe; the harness's write has the same deadline
    /// (a blocking write hung for ever). The message is cut in the report. Bound: 30 s (without the deadline: never).
    @Test func aPortThatStopsReadingFailsTheWriteAtTheTimeout() throws {
        let body = String(repeating: "x", count: 300_000)
        let big = PortMessage.line(
            "response",
            [
                ("app", .string("app")), ("id", .int(1)), ("status", .int(200)), ("headers", .list([])),
                ("body", .string(body)), ("now", .int(0)),
            ])
        let result = try hang(Self.port(then: "sleep 3600"), message: big)
        #expect(
            result.failure.contains(
                #"did not read its input within 300ms (--port-timeout): no idle in answer to {"type":"response""#),
            "\(result.failure.prefix(300))")
        #expect(result.failure.contains("…; its processes were killed"), "the 300 KB line is cut")
        #expect(result.failure.utf8.count < 1_000)
        #expect(result.leftover.isEmpty)
        #expect(result.seconds < 30, "\(result.seconds) s")
    }

    /// A process kept for the next scenario (protocol 1.1) that went deaf after its last `idle`: its
    /// next `hello` has `--port-timeout`, not the start's 10 s, and a fresh process takes its place.
    /// Bound: 8 s, under the start's 10 s, with room for a loaded machine.
    @Test func aKeptProcessThatNoLongerAnswersHelloIsReplacedAtTheTimeout() throws {
        let marker = "PASSIM_HANG_TEST=\(UUID().uuidString)"
        let pool = PortPool()
        defer { pool.closeAll() }
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("passim-hang-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        // Each process answers its first hello, then spins where it never reads a second one.
        let command = "export \(marker); echo start >> \(log); " + Self.port(then: "while :; do :; done")
        let settings = PortCommand(command: command, timeout: Millis(300), pool: pool)
        let first = try PortSession(settings, apps: ["app"], engine: EngineConfiguration(), at: .simulationStart)
        first.close()  // sound: back to the pool, spinning
        let started = ContinuousClock.now
        let second = try PortSession(settings, apps: ["app"], engine: EngineConfiguration(), at: .simulationStart)
        #expect(ContinuousClock.now - started < .seconds(8))
        #expect(pool.processesStarted == 2, "the deaf process was replaced")
        #expect(second.failure == nil)
        second.close()
        pool.closeAll()
        #expect(Self.groups(carrying: marker).isEmpty, "no port outlives the pool")
        #expect((try? String(contentsOfFile: log, encoding: .utf8))?.split(separator: "\n").count == 2)
    }

    /// A fresh process that never answers `hello` has `port-startup` (10 s, an interpreter may start
    /// slowly), then is killed, the message naming the `ready` it owed. Bound: 15 s.
    @Test func aPortThatNeverAnswersHelloIsKilledNamingTheReadyItOwed() throws {
        let marker = "PASSIM_HANG_TEST=\(UUID().uuidString)"
        let settings = PortCommand(
            command: "export \(marker); trap '' TERM; sleep 3600 & echo spinning >&2; while :; do :; done",
            timeout: Millis(300))
        let started = ContinuousClock.now
        var message = ""
        do {
            _ = try PortSession(settings, apps: ["app"], engine: EngineConfiguration(), at: .simulationStart)
        } catch {
            message = error.message
        }
        #expect(
            message.hasPrefix(
                #"the port did not answer within 10s (limit: port-startup): no ready in answer to {"type":"hello""#),
            "\(message)")
        #expect(message.hasSuffix("its processes were killed\nport stderr:\nspinning\n"), "\(message)")
        #expect(ContinuousClock.now - started < .seconds(15))
        #expect(Self.groups(carrying: marker).isEmpty)
    }
}
