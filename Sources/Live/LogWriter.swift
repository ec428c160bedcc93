#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation
import NIOConcurrencyHelpers

/// Where `passim serve` writes its log lines (refused proxy requests, failed TLS handshakes): a file
/// descriptor, standard error by default, written by a thread of its own. A caller (an event loop)
/// only appends to a bounded queue and returns: a pipe nobody reads used to block the event loop in
/// `write` once its 64 KB were full, and a reader that had gone made `FileHandle.write` trap on
/// EPIPE, killing the server. Here a full queue drops the line and counts it, a
/// failed write counts its line as dropped, and once a write succeeds again one line says how many
/// were lost. `SIGPIPE` is ignored, so a closed reader is an error code, never a signal.
public final class LogWriter: Sendable {
    /// `log-lines`: lines waiting to be written; past it a line is dropped and counted.
    public static let maxQueuedLines = 1024
    /// `log-bytes`: bytes waiting to be written (a line is at most `LogText.maxLineBytes`).
    public static let maxQueuedBytes = 256 * 1024

    private struct Queue {
        var lines: [String] = []
        var bytes = 0
        /// Dropped since the last report line.
        var unreported = 0
        var dropped = 0
        var written = 0
        var stopped = false
    }

    private let descriptor: Int32
    private let prefix: String
    private let queue = NIOLockedValueBox(Queue())
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// `descriptor`: where lines go (2: standard error); `prefix` starts every line.
    public init(descriptor: Int32 = 2, prefix: String = "") {
        self.descriptor = descriptor
        self.prefix = prefix
        LogWriter.ignoreSIGPIPE()
        let thread = Thread { [self] in run() }
        thread.name = "passim-log"
        thread.start()
    }

    /// A closed pipe must make `write` fail with EPIPE rather than end the process.
    public static func ignoreSIGPIPE() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Queues one line (made safe by `LogText.line`); never blocks.
    public func write(_ line: String) {
        let text = prefix + LogText.line(line) + "\n"
        let queued = queue.withLockedValue { q -> Bool in
            guard !q.stopped, q.lines.count < LogWriter.maxQueuedLines,
                q.bytes + text.utf8.count <= LogWriter.maxQueuedBytes
            else {
                q.dropped += 1
                q.unreported += 1
                return false
            }
            q.lines.append(text)
            q.bytes += text.utf8.count
            return true
        }
        if queued { wake.signal() }
    }

    /// Lines dropped so far (queue full, or the write failed).
    public var dropped: Int { queue.withLockedValue { $0.dropped } }
    /// Lines written so far.
    public var written: Int { queue.withLockedValue { $0.written } }

    /// Ends the writing thread once the queued lines are written (or fail), waiting for it up to
    /// `timeout` (a write blocked on a pipe nobody reads may never return): after a `true`, the
    /// descriptor may be closed without a late write reaching whatever reuses its number.
    @discardableResult
    public func stop(timeout: Duration = .seconds(2)) -> Bool {
        queue.withLockedValue { $0.stopped = true }
        wake.signal()
        let (seconds, attoseconds) = timeout.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        return finished.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success
    }

    private func run() {
        while true {
            wake.wait()
            let (lines, unreported, stopped) = queue.withLockedValue { q -> ([String], Int, Bool) in
                let taken = (q.lines, q.unreported, q.stopped)
                q.lines = []
                q.bytes = 0
                q.unreported = 0
                return taken
            }
            var failed = 0
            var written = 0
            if unreported > 0 {
                if writeAll(
                    prefix + "\(unreported) log line(s) dropped: the log could not keep up or could not be written\n")
                {
                    written += 1
                } else {
                    failed += unreported
                }
            }
            for line in lines {
                if writeAll(line) { written += 1 } else { failed += 1 }
            }
            queue.withLockedValue { q in
                q.written += written
                q.dropped += failed
                // A line that could not be written is reported later, like one that found no room.
                q.unreported += failed
            }
            if stopped {
                finished.signal()
                return
            }
        }
    }

    /// Writes all of `text`, retrying after EINTR and short writes; false on any other error.
    private func writeAll(_ text: String) -> Bool {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { raw in
                #if canImport(Glibc)
                    Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                #else
                    Darwin.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                #endif
            }
            if n > 0 {
                offset += n
            } else if n < 0, errno == EINTR {
                continue
            } else {
                return false
            }
        }
        bytes.removeAll()
        return true
    }
}

/// What makes a value from the network safe to put in a log line: every control character escaped
/// (an LF cannot forge a line, an ESC cannot reach a terminal), user-info and secrets redacted
///.
public enum LogText {
    /// `log-line-bytes`: a line is cut past this many bytes.
    public static let maxLineBytes = 4096

    /// The line with its control characters (C0, DEL, C1, and the line and paragraph separators)
    /// written as `\xHH` / `\u{HHHH}`, cut at `maxLineBytes`.
    public static func line(_ text: String) -> String {
        var out = ""
        var bytes = 0
        for scalar in text.unicodeScalars {
            let piece: String
            switch scalar.value {
            case 0x00..<0x20, 0x7F:
                piece = "\\x" + hex(scalar.value, width: 2)
            case 0x80..<0xA0, 0x2028, 0x2029, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
                piece = "\\u{" + hex(scalar.value, width: 4) + "}"
            default:
                piece = String(scalar)
            }
            bytes += piece.utf8.count
            if bytes > maxLineBytes {
                out += "…"
                break
            }
            out += piece
        }
        return out
    }

    private static func hex(_ v: UInt32, width: Int) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - s.count)) + s
    }

    /// Query parameter names whose values are never logged (compared lowercased, by containment).
    static let secretNames = [
        "pass", "pwd", "token", "secret", "signature", "sig", "auth", "key", "assertion",
        "saml", "session", "cookie", "code", "credential", "nonce",
    ]

    /// A URL or `CONNECT` target as a log shows it: user-info replaced by `***@`, the value of every
    /// query parameter that may hold a secret by `***`.
    public static func redacted(_ text: String) -> String {
        var s = Substring(text)
        var out = ""
        // scheme://
        if let range = s.range(of: "://") {
            out += s[..<range.upperBound]
            s = s[range.upperBound...]
        }
        // The authority ends at the first '/', '?' or '#'; user-info is what precedes its last '@'.
        let authorityEnd = s.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? s.endIndex
        let authority = s[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") {
            out += "***@" + authority[authority.index(after: at)...]
        } else {
            out += authority
        }
        var rest = s[authorityEnd...]
        guard let question = rest.firstIndex(of: "?") else { return out + rest }
        out += rest[...question]
        rest = rest[rest.index(after: question)...]
        var fragment: Substring = ""
        if let hash = rest.firstIndex(of: "#") {
            fragment = rest[hash...]
            rest = rest[..<hash]
        }
        let fields = rest.split(separator: "&", omittingEmptySubsequences: false).map { field -> String in
            guard let eq = field.firstIndex(of: "=") else { return String(field) }
            let name = field[..<eq].lowercased()
            return secretNames.contains(where: { name.contains($0) }) ? field[...eq] + "***" : String(field)
        }
        return out + fields.joined(separator: "&") + fragment
    }
}
