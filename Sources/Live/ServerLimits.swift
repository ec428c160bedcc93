#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

import NIOCore

/// Every limit of `passim serve`'s connections, in one place (docs/LIMITS.md, "HTTP server (Live)").
/// A request past a limit is refused with a short text answer (431, 413, 408, 400) naming the limit,
/// and its connection is closed; the server itself keeps serving.
public struct ServerLimits: Hashable, Sendable {
    /// Request line plus header fields, in bytes (over it: 431, limit `head-bytes`).
    public var headBytes: Int
    /// Request body, in bytes (over it: 413, limit `body-bytes`).
    public var bodyBytes: Int
    /// Complete requests waiting behind an unanswered one on a single connection (pipelining). At
    /// it, the server stops reading from that connection until answers drain the queue, so a client
    /// that never reads its answers cannot grow the queue (limit `queued-requests`).
    public var queuedRequests: Int
    /// Open connections to the whole server (hosts and admin), kept below the process's descriptor
    /// limit too. At it, a new connection takes the place of the oldest idle one, else of the one
    /// that has waited longest on its client (a request still arriving, an answer not read: its
    /// request is answered 408), or is closed at once when every connection waits on the server
    /// (limit `connections`).
    public var connections: Int
    /// Open connections from one peer address, the same way at its own cap (among that peer's
    /// connections only): 1,100 connections trickling bodies from one address filled the whole
    /// server, and no other client could connect (limit `peer-connections`).
    public var peerConnections: Int
    /// Descriptors left free below `RLIMIT_NOFILE` for listeners, files and libcurl, so `accept`
    /// never fails for want of one (limit `descriptor-margin`).
    public var descriptorMargin: Int
    /// A connection that sends nothing for this long while nothing is owed to it is closed (limit `idle-timeout`).
    public var idleTimeout: Duration
    /// A request head not complete this long after its first byte: 408 and close (limit `header-timeout`).
    public var headerTimeout: Duration
    /// A request body not complete this long after its head: 408 and close (limit `body-timeout`).
    /// Without it a body trickled a byte a minute would keep a connection busy, never idle, for ever.
    public var bodyTimeout: Duration
    /// The slowest a body may arrive once `bodyRateGrace` has passed since its head: by then it
    /// must have `bodyRate` bytes for each second past the grace, or be complete, else 408 and close
    /// (limit `body-rate`). A body trickled at a byte a second held its connection for all of
    /// `bodyTimeout`; 1,100 of them held the server.
    public var bodyRate: Int
    /// How long a body may take before `bodyRate` applies (limit `body-rate-grace`).
    public var bodyRateGrace: Duration
    /// After a refusal the server shuts its side and reads what the client still sends, so the
    /// client sees the answer rather than a reset; the connection is closed after this long at most
    /// (limit `linger-timeout`).
    public var lingerTimeout: Duration
    /// A TLS handshake (a proxy tunnel's or a `--tls` port's) not done this long after it may start:
    /// logged and closed (limit `handshake-timeout`).
    public var handshakeTimeout: Duration
    /// The work the injected failures pending on one host may cost a request, in steps of their path
    /// patterns (`LinearRegex.stepCost`) times the longest path a head holds (`headBytes`). Each
    /// request is matched against them under the server's lock: `/(.*a){2000}` against a 15 KB path
    /// took 1.7 s. Past it `POST /admin/net` answers 400 (limit `net-pattern-steps`).
    public var netPatternSteps: Int

    public init(
        headBytes: Int = 16 * 1024, bodyBytes: Int = 1024 * 1024, queuedRequests: Int = 16,
        connections: Int = 1024, peerConnections: Int = 512, descriptorMargin: Int = 64,
        idleTimeout: Duration = .seconds(60), headerTimeout: Duration = .seconds(10),
        bodyTimeout: Duration = .seconds(30), bodyRate: Int = 1024, bodyRateGrace: Duration = .seconds(2),
        lingerTimeout: Duration = .seconds(2),
        handshakeTimeout: Duration = .seconds(10), netPatternSteps: Int = 4_000_000
    ) {
        self.peerConnections = peerConnections
        self.bodyRate = bodyRate
        self.bodyRateGrace = bodyRateGrace
        self.handshakeTimeout = handshakeTimeout
        self.netPatternSteps = netPatternSteps
        self.headBytes = headBytes
        self.bodyBytes = bodyBytes
        self.queuedRequests = queuedRequests
        self.connections = connections
        self.descriptorMargin = descriptorMargin
        self.idleTimeout = idleTimeout
        self.headerTimeout = headerTimeout
        self.bodyTimeout = bodyTimeout
        self.lingerTimeout = lingerTimeout
    }

    /// `connections`, lowered to the process's open-descriptor limit minus `descriptorMargin`
    /// (at least 1): the cap the server enforces.
    public var connectionCap: Int {
        var limit = rlimit()
        #if canImport(Glibc)
            let resource = Int32(RLIMIT_NOFILE.rawValue)  // an enum in glibc's header, an Int32 in Darwin's
        #else
            let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0 else { return max(1, connections) }
        // Unlimited (RLIM_INFINITY, all ones) clamps to Int.max.
        let available = Int(clamping: limit.rlim_cur) - descriptorMargin
        return max(1, min(connections, available))
    }

    /// `peerConnections`, at most `connectionCap` (at least 1): the cap per peer the server enforces.
    public var peerConnectionCap: Int { max(1, min(peerConnections, connectionCap)) }

    /// How often a body past its grace is looked at for `bodyRate`.
    static let bodyRateEvery = TimeAmount.milliseconds(500)

    /// Whether a body with `received` bytes, `elapsed` after its head, is behind `rate` bytes a
    /// second counted from the end of `grace`.
    static func bodyTooSlow(received: Int, elapsed: TimeAmount, rate: Int, grace: Duration) -> Bool {
        let past = elapsed - TimeAmount(grace)
        guard past > .zero else { return false }
        // Bytes owed by now, in whole bytes: rate × past seconds.
        let owed = Int((Double(rate) * Double(past.nanoseconds) / 1e9).rounded(.down))
        return received < owed
    }

    /// A duration as a limit's message shows it: `10s`, `250ms`.
    static func text(_ d: Duration) -> String {
        let ms = d.components.seconds * 1000 + d.components.attoseconds / 1_000_000_000_000_000
        return ms % 1000 == 0 ? "\(ms / 1000)s" : "\(ms)ms"
    }
}
