/// A message or a port that broke the driver protocol (docs/PORTING.md), with what a port author
/// needs to find it.
public struct PortError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    /// Nothing came from the port (or it read nothing) by the deadline: the session then names the
    /// line it was waiting for and stops the port, which may be spinning where no input reaches it.
    public internal(set) var timedOut = false

    public init(_ message: String) { self.message = message }

    static func timedOut(_ message: String) -> PortError {
        var error = PortError(message)
        error.timedOut = true
        return error
    }

    public var description: String { message }
}
