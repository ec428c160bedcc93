import Foundation
import PassModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A port's process: `/bin/sh -c COMMAND` with its standard input and output as line pipes and its
/// standard error kept in a file (its tail is shown when a scenario fails). Every read has a deadline,
/// so a silent or stuck port never hangs the harness.
///
/// Spawned with `posix_spawn` in a process group of its own rather than with Foundation's `Process`:
/// the shell may fork the port instead of exec'ing it, and only killing the group stops both (a
/// `Process` waits for the shell's orphaned child). The harness's pipe ends are close-on-exec, so the
/// ports of scenarios run at once (`--jobs`) never hold each other's pipes open.
final class PortProcess {
    private let pid: pid_t
    /// The harness's ends: the port's standard input (write) and output (read).
    private var inputFD: Int32
    private let outputFD: Int32
    private let errorPath: String
    private var buffer: [UInt8] = []
    private var closed = false
    /// `waitpid`'s status once the shell has exited.
    private var exitStatus: Int32?

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

    init(command: String) throws(PortError) {
        _ = PortProcess.ignorePipeSignal
        errorPath = FileManager.default.temporaryDirectory
            .appendingPathComponent("passim-port-\(UUID().uuidString).stderr").path
        // Pipes are made and marked close-on-exec under one lock with the spawn, so a port started at
        // the same moment on another thread never inherits them (glibc's pipe2 is not in Swift's Glibc).
        PortProcess.spawning.lock()
        defer { PortProcess.spawning.unlock() }
        var input: [Int32] = [-1, -1], output: [Int32] = [-1, -1]
        guard pipe(&input) == 0 else { throw PortError("cannot make a pipe: \(String(cString: strerror(errno)))") }
        guard pipe(&output) == 0 else {
            Glibc.close(input[0]); Glibc.close(input[1])
            throw PortError("cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        for fd in input + output { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let errorFD = open(errorPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        defer {
            Glibc.close(input[0]); Glibc.close(output[1])
            if errorFD >= 0 { Glibc.close(errorFD) }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        if errorFD >= 0 { posix_spawn_file_actions_adddup2(&actions, errorFD, 2) }
        // The port gets standard input, output and error only. Sockets of this process are not all
        // close-on-exec (SwiftNIO's are not): a port holding a copy of a live server's listener would
        // keep a host "down" listening, and stop it from listening again once "up".
        _ = PortProcess.closeFrom?(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)

        let arguments = ["/bin/sh", "-c", command].map { (text: String) -> UnsafeMutablePointer<CChar>? in strdup(text) }
        let environment = ProcessInfo.processInfo.environment.map { (key, value) -> UnsafeMutablePointer<CChar>? in
            strdup(key + "=" + value)
        }
        defer { (arguments + environment).forEach { free($0) } }
        var argv = arguments + [nil], envp = environment + [nil]
        var child: pid_t = 0
        let spawned = posix_spawn(&child, "/bin/sh", &actions, &attributes, &argv, &envp)
        guard spawned == 0 else {
            Glibc.close(input[1]); Glibc.close(output[0])
            throw PortError("cannot start the port (\(command)): \(String(cString: strerror(spawned)))")
        }
        pid = child
        inputFD = input[1]
        outputFD = output[0]
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

    /// Writes one line (a newline is added).
    func write(_ line: String) throws(PortError) {
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        let fd = inputFD
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                // EPIPE: the port closed its input, most likely exiting; say how it ended if it does.
                waitForExit()
                throw PortError(isRunning ? "cannot write to the port: \(reason)" : exitText)
            }
            offset += n
        }
    }

    /// Reads one line, waiting at most `timeout`.
    func readLine(timeout: Millis) throws(PortError) -> String {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(timeout.value, 0)) * 1_000_000
        let fd = outputFD
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line.hasSuffix("\r") ? String(line.dropLast()) : line
            }
            let left = Int64(deadline) - Int64(DispatchTime.now().uptimeNanoseconds)
            guard left > 0 else { throw PortError("the port did not answer within \(timeout)") }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(left / 1_000_000 + 1, Int64(Int32.max))))
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
            if buffer.count > PortProcess.maxLine, !buffer.contains(0x0A) {
                throw PortError("the port wrote a line over \(PortProcess.maxLine) bytes")
            }
        }
    }

    /// A line the port wrote without being asked (after its `idle`), if one comes within `wait`.
    func unaskedLine(wait: Millis = .zero) -> String? {
        if buffer.isEmpty {
            var poller = pollfd(fd: outputFD, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(wait.value)) > 0, poller.revents & Int16(POLLIN) != 0 else { return nil }
        }
        return try? readLine(timeout: Millis(100))
    }

    static let maxLine = 16 << 20

    private var exitText: String {
        guard !isRunning, let status = exitStatus else { return "the port closed its standard output" }
        // waitpid's status: the low 7 bits are the signal that ended it, else the exit code is in bits 8-15.
        if status & 0x7f != 0 { return "the port was killed by signal \(status & 0x7f)" }
        return "the port exited with status \((status >> 8) & 0xff)"
    }

    /// The last lines the port wrote to its standard error.
    func errorTail(lines: Int = 10) -> String {
        guard let data = FileManager.default.contents(atPath: errorPath) else { return "" }
        let text = String(decoding: data.suffix(8192), as: UTF8.self)
        return text.split(separator: "\n", omittingEmptySubsequences: false).suffix(lines).joined(separator: "\n")
    }

    /// Closes its input, gives it a second to exit, then kills its whole process group.
    func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(inputFD)
        waitForExit()
        // Whatever the shell left behind (a forked port, its children) goes with the group.
        kill(-pid, SIGKILL)
        if isRunning {
            var status: Int32 = 0
            if waitpid(pid, &status, 0) == pid { exitStatus = status }
        }
        Glibc.close(outputFD)
        try? FileManager.default.removeItem(atPath: errorPath)
    }

    deinit { close() }
}
