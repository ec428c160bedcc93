/// Builds XML text by hand: the documents are small and fixed in shape, and writing them directly
/// keeps attribute order (and so every transcript) deterministic. Each piece is appended to `text`
/// in place: every token and error body the mock answers is written here, and building each tag
/// as an interpolated string of its own first was a visible share of a fuzz run.
struct XMLWriter {
    private(set) var text = ""

    init(declaration: Bool = false) {
        if declaration { text = #"<?xml version="1.0" encoding="UTF-8"?>"# }
    }

    mutating func open(_ name: String, _ attributes: [(String, String)] = []) {
        text += "<"
        text += name
        appendAttributes(attributes)
        text += ">"
    }

    mutating func close(_ name: String) {
        text += "</"
        text += name
        text += ">"
    }

    mutating func appendEscaped(_ value: String) { text += SafeXML.escape(value) }

    /// Markup built elsewhere (a signature), taken as it is.
    mutating func appendMarkup(_ markup: String) { text += markup }

    /// `<name attrs>escaped text</name>`, or `<name attrs/>` when the text is empty.
    mutating func leaf(_ name: String, _ value: String = "", _ attributes: [(String, String)] = []) {
        text += "<"
        text += name
        appendAttributes(attributes)
        if value.isEmpty {
            text += "/>"
        } else {
            text += ">"
            text += SafeXML.escape(value)
            close(name)
        }
    }

    mutating func element(_ name: String, _ attributes: [(String, String)] = [], _ body: (inout XMLWriter) -> Void) {
        open(name, attributes)
        body(&self)
        close(name)
    }

    /// ` name="escaped value"` for each attribute, in order.
    private mutating func appendAttributes(_ list: [(String, String)]) {
        for (name, value) in list {
            text += " "
            text += name
            text += "=\""
            text += SafeXML.escape(value)
            text += "\""
        }
    }
}
