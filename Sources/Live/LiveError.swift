/// A failure of the live runtime (a port that cannot be bound, an unknown host, a bad command),
/// with a message a user can act on.
public struct LiveError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
