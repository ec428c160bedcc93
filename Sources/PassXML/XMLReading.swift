/// Helpers for the typed parsers: each failure names the element or attribute that is wrong.
extension XMLElement {
    /// The first direct child with this local name and namespace URI.
    public func child(_ localName: String, namespace: String?) -> XMLElement? {
        children.first { $0.name == localName && $0.namespace == namespace }
    }

    func require(_ localName: String, namespace: String? = nil) throws(PassXMLError) -> XMLElement {
        guard let c = children.first(where: { $0.name == localName && (namespace == nil || $0.namespace == namespace) })
        else { throw PassXMLError.missing(localName, in: name) }
        return c
    }

    /// The trimmed text of a required child, which must not be empty.
    func requireText(_ localName: String, namespace: String? = nil) throws(PassXMLError) -> String {
        let value = try require(localName, namespace: namespace).trimmedText
        guard !value.isEmpty else { throw PassXMLError("empty element <\(localName)> in <\(name)>") }
        return value
    }

    /// The trimmed text of an optional child; nil when absent.
    func optionalText(_ localName: String) -> String? { child(localName)?.trimmedText }

    func requireAttribute(_ attributeName: String) throws(PassXMLError) -> String {
        guard let value = attribute(attributeName) else {
            throw PassXMLError("missing attribute \(attributeName) on <\(name)>")
        }
        return value
    }

    func expectRoot(_ localName: String, namespace: String?) throws(PassXMLError) {
        guard name == localName, self.namespace == namespace else {
            let wanted = namespace.map { "<\(localName)> in namespace \($0)" } ?? "<\(localName)>"
            let found = self.namespace.map { "<\(name)> in namespace \($0)" } ?? "<\(name)>"
            throw PassXMLError("expected root element \(wanted), found \(found)")
        }
    }
}

enum XMLValue {
    /// xs:boolean, plus any letter case (AND-1.8 reads flags with Java's case-insensitive parseBoolean).
    static func bool(_ text: String, in context: String) throws(PassXMLError) -> Bool {
        switch XMLText.trim(text).lowercased() {
        case "true", "1": return true
        case "false", "0": return false
        default: throw PassXMLError("invalid boolean '\(text)' in \(context)")
        }
    }
}
