/// One attribute of an element, by local name.
public struct XMLAttribute: Hashable, Sendable {
    public var name: String
    public var namespace: String?
    public var value: String
    public init(name: String, namespace: String? = nil, value: String) {
        self.name = name
        self.namespace = namespace
        self.value = value
    }
}

/// A parsed, immutable element tree. libxml2's tree is copied into these values so no libxml2
/// pointer outlives the parse call.
public struct XMLElement: Hashable, Sendable {
    /// The local name (no prefix).
    public var name: String
    /// The namespace URI, if any.
    public var namespace: String?
    public var attributes: [XMLAttribute]
    public var children: [XMLElement]
    /// The direct text content (text and CDATA children, concatenated, untrimmed).
    public var text: String

    public init(
        name: String, namespace: String? = nil, attributes: [XMLAttribute] = [],
        children: [XMLElement] = [], text: String = ""
    ) {
        self.name = name
        self.namespace = namespace
        self.attributes = attributes
        self.children = children
        self.text = text
    }

    /// `text` without leading and trailing whitespace.
    public var trimmedText: String { XMLText.trim(text) }

    /// The value of the first attribute with this local name.
    public func attribute(_ name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }

    /// The first direct child with this local name.
    public func child(_ localName: String) -> XMLElement? {
        children.first { $0.name == localName }
    }

    /// Every direct child with this local name, in document order.
    public func children(_ localName: String) -> [XMLElement] {
        children.filter { $0.name == localName }
    }

    /// The first descendant (not self) with this local name, in document order.
    public func descendant(_ localName: String) -> XMLElement? {
        // Iterative pre-order walk: a recursive one would be fine for depth-limited trees, but an
        // explicit stack keeps the cost independent of how deep the caller's tree is.
        var stack: [XMLElement] = children.reversed()
        while let e = stack.popLast() {
            if e.name == localName { return e }
            stack.append(contentsOf: e.children.reversed())
        }
        return nil
    }
}

enum XMLText {
    static func isSpace(_ c: Character) -> Bool { c == " " || c == "\t" || c == "\n" || c == "\r" }

    static func trim(_ s: String) -> String {
        guard let first = s.firstIndex(where: { !isSpace($0) }),
            let last = s.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(s[first...last])
    }
}
