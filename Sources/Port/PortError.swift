/// A message or a port that broke the driver protocol (docs/PORTING.md), with what a port author
/// needs to find it.
public struct PortError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
