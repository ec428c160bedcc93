import Foundation
import PassModel
import Testing
@testable import Port

@Suite struct PortProcessTests {
    /// A port gets standard input, output and error, nothing else of the harness. SwiftNIO's sockets
    /// are not close-on-exec: a port that inherited a live server's listener kept a host "down"
    /// listening (its requests timed out instead of being refused) and kept it from listening again.
    @Test func thePortInheritsOnlyItsThreeStandardDescriptors() throws {
        let leaked = open("/dev/null", O_RDONLY)  // deliberately not close-on-exec
        #expect(leaked > 2)
        defer { close(leaked) }
        let process = try PortProcess(
            command: "test -e /proc/$$/fd/\(leaked) && echo inherited || echo clean; cat >/dev/null")
        defer { process.close() }
        #expect(try process.readLine(timeout: .seconds(5)) == "clean")
    }
}

/// Issue 12 row 14: what a port starts ends with its scenario, and its stderr is kept up to a cap.
@Suite struct PortProcessCleanupTests {
    /// `/proc/PID/stat`'s state and session, nil when the process is gone.
    static func stateAndSession(_ pid: pid_t) -> (state: String, session: pid_t)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        return (String(fields[0]), pid_t(fields[3]) ?? 0)
    }

    static func isGone(_ pid: pid_t) -> Bool {
        for _ in 0..<100 {
            guard let s = stateAndSession(pid), s.state != "Z" else { return true }
            usleep(10_000)
        }
        return false
    }

    @Test func aDaemonThatDoubleForksWithSetsidIsEndedWithThePort() throws {
        let process = try PortProcess(
            command: "(setsid sh -c 'echo daemon $$; exec sleep 300' &); echo shell $$; cat >/dev/null")
        var pids: [String: pid_t] = [:]
        for _ in 0..<2 {
            let words = try process.readLine(timeout: .seconds(5)).split(separator: " ")
            pids[String(words.first ?? "")] = pid_t(words.last ?? "")
        }
        let daemon = pids["daemon"] ?? 0, shell = pids["shell"] ?? 0
        #expect(daemon > 0 && shell > 0)
        // It left the port's session (and process group): only its inherited marker ties it to the port.
        let before = try #require(Self.stateAndSession(daemon))
        #expect(before.session != shell && before.session == daemon)
        #expect(Self.stateAndSession(shell)?.session == shell, "the port runs in a session of its own")
        process.close()
        #expect(Self.isGone(daemon))
    }

    @Test func aHelperInTheSessionButAnotherGroupIsEndedWithThePort() throws {
        // python3 puts a child in a process group of its own, leaving the session as it is; without
        // the port's marker in its environment, only the session still ties it to the port.
        let script =
            "import os,sys,time\npid=os.fork()\nif pid==0:\n os.setpgid(0,0); print(os.getpid(), flush=True); time.sleep(300)\nelse:\n os._exit(0)"
        let process = try PortProcess(command: "env -u PASSIM_PORT_INSTANCE python3 -c '\(script)'; cat >/dev/null")
        let helper = pid_t(try process.readLine(timeout: .seconds(5))) ?? 0
        #expect(helper > 0)
        process.close()
        #expect(Self.isGone(helper))
    }

    @Test func standardErrorIsKeptUpToTheCap() throws {
        let process = try PortProcess(
            command:
                "head -c 300000000 /dev/zero | tr '\\0' x >&2; echo >&2; echo the-end >&2; echo done; cat >/dev/null")
        defer { process.close() }
        #expect(try process.readLine(timeout: .seconds(60)) == "done")
        let tail = process.errorTail()
        #expect(tail.hasSuffix("the-end\n"), "\(tail.suffix(40))")
        #expect(process.errorBytesKept <= PortLimits.stderrBytes)
        #expect(process.errorBytesKept > 0)
    }
}
