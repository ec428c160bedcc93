import Foundation

/// The `[done/total]` line `passim run` keeps on standard error while a long run goes on (only on a
/// terminal). It appears once the run has lasted `delay`, so a quick run prints nothing; it never
/// touches standard output, whose bytes stay deterministic.
public final class ProgressLine: @unchecked Sendable {
    private let lock = NSLock()
    private let start = ContinuousClock.now
    private let delay: Duration
    private var lastDraw: ContinuousClock.Instant?
    private var shown = false
    private var lastText: String?

    public init(delay: Duration = .seconds(1)) {
        self.delay = delay
    }

    public func update(done: Int, total: Int) {
        show("[\(done)/\(total)] scenarios", final: done >= total)
    }

    /// Draws `text` as the line (at most every 100 ms, unless `final`), once the run has lasted `delay`.
    public func show(_ text: String, final: Bool = false) {
        lock.lock()
        defer { lock.unlock() }
        let now = ContinuousClock.now
        guard now - start >= delay else { return }
        if let last = lastDraw, now - last < .milliseconds(100), !final { return }
        lastDraw = now
        shown = true
        let line = "\r\u{1B}[K" + text
        lastText = line
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// Time since the line was made (for rates and what is left).
    public var elapsed: Duration { ContinuousClock.now - start }

    /// Runs `write` (output for standard output) with the line taken down, then draws it again, so
    /// the two never share a terminal line.
    public func interrupt(_ write: () -> Void) {
        lock.lock()
        defer { lock.unlock() }
        if shown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        write()
        if shown, let text = lastText { FileHandle.standardError.write(Data(text.utf8)) }
    }

    /// Erases the line, if it was drawn.
    public func finish() {
        lock.lock()
        defer { lock.unlock() }
        if shown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        shown = false
    }
}
