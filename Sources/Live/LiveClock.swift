import Foundation
import NIOConcurrencyHelpers
import PassModel

/// The clock of the live server and its clients, shared so both sides agree on `now`.
///
/// - Running (`passim serve`): the wall clock plus an offset that `advance` moves, so a live run can
///   let hours pass (token expiry) without waiting.
/// - Held (`passim run --live`): it reads the instant the runtime last set with `hold(at:)`. The live
///   runtime orders events in virtual time and holds the clock at the instant a request is sent while
///   the server handles it, so the mock stamps tokens exactly as in a simulated run (docs/CONFORMANCE.md).
public final class LiveClock: Sendable {
    private enum Reading {
        case running(offset: Millis)
        case held(Instant)
    }

    private let reading: NIOLockedValueBox<Reading>

    public init(offset: Millis = .zero) {
        reading = NIOLockedValueBox(.running(offset: offset))
    }

    /// A clock that stays at `instant` until told otherwise.
    public init(heldAt instant: Instant) {
        reading = NIOLockedValueBox(.held(instant))
    }

    /// The wall clock alone, in milliseconds since the Unix epoch.
    public static func wallClock() -> Instant {
        Instant(milliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
    }

    /// How far the clock is from the wall clock.
    public var offset: Millis {
        switch reading.withLockedValue({ $0 }) {
        case .running(let offset): return offset
        case .held(let instant): return instant - LiveClock.wallClock()
        }
    }

    public func now() -> Instant {
        switch reading.withLockedValue({ $0 }) {
        case .running(let offset): return LiveClock.wallClock() + offset
        case .held(let instant): return instant
        }
    }

    /// Holds the clock at `instant` (from then on it reads `instant` until held elsewhere or advanced).
    public func hold(at instant: Instant) {
        reading.withLockedValue { $0 = .held(instant) }
    }

    /// Shifts the clock forward (a negative span moves it back) and answers the new time.
    @discardableResult
    public func advance(by span: Millis) -> Instant {
        reading.withLockedValue { value -> Instant in
            switch value {
            case .running(let offset):
                value = .running(offset: offset + span)
                return LiveClock.wallClock() + offset + span
            case .held(let instant):
                value = .held(instant + span)
                return instant + span
            }
        }
    }
}
