import Foundation
import PassModel
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A port's process: `/bin/sh -c COMMAND` with its standard input and output as line pipes and the
/// tail of its standard error kept (shown when a scenario fails). Every read and every write has a
/// deadline (the harness's end of the input pipe is non-blocking), so a silent port, or one spinning
/// where it never reads its input, never hangs the harness: `stop` then kills it at once.
///
/// Spawned with `posix_spawn` in a session of its own rather than with Foundation's `Process`: the
/// shell may fork the port instead of exec'ing it, and a port may start helpers or daemons; `close`
/// ends all of them (see `endEverything`). The harness's pipe ends are close-on-exec, so the ports of
/// scenarios run at once (`--jobs`) never hold each other's pipes open.
final class PortProcess: PortTransport {
    private let pid: pid_t
    /// The harness's ends: the port's standard input (write) and output (read).
    private var inputFD: Int32
    private let outputFD: Int32
    private let stderrTail: StderrTail
    /// `NAME=VALUE` put in the port's environment, unique to this port: its descendants inherit it.
    private let marker: String
    private var buffer: [UInt8] = []
    private var closed = false
    /// `waitpid`'s status once the shell has exited.
    private var exitStatus: Int32?
    /// Scenarios this process has served (protocol 1.1 resets; see `PortPool`).
    var scenariosServed = 0
    /// The watchdog that kills the port's process group if this process dies without closing it
    /// (see `startWatchdog`), and the write end of the pipe it waits on; nil if it could not start.
    private var watchdog: (pid: pid_t, fd: Int32)?

    private static let spawning = NSLock()

    /// A harness that writes to a port that has exited must get EPIPE, not die of SIGPIPE.
    private static let ignorePipeSignal: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+), which its header declares only
    /// under `_GNU_SOURCE`, out of Swift's reach: looked up by name instead. nil on an older libc,
    /// where the port then inherits this process's other descriptors.
    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
    private static let closeFrom: CloseFrom? = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: CloseFrom.self)
    }()

    #if canImport(Glibc)
        /// glibc's `POSIX_SPAWN_SETSID` (2.26+), declared only under `_GNU_SOURCE`.
        private static let spawnSetSID: Int16 = 0x80
        // glibc's spawn types are structs, Darwin's pointers that init sets.
        private static func emptySpawnActions() -> posix_spawn_file_actions_t { posix_spawn_file_actions_t() }
        private static func emptySpawnAttributes() -> posix_spawnattr_t { posix_spawnattr_t() }
    #else
        /// Darwin's `POSIX_SPAWN_SETSID` (macOS 10.15+).
        private static let spawnSetSID: Int16 = 0x0400
        private static func emptySpawnActions() -> posix_spawn_file_actions_t { nil }
        private static func emptySpawnAttributes() -> posix_spawnattr_t { nil }
    #endif

    init(command: String) throws(PortError) {
        _ = PortProcess.ignorePipeSignal
        marker = "PASSIM_PORT_INSTANCE=" + UUID().uuidString
        // Pipes are made and marked close-on-exec under one lock with the spawn, so a port started at
        // the same moment on another thread never inherits them (glibc's pipe2 is not in Swift's Glibc).
        PortProcess.spawning.lock()
        defer { PortProcess.spawning.unlock() }
        var input: [Int32] = [-1, -1], output: [Int32] = [-1, -1], error: [Int32] = [-1, -1]
        guard pipe(&input) == 0 else { throw PortError("cannot make a pipe: \(String(cString: strerror(errno)))") }
        guard pipe(&output) == 0 else {
            closeDescriptor(input[0]); closeDescriptor(input[1])
            throw PortError("cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        guard pipe(&error) == 0 else {
            (input + output).forEach { _ = closeDescriptor($0) }
            throw PortError("cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        for fd in input + output + error { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        defer { closeDescriptor(input[0]); closeDescriptor(output[1]); closeDescriptor(error[1]) }
        var actions = PortProcess.emptySpawnActions()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, error[1], 2)
        // The port gets standard input, output and error only. Sockets of this process are not all
        // close-on-exec (SwiftNIO's are not): a port holding a copy of a live server's listener would
        // keep a host "down" listening, and stop it from listening again once "up".
        _ = PortProcess.closeFrom?(&actions, 3)
        var attributes = PortProcess.emptySpawnAttributes()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A session of its own (whose id is the shell's pid, also its process group): what the port
        // starts stays in it unless it calls setsid itself; see `endEverything`.
        posix_spawnattr_setflags(&attributes, PortProcess.spawnSetSID)

        let arguments = ["/bin/sh", "-c", command].map { (text: String) -> UnsafeMutablePointer<CChar>? in strdup(text)
        }
        let environment =
            ProcessInfo.processInfo.environment.map { (key, value) -> UnsafeMutablePointer<CChar>? in
                strdup(key + "=" + value)
            } + [strdup(marker)]
        defer { (arguments + environment).forEach { free($0) } }
        var argv = arguments + [nil], envp = environment + [nil]
        var child: pid_t = 0
        let spawned = posix_spawn(&child, "/bin/sh", &actions, &attributes, &argv, &envp)
        guard spawned == 0 else {
            closeDescriptor(input[1]); closeDescriptor(output[0]); closeDescriptor(error[0])
            throw PortError("cannot start the port (\(command)): \(String(cString: strerror(spawned)))")
        }
        pid = child
        inputFD = input[1]
        outputFD = output[0]
        // Non-blocking on the harness's side only (the port's end is another open file description):
        // a port that stops reading fills the pipe, and a write must then wait with a deadline.
        _ = fcntl(inputFD, F_SETFL, fcntl(inputFD, F_GETFL) | O_NONBLOCK)
        stderrTail = StderrTail(fd: error[0])
        watchdog = PortProcess.startWatchdog(group: child)
    }

    /// A `/bin/sh` in a session of its own, blocked reading a pipe whose write end only this process
    /// holds (close-on-exec). However this process ends (Ctrl-C, SIGKILL, a crash), the pipe closes,
    /// the read returns and the watchdog kills the port's process group: a port that never reads its
    /// input would not notice the harness has gone, and would spin on for ever. A session of its own,
    /// and the signals a terminal sends ignored, so that it outlives a Ctrl-C of the harness. Called
    /// under `spawning`.
    private static func startWatchdog(group: pid_t) -> (pid: pid_t, fd: Int32)? {
        var lifeline: [Int32] = [-1, -1]
        guard pipe(&lifeline) == 0 else { return nil }
        for fd in lifeline { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        defer { closeDescriptor(lifeline[0]) }
        var actions = PortProcess.emptySpawnActions()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, lifeline[0], 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        _ = PortProcess.closeFrom?(&actions, 3)
        var attributes = PortProcess.emptySpawnAttributes()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, PortProcess.spawnSetSID)
        let script = "trap '' INT TERM HUP QUIT PIPE; read line; kill -9 -$1 2>/dev/null"
        let arguments = ["/bin/sh", "-c", script, "passim-port-watchdog", String(group)].map {
            (text: String) -> UnsafeMutablePointer<CChar>? in strdup(text)
        }
        let environment: [UnsafeMutablePointer<CChar>?] = [strdup("PATH=/usr/bin:/bin")]
        defer { (arguments + environment).forEach { free($0) } }
        var argv = arguments + [nil], envp = environment + [nil]
        var child: pid_t = 0
        guard posix_spawn(&child, "/bin/sh", &actions, &attributes, &argv, &envp) == 0 else {
            closeDescriptor(lifeline[1])
            return nil
        }
        return (child, lifeline[1])
    }

    /// Waits up to a second for the shell to exit (polling: the harness has no child-exit events).
    private func waitForExit() {
        let deadline = DispatchTime.now().uptimeNanoseconds + 1_000_000_000
        while isRunning, DispatchTime.now().uptimeNanoseconds < deadline { usleep(2_000) }
    }

    private var isRunning: Bool {
        if exitStatus != nil { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { exitStatus = status }
        return exitStatus == nil
    }

    /// Whether the shell is still running: a kept process that has exited is not reused.
    var alive: Bool { !closed && isRunning }

    /// Forgets the standard error written so far: a reused process's failure report shows only what
    /// it wrote for the scenario at hand.
    func forgetErrorTail() { stderrTail.clear() }

    /// Writes one line (a newline is added), by `deadline`: a port that does not read its input
    /// within it (spinning, or blocked on something else) fails with a timeout.
    func write(_ line: String, before deadline: ContinuousClock.Instant) throws(PortError) {
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        let fd = inputFD
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { writeDescriptor(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK {
                    // The pipe is full: wait until the port reads, or the deadline.
                    guard let left = PortProcess.millisecondsLeft(until: deadline) else {
                        throw PortError.timedOut("the port did not read its input")
                    }
                    var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&poller, 1, left)
                    continue
                }
                let reason = String(cString: strerror(errno))
                // EPIPE: the port closed its input, most likely exiting; say how it ended if it does.
                waitForExit()
                throw PortError(isRunning ? "cannot write to the port: \(reason)" : exitText)
            }
            offset += n
        }
    }

    /// Milliseconds left until `deadline` for `poll` (at least 1, so a wait never spins), nil once it
    /// has passed.
    private static func millisecondsLeft(until deadline: ContinuousClock.Instant) -> Int32? {
        let left = deadline - ContinuousClock.now
        guard left > .zero else { return nil }
        let (seconds, attoseconds) = left.components
        return Int32(clamping: max(1, seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1))
    }

    /// Reads one line, waiting until `deadline` at most: a line's bytes trickled forever do not
    /// move it, so a port that keeps writing without ending its line still times out.
    func readLine(before deadline: ContinuousClock.Instant) throws(PortError) -> String {
        let fd = outputFD
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line.hasSuffix("\r") ? String(line.dropLast()) : line
            }
            guard let left = PortProcess.millisecondsLeft(until: deadline) else {
                throw PortError.timedOut("the port did not answer")
            }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, left)
            if ready < 0 {
                if errno == EINTR { continue }
                throw PortError("cannot read from the port: \(String(cString: strerror(errno)))")
            }
            guard ready > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw PortError("cannot read from the port: \(String(cString: strerror(errno)))")
            }
            if n == 0 {
                // End of output: the port is exiting; give it a moment so the message can say how.
                waitForExit()
                throw PortError(exitText)
            }
            buffer += chunk[..<n]
            if buffer.count > PortLimits.lineBytes, !buffer.contains(0x0A) {
                throw PortError("the port wrote a line over \(PortLimits.lineBytes) bytes (limit: port-line-bytes)")
            }
        }
    }

    /// A line the port wrote without being asked (after its `idle`), if one comes within `wait`.
    func unaskedLine(wait: Millis = .zero) -> String? {
        if buffer.isEmpty {
            var poller = pollfd(fd: outputFD, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(wait.value)) > 0, poller.revents & Int16(POLLIN) != 0 else { return nil }
        }
        return try? readLine(before: ContinuousClock.now + .milliseconds(100))
    }

    private var exitText: String {
        guard !isRunning, let status = exitStatus else { return "the port closed its standard output" }
        // waitpid's status: the low 7 bits are the signal that ended it, else the exit code is in bits 8-15.
        if status & 0x7f != 0 { return "the port was killed by signal \(status & 0x7f)" }
        return "the port exited with status \((status >> 8) & 0xff)"
    }

    /// The last lines the port wrote to its standard error.
    func errorTail(lines: Int = 10) -> String {
        let text = String(decoding: stderrTail.tail().suffix(8192), as: UTF8.self)
        return text.split(separator: "\n", omittingEmptySubsequences: false).suffix(lines).joined(separator: "\n")
    }

    /// Bytes of standard error held (never over `PortLimits.stderrBytes`).
    var errorBytesKept: Int { stderrTail.count }

    /// Closes its input, gives it a second to exit, then ends everything it started.
    func close() { end(grace: true) }

    /// Ends everything the port started now, without the second to exit: a port that did not answer
    /// in time may be spinning where it never reads its input, and would only burn that second.
    func stop() { end(grace: false) }

    private func end(grace: Bool) {
        guard !closed else { return }
        closed = true
        closeDescriptor(inputFD)
        if grace { waitForExit() }
        endEverything()
        if isRunning {
            var status: Int32 = 0
            if waitpid(pid, &status, 0) == pid { exitStatus = status }
        }
        closeDescriptor(outputFD)
        stderrTail.stop()
    }

    /// Kills the port's process group, then every process still in its session or carrying its
    /// marker. The group alone missed a helper the port put in a group of its own; the session
    /// catches those, but a daemon that double-forks with `setsid` leaves the session too, and only
    /// the marker it inherited in its environment still ties it to this port (a process that clears
    /// its environment is beyond reach without cgroups). Processes are found by scanning /proc, the
    /// only list of them Linux offers (macOS has none: there the group is all this kills); the scan
    /// repeats while it finds some, since one may fork while its siblings are being killed.
    private func endEverything() {
        // The watchdog first: once the group is gone its id may be reused, and the watchdog must
        // never kill a group that is no longer the port's.
        if let watchdog {
            kill(watchdog.pid, SIGKILL)
            var status: Int32 = 0
            _ = waitpid(watchdog.pid, &status, 0)
            closeDescriptor(watchdog.fd)
            self.watchdog = nil
        }
        kill(-pid, SIGKILL)
        for _ in 0..<10 {
            let left = PortProcess.processes(inSession: pid, orCarrying: marker)
            if left.isEmpty { return }
            for other in left { kill(other, SIGKILL) }
        }
    }

    /// Live processes (zombies left out: they are dead, awaiting their parent) whose session is
    /// `session` or whose environment holds `marker`, this process excepted.
    static func processes(inSession session: pid_t, orCarrying marker: String) -> [pid_t] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        let own = getpid()
        let needle = Array(marker.utf8)
        var found: [pid_t] = []
        for name in entries {
            guard let id = pid_t(name), id != own, let stat = readProcFile("/proc/\(name)/stat", limit: 4096) else {
                continue
            }
            // `pid (comm) state ppid pgrp session ...`: comm may hold spaces and parentheses, so
            // fields are counted after its last ')'.
            guard let close = stat.lastIndex(of: UInt8(ascii: ")")) else { continue }
            let fields = stat[(close + 1)...].split(separator: UInt8(ascii: " "))
            guard fields.count > 3, fields[0].first != UInt8(ascii: "Z") else { continue }
            if pid_t(String(decoding: fields[3], as: UTF8.self)) == session {
                found.append(id)
                continue
            }
            if let environ = readProcFile("/proc/\(name)/environ", limit: 1 << 20),
                environ.split(separator: 0).contains(where: { $0.elementsEqual(needle) })
            {
                found.append(id)
            }
        }
        return found
    }

    /// A /proc file's bytes (its size reads as 0, so it is read to its end), at most `limit`.
    private static func readProcFile(_ path: String, limit: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { closeDescriptor(fd) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while out.count < limit {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            out += chunk[..<n]
        }
        return out
    }

    deinit { close() }
}

// The C library's `close` and `write`, by other names: PortProcess's own `close()` and `write(_:before:)`
// hide the C functions inside the class, and the module that holds them differs by platform.
@discardableResult
private func closeDescriptor(_ fd: Int32) -> Int32 {
    #if canImport(Glibc)
        Glibc.close(fd)
    #else
        Darwin.close(fd)
    #endif
}

private func writeDescriptor(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
        Glibc.write(fd, bytes, count)
    #else
        Darwin.write(fd, bytes, count)
    #endif
}
