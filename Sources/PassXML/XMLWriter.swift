/// Builds XML text by hand: the documents are small and fixed in shape, and writing them directly
/// keeps attribute order (and so every transcript) deterministic. Each piece is appended to `bytes`
/// in place and the text is made once, at the end: every token and error body the mock answers is
/// written here, and appending each piece to a `String` (and escaping through a `String` of its
/// own) was a visible share of a fuzz run.
struct XMLWriter {
    /// UTF-8 of the document so far: only whole texts (`String`s, escaped or not) are appended, so
    /// it is always valid UTF-8 and `text` decodes it unchanged.
    private(set) var bytes: [UInt8] = []

    init(declaration: Bool = false) {
        if declaration { append(#"<?xml version="1.0" encoding="UTF-8"?>"#) }
    }

    /// The document written so far.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    mutating func open(_ name: String, _ attributes: [(String, String)] = []) {
        append("<")
        append(name)
        appendAttributes(attributes)
        append(">")
    }

    mutating func close(_ name: String) {
        append("</")
        append(name)
        append(">")
    }

    mutating func appendEscaped(_ value: String) { SafeXML.appendEscaped(value, to: &bytes) }

    /// Markup built elsewhere (a signature), taken as it is.
    mutating func appendMarkup(_ markup: String) { append(markup) }

    /// `<name attrs>escaped text</name>`, or `<name attrs/>` when the text is empty.
    mutating func leaf(_ name: String, _ value: String = "", _ attributes: [(String, String)] = []) {
        append("<")
        append(name)
        appendAttributes(attributes)
        if value.isEmpty {
            append("/>")
        } else {
            append(">")
            SafeXML.appendEscaped(value, to: &bytes)
            close(name)
        }
    }

    /// `leaf(name, inner.text)`, escaping `inner`'s bytes straight from its buffer: a document
    /// carried as text inside another (the token in `sessionDevice`) is not made a `String` first.
    mutating func leaf(_ name: String, escaping inner: XMLWriter) {
        append("<")
        append(name)
        if inner.bytes.isEmpty {
            append("/>")
        } else {
            append(">")
            inner.bytes.withUnsafeBufferPointer { SafeXML.appendEscaped($0, to: &bytes) }
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
            append(" ")
            append(name)
            append("=\"")
            SafeXML.appendEscaped(value, to: &bytes)
            append("\"")
        }
    }

    private mutating func append(_ s: String) { bytes.append(contentsOf: s.utf8) }
}
