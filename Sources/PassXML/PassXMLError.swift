/// Every failure in PassXML is one of these: a value with a message a user can act on.
/// (All throwing functions in this module throw exactly this type.)
public struct PassXMLError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }

    static func missing(_ element: String, in parent: String? = nil) -> PassXMLError {
        if let parent { return PassXMLError("missing element <\(element)> in <\(parent)>") }
        return PassXMLError("missing element <\(element)>")
    }
}
