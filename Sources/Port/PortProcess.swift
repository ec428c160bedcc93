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
final class PortProcess {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errorPath: String
    private var buffer: [UInt8] = []
    private var closed = false

    /// A harness that writes to a port that has exited must get EPIPE, not die of SIGPIPE.
    private static let ignorePipeSignal: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    init(command: String) throws(PortError) {
        _ = PortProcess.ignorePipeSignal
        errorPath = FileManager.default.temporaryDirectory
            .appendingPathComponent("passim-port-\(UUID().uuidString).stderr").path
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle(forWritingAtPath: errorPath)
        do {
            try process.run()
        } catch {
            throw PortError("cannot start the port (\(command)): \(error.localizedDescription)")
        }
    }

    /// Writes one line (a newline is added).
    func write(_ line: String) throws(PortError) {
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        let fd = input.fileHandleForWriting.fileDescriptor
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                // EPIPE: the port closed its input, most likely exiting; say how it ended if it does.
                let deadline = DispatchTime.now().uptimeNanoseconds + 1_000_000_000
                while process.isRunning, DispatchTime.now().uptimeNanoseconds < deadline { usleep(2_000) }
                throw PortError(process.isRunning ? "cannot write to the port: \(reason)" : exitText)
            }
            offset += n
        }
    }

    /// Reads one line, waiting at most `timeout`.
    func readLine(timeout: Millis) throws(PortError) -> String {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(timeout.value, 0)) * 1_000_000
        let fd = output.fileHandleForReading.fileDescriptor
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
                process.waitUntilExit()
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
            var poller = pollfd(fd: output.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(wait.value)) > 0, poller.revents & Int16(POLLIN) != 0 else { return nil }
        }
        return try? readLine(timeout: Millis(100))
    }

    static let maxLine = 16 << 20

    private var exitText: String {
        if process.isRunning { return "the port closed its standard output" }
        let how = process.terminationReason == .uncaughtSignal ? "was killed by signal" : "exited with status"
        return "the port \(how) \(process.terminationStatus)"
    }

    /// The last lines the port wrote to its standard error.
    func errorTail(lines: Int = 10) -> String {
        guard let data = FileManager.default.contents(atPath: errorPath) else { return "" }
        let text = String(decoding: data.suffix(8192), as: UTF8.self)
        return text.split(separator: "\n", omittingEmptySubsequences: false).suffix(lines).joined(separator: "\n")
    }

    /// Closes its input, gives it a second to exit, then kills it.
    func close() {
        guard !closed else { return }
        closed = true
        try? input.fileHandleForWriting.close()
        let deadline = DispatchTime.now().uptimeNanoseconds + 1_000_000_000
        while process.isRunning, DispatchTime.now().uptimeNanoseconds < deadline { usleep(5_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? output.fileHandleForReading.close()
        try? FileManager.default.removeItem(atPath: errorPath)
    }

    deinit { close() }
}
