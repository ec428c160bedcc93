import PassModel

/// How the harness reaches a port: a child process (`PortProcess`, docs/PORTING.md) or a port in
/// this process (`InProcessTransport`, the Swift library's `AccessEnablerPort`). Both carry the same
/// JSON lines, so an in-process port is held to exactly the checks a process is.
protocol PortTransport: AnyObject {
    /// Whether the port can take another scenario (protocol 1.1 resets).
    var alive: Bool { get }
    var scenariosServed: Int { get set }
    /// Writes one line; a port that does not take it by `deadline` fails with a timeout.
    func write(_ line: String, before deadline: ContinuousClock.Instant) throws(PortError)
    /// The next line the port writes, if it comes by `deadline` (else a timeout).
    func readLine(before deadline: ContinuousClock.Instant) throws(PortError) -> String
    /// A line the port wrote without being asked (after its `idle`), if one comes within `wait`.
    func unaskedLine(wait: Millis) -> String?
    func errorTail(lines: Int) -> String
    func forgetErrorTail()
    /// Ends the conversation, the port given a moment to exit on its own.
    func close()
    /// Ends the port at once (it did not answer in time: it may never read its input again).
    func stop()
}

extension PortTransport {
    func unaskedLine() -> String? { unaskedLine(wait: .zero) }
    func errorTail() -> String { errorTail(lines: 10) }
    func readLine(timeout: Millis) throws(PortError) -> String {
        try readLine(before: ContinuousClock.now + .milliseconds(max(timeout.value, 0)))
    }
}

/// A port that lives in the harness's process: it takes one driver-protocol line and returns every
/// line that line causes, up to and including its `idle` (or `ready`). `PortShim` is one.
public protocol LinePort: AnyObject {
    func handle(_ line: String) -> [String]
}

extension PortShim: LinePort {}

/// The transport of a `LinePort`: a write runs the port at once and queues what it answered, a
/// read takes from that queue. A port that answered without its `idle` cannot say more later (it
/// has no thread of its own), so a read of an empty queue fails at once instead of waiting out the timeout.
final class InProcessTransport: PortTransport {
    private let port: any LinePort
    private var pending: [String] = []
    private var closed = false
    var scenariosServed = 0

    init(_ port: any LinePort) { self.port = port }

    var alive: Bool { !closed }

    /// An in-process port answers within the write itself: it has no deadline to miss (a Swift
    /// adapter that never returns hangs its caller, as any function does).
    func write(_ line: String, before deadline: ContinuousClock.Instant) throws(PortError) {
        guard !closed else { throw PortError("the in-process port was closed") }
        pending += port.handle(line)
    }

    func readLine(before deadline: ContinuousClock.Instant) throws(PortError) -> String {
        guard !pending.isEmpty else { throw PortError("the in-process port returned without idle") }
        return pending.removeFirst()
    }

    /// Lines left after the one that answered `idle` were written unasked.
    func unaskedLine(wait: Millis) -> String? { pending.isEmpty ? nil : pending.removeFirst() }

    /// An in-process port has no standard error of its own.
    func errorTail(lines: Int) -> String { "" }
    func forgetErrorTail() {}
    func close() { closed = true }
    func stop() { closed = true }
}
