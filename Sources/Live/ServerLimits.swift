/// What one connection may send before the server refuses it. A refusal is a short text answer
/// (431, 413, 400) and the connection is closed; the server itself keeps serving.
public struct ServerLimits: Hashable, Sendable {
    /// Request line plus header fields, in bytes (over it: 431).
    public var headBytes: Int
    /// Request body, in bytes (over it: 413).
    public var bodyBytes: Int
    /// Complete requests waiting behind an unanswered one on a single connection (pipelining);
    /// past it the connection is closed, so a client that never reads cannot grow the queue.
    public var queuedRequests: Int

    public init(headBytes: Int = 16 * 1024, bodyBytes: Int = 1024 * 1024, queuedRequests: Int = 16) {
        self.headBytes = headBytes
        self.bodyBytes = bodyBytes
        self.queuedRequests = queuedRequests
    }
}
