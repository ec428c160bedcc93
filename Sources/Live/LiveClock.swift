import Foundation
import NIOConcurrencyHelpers
import PassModel

/// The live runtime's clock: the wall clock plus an offset that `advance` moves forward, so a live
/// run can let hours pass (token expiry) without waiting. Shared by the server and its clients.
public final class LiveClock: Sendable {
    private let offsetBox: NIOLockedValueBox<Millis>

    public init(offset: Millis = .zero) {
        offsetBox = NIOLockedValueBox(offset)
    }

    /// The wall clock alone, in milliseconds since the Unix epoch.
    public static func wallClock() -> Instant {
        Instant(milliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
    }

    public var offset: Millis { offsetBox.withLockedValue { $0 } }

    public func now() -> Instant { LiveClock.wallClock() + offset }

    /// Shifts the clock forward (a negative span moves it back) and answers the new time.
    @discardableResult
    public func advance(by span: Millis) -> Instant {
        let offset = offsetBox.withLockedValue { value -> Millis in
            value = value + span
            return value
        }
        return LiveClock.wallClock() + offset
    }
}
