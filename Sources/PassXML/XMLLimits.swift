/// Limits on untrusted input.
public struct XMLLimits: Hashable, Sendable {
    public var maxBytes: Int
    public var maxDepth: Int
    public var maxAttributeLength: Int

    public init(maxBytes: Int = 1_000_000, maxDepth: Int = 64, maxAttributeLength: Int = 65_536) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
        self.maxAttributeLength = maxAttributeLength
    }

    public static let standard = XMLLimits()
}
