import NIOConcurrencyHelpers
import NIOCore

/// Every open connection of a server, under its own lock (never the mock's), so the number stays
/// under the cap, and the number from one peer address under the peer cap. A connection reports
/// what it is doing (`Activity`). At a cap a new connection takes the place of another, so neither
/// idle connections nor slow ones, however many are opened, keep a client with a request out:
/// - the oldest idle one (answered, owed nothing, no request begun since) goes first;
/// - else the one that has waited longest on its client (a request still arriving, an answer the
///   client does not read, or, on a connection that has not yet sent a whole request, nothing since
///   it was accepted): told `Evicted`, its handler answers 408 and closes;
/// - a connection the server owes an answer is never taken; when every one is, the new connection
///   is closed at once.
/// At the peer cap only that peer's connections are candidates: one address cannot push out
/// another's connections by opening more of its own.
///
/// An evicted connection answering its 408 is no longer counted, yet holds its descriptor until it
/// closes; at most `maxLingering` do so at once, and past that one is closed at once without its 408:
/// a stream of new connections at a cap evicts hundreds a second, and their descriptors, up to the
/// eviction grace each, took the server past its descriptor limit (`accept` then backs off a second).
final class OpenConnections: Sendable {
    enum Activity: Equatable, Sendable {
        /// Answered, owed nothing, no request begun since.
        case idle
        /// The server owes it an answer (being made, delayed, or silent).
        case serving
        /// Waiting on its client since then: a request head or body still arriving, an answer the
        /// client does not read (the channel not writable), or a first request not yet begun (since
        /// the connection was accepted: a new client is not the first to go).
        case awaitingClient(since: NIODeadline)
    }

    /// Sent down the pipeline of a connection that lost its place while waiting on its client.
    struct Evicted: Sendable {}

    private struct Entry {
        var channel: any Channel
        var serial: Int
        var peer: String
        var activity: Activity
    }

    private struct State {
        var open: [ObjectIdentifier: Entry] = [:]
        var perPeer: [String: Int] = [:]
        var serial = 0
        /// Evicted connections still answering their 408.
        var lingering = 0
    }

    let cap: Int
    let peerCap: Int
    /// How long an evicted connection's handler has to answer before it is closed anyway.
    let evictionGrace: TimeAmount
    /// How many evicted connections may be answering their 408 at once (limit `evicted-lingering`).
    let maxLingering: Int
    private let state = NIOLockedValueBox(State())

    init(cap: Int, peerCap: Int? = nil, evictionGrace: TimeAmount = .seconds(2), maxLingering: Int = 32) {
        self.cap = cap
        self.peerCap = min(peerCap ?? cap, cap)
        self.evictionGrace = evictionGrace
        self.maxLingering = maxLingering
    }

    /// Evicted connections answering their 408 now.
    var lingering: Int { state.withLockedValue { $0.lingering } }

    var count: Int { state.withLockedValue { $0.open.count } }

    /// The address a connection is counted under: its IP, an IPv4-mapped IPv6 one as IPv4.
    static func peerKey(_ address: SocketAddress?) -> String {
        address?.ipAddress.map(TrustedProxies.unmapped) ?? "unknown"
    }

    /// Why `admit` refused a connection, for the error that closes it.
    enum Refusal: Error, Sendable {
        case full(Int)
        case peerFull(Int)

        var message: String {
            switch self {
            case .full(let cap): "\(cap) connections open, each owed an answer (limit: connections)"
            case .peerFull(let cap):
                "\(cap) connections open from one address, each owed an answer (limit: peer-connections)"
            }
        }
    }

    /// Counts `channel` in (making room at a cap as the type says), or says why not.
    func admit(_ channel: any Channel) -> Refusal? {
        let id = ObjectIdentifier(channel)
        let peer = OpenConnections.peerKey(channel.remoteAddress)
        let (cap, peerCap, maxLingering) = (self.cap, self.peerCap, self.maxLingering)
        let outcome = state.withLockedValue { s -> Result<(Entry, graceful: Bool)?, Refusal> in
            var victim: Entry?
            if (s.perPeer[peer] ?? 0) >= peerCap {
                // A scan, but only at a cap, and never longer than the cap.
                guard let v = OpenConnections.candidate(in: s.open.values.filter { $0.peer == peer }) else {
                    return .failure(.peerFull(peerCap))
                }
                victim = v
            } else if s.open.count >= cap {
                guard let v = OpenConnections.candidate(in: Array(s.open.values)) else { return .failure(.full(cap)) }
                victim = v
            }
            var evicted: (Entry, graceful: Bool)?
            if let victim {
                s.open[ObjectIdentifier(victim.channel)] = nil
                s.perPeer[victim.peer, default: 1] -= 1
                if s.perPeer[victim.peer] == 0 { s.perPeer[victim.peer] = nil }
                // Its 408 only while few others linger: each holds a descriptor the cap no longer counts.
                var graceful = false
                if case .awaitingClient = victim.activity, s.lingering < maxLingering {
                    s.lingering += 1
                    graceful = true
                }
                evicted = (victim, graceful)
            }
            s.serial += 1
            s.open[id] = Entry(channel: channel, serial: s.serial, peer: peer, activity: .awaitingClient(since: .now()))
            s.perPeer[peer, default: 0] += 1
            return .success(evicted)
        }
        switch outcome {
        case .failure(let refusal): return refusal
        case .success(let evicted?): evict(evicted.0, graceful: evicted.graceful)
        case .success(nil): break
        }
        channel.closeFuture.whenComplete { [state] _ in
            state.withLockedValue { s in
                guard let entry = s.open[id], entry.channel === channel else { return }
                s.open[id] = nil
                s.perPeer[entry.peer, default: 1] -= 1
                if s.perPeer[entry.peer] == 0 { s.perPeer[entry.peer] = nil }
            }
        }
        return nil
    }

    /// The oldest idle connection, else the one waiting longest on its client, else none.
    private static func candidate(in entries: [Entry]) -> Entry? {
        if let idle = entries.filter({ $0.activity == .idle }).min(by: { $0.serial < $1.serial }) { return idle }
        var slowest: (entry: Entry, since: NIODeadline)?
        for e in entries {
            guard case .awaitingClient(let since) = e.activity else { continue }
            if slowest.map({ since < $0.since || (since == $0.since && e.serial < $0.entry.serial) }) ?? true {
                slowest = (e, since)
            }
        }
        return slowest?.entry
    }

    private func evict(_ victim: Entry, graceful: Bool) {
        let channel = victim.channel
        guard graceful else {
            channel.close(promise: nil)
            return
        }
        channel.closeFuture.whenComplete { [state] _ in state.withLockedValue { $0.lingering -= 1 } }
        // Its handler answers 408 and lingers; closed here anyway if it has not by then.
        let grace = evictionGrace
        channel.eventLoop.execute {
            channel.pipeline.fireUserInboundEventTriggered(Evicted())
            channel.eventLoop.scheduleTask(in: grace) { channel.close(promise: nil) }
        }
    }

    func report(_ activity: Activity, _ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        state.withLockedValue { s in
            if s.open[id]?.channel === channel { s.open[id]?.activity = activity }
        }
    }
}
