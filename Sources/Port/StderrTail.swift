import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The last `PortLimits.stderrBytes` a port wrote to its standard error, read from a pipe by a thread
/// of its own. A thread rather than reads between messages: a port blocked on a full stderr pipe
/// would stop answering, and a harness blocked writing to it would never read that pipe.
final class StderrTail: @unchecked Sendable {
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var kept: [UInt8] = []
    private var stopping = false
    private var closed = false
    private let fd: Int32
    private let finished = DispatchSemaphore(value: 0)

    /// Starts reading `fd` (the pipe's read end, which this object now owns and closes).
    init(fd: Int32) {
        self.fd = fd
        let thread = Thread { [self] in drain() }
        thread.name = "passim port stderr"
        thread.start()
    }

    /// Drops what is held, once what is already in the pipe has been read.
    func clear() {
        _ = tail()
        lock.withLock { kept = [] }
    }

    /// Bytes held now: never more than the cap.
    var count: Int { lock.withLock { kept.count } }

    /// The last bytes written, once what is already in the pipe has been read (up to 200 ms).
    func tail() -> [UInt8] {
        for _ in 0..<100 {
            // Under the lock: the thread closes the descriptor under it too, so it is never polled closed.
            let pending = lock.withLock { () -> Bool in
                guard !closed else { return false }
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                return poll(&poller, 1, 0) > 0
            }
            if !pending { break }
            usleep(2_000)
        }
        return lock.withLock { kept }
    }

    /// Reads what is left in the pipe (at most a cap's worth: a process out of the harness's reach
    /// may still be writing), then ends the thread; returns when it has ended.
    func stop() {
        lock.withLock { stopping = true }
        finished.wait()
    }

    private func drain() {
        defer {
            lock.withLock {
                close(fd)
                closed = true
            }
            finished.signal()
        }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var readSinceStop = 0
        while true {
            let stop = lock.withLock { stopping }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, stop ? 0 : 50)
            if ready < 0, errno != EINTR { return }
            if ready <= 0 {
                if stop { return }
                continue
            }
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return
            }
            if n == 0 { return }
            lock.withLock {
                kept += chunk[..<n]
                if kept.count > PortLimits.stderrBytes { kept.removeFirst(kept.count - PortLimits.stderrBytes) }
            }
            if stop {
                readSinceStop += n
                if readSinceStop > PortLimits.stderrBytes { return }
            }
        }
    }
}
