/// A broken invariant of BEHAVIOR.md ("Invariants"), by its number, or a broken property that
/// follows from it, by its name (docs/ORACLE.md).
public struct InvariantViolation: Hashable, Sendable, CustomStringConvertible {
    public var number: Int
    public var app: String
    public var message: String
    /// The property's name; nil for an invariant.
    public var property: String? = nil
    public var description: String { "\(key) violated in \(app): \(message)" }
    /// Two violations with the same key are the same bug while shrinking.
    public var key: String { property.map { "property \($0)" } ?? "invariant \(number)" }
}
