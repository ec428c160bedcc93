/// Builds XML text by hand: the documents are small and fixed in shape, and writing them directly
/// keeps attribute order (and so every transcript) deterministic.
struct XMLWriter {
    private(set) var text = ""

    init(declaration: Bool = false) {
        if declaration { text = #"<?xml version="1.0" encoding="UTF-8"?>"# }
    }

    mutating func open(_ name: String, _ attributes: [(String, String)] = []) {
        text += "<\(name)\(Self.attributes(attributes))>"
    }

    mutating func close(_ name: String) { text += "</\(name)>" }

    mutating func appendEscaped(_ value: String) { text += SafeXML.escape(value) }

    /// Markup built elsewhere (a signature), taken as it is.
    mutating func appendMarkup(_ markup: String) { text += markup }

    /// `<name attrs>escaped text</name>`, or `<name attrs/>` when the text is empty.
    mutating func leaf(_ name: String, _ value: String = "", _ attributes: [(String, String)] = []) {
        if value.isEmpty {
            text += "<\(name)\(Self.attributes(attributes))/>"
        } else {
            text += "<\(name)\(Self.attributes(attributes))>\(SafeXML.escape(value))</\(name)>"
        }
    }

    mutating func element(_ name: String, _ attributes: [(String, String)] = [], _ body: (inout XMLWriter) -> Void) {
        open(name, attributes)
        body(&self)
        close(name)
    }

    private static func attributes(_ list: [(String, String)]) -> String {
        list.map { " \($0.0)=\"\(SafeXML.escape($0.1))\"" }.joined()
    }
}
