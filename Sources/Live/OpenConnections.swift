import NIOConcurrencyHelpers
import NIOCore

/// Every open connection of a server, under its own lock (never the mock's), so the number stays
/// under the cap. A connection reports when it turns idle (owed nothing, no request begun) or busy;
/// at the cap a new connection takes the place of the oldest idle one, so idle connections, however
/// many are opened, cannot keep a client with a request out. Only when every connection is busy is
/// the new one closed at once.
final class OpenConnections: Sendable {
    private struct Entry {
        var channel: any Channel
        var serial: Int
        var idle: Bool
    }

    private struct State {
        var open: [ObjectIdentifier: Entry] = [:]
        var serial = 0
    }

    let cap: Int
    private let state = NIOLockedValueBox(State())

    init(cap: Int) { self.cap = cap }

    var count: Int { state.withLockedValue { $0.open.count } }

    /// Counts `channel` in (closing the oldest idle connection if at the cap), or returns false.
    func admit(_ channel: any Channel) -> Bool {
        let id = ObjectIdentifier(channel)
        let cap = self.cap
        let (admitted, evicted) = state.withLockedValue { s -> (Bool, (any Channel)?) in
            var evicted: (any Channel)?
            if s.open.count >= cap {
                // A scan, but only at the cap, and never longer than the cap.
                guard let oldest = s.open.filter({ $0.value.idle }).min(by: { $0.value.serial < $1.value.serial })
                else {
                    return (false, nil)
                }
                s.open[oldest.key] = nil
                evicted = oldest.value.channel
            }
            s.serial += 1
            s.open[id] = Entry(channel: channel, serial: s.serial, idle: true)
            return (true, evicted)
        }
        evicted?.close(promise: nil)
        if admitted {
            channel.closeFuture.whenComplete { [state] _ in
                state.withLockedValue { s in
                    if s.open[id].map({ $0.channel === channel }) == true { s.open[id] = nil }
                }
            }
        }
        return admitted
    }

    func setIdle(_ idle: Bool, _ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        state.withLockedValue { s in
            if s.open[id]?.channel === channel { s.open[id]?.idle = idle }
        }
    }
}
