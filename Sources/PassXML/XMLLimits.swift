/// Limits on untrusted XML, each enforced before libxml2 sees the bytes (size, depth, attributes per
/// element, elements per document: `XMLPrescan`) or while its tree is copied (attribute length).
/// Every error names the limit it hit, as `(limit: NAME)`, with NAME the one given here.
public struct XMLLimits: Hashable, Sendable {
    /// `xml-bytes`: the whole document.
    public var maxBytes: Int
    /// `xml-depth`: elements nested inside each other, the root being 1.
    public var maxDepth: Int
    /// `xml-attribute-bytes`: one attribute's value.
    public var maxAttributeLength: Int
    /// `xml-attributes`: attributes of one element (libxml2 2.9 is quadratic in them).
    public var maxAttributes: Int
    /// `xml-elements`: elements in the whole document.
    public var maxElements: Int

    public init(
        maxBytes: Int = 1_000_000, maxDepth: Int = 64, maxAttributeLength: Int = 65_536,
        maxAttributes: Int = 32, maxElements: Int = 10_000
    ) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
        self.maxAttributeLength = maxAttributeLength
        self.maxAttributes = maxAttributes
        self.maxElements = maxElements
    }

    public static let standard = XMLLimits()
}
