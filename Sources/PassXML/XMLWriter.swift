import PassModel

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
        // Room for an error body or a token without growing; a larger document grows as an array does.
        bytes.reserveCapacity(512)
        if declaration { append(#"<?xml version="1.0" encoding="UTF-8"?>"#) }
    }

    /// The document written so far.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    mutating func open(_ name: String, _ attributes: [(String, String)] = []) {
        bytes.append(UInt8(ascii: "<"))
        append(name)
        appendAttributes(attributes)
        bytes.append(UInt8(ascii: ">"))
    }

    mutating func close(_ name: String) {
        bytes.append(UInt8(ascii: "<"))
        bytes.append(UInt8(ascii: "/"))
        append(name)
        bytes.append(UInt8(ascii: ">"))
    }

    mutating func appendEscaped(_ value: String) { SafeXML.appendEscaped(value, to: &bytes) }

    /// Markup built elsewhere (a signature), taken as it is.
    mutating func appendMarkup(_ markup: String) { append(markup) }

    /// `<name attrs>escaped text</name>`, or `<name attrs/>` when the text is empty.
    mutating func leaf(_ name: String, _ value: String = "", _ attributes: [(String, String)] = []) {
        bytes.append(UInt8(ascii: "<"))
        append(name)
        appendAttributes(attributes)
        if value.isEmpty {
            bytes.append(UInt8(ascii: "/"))
            bytes.append(UInt8(ascii: ">"))
        } else {
            bytes.append(UInt8(ascii: ">"))
            SafeXML.appendEscaped(value, to: &bytes)
            close(name)
        }
    }

    /// `leaf(name, date.tokenDate)`, the date's digits written in place: every token carries one,
    /// and making its text (six padded numbers interpolated) cost more than the rest of the token.
    /// Only an instant from 1970 to the end of year 9999 is written so, where every number has its
    /// full width (`tokenDate` pads each, and never cuts); any other goes through `tokenDate`.
    mutating func leaf(_ name: String, tokenDate date: Instant) {
        let ms = date.milliseconds
        guard ms >= 0, ms < XMLWriter.year10000 else { return leaf(name, date.tokenDate) }
        let f = date.civilFields
        bytes.append(UInt8(ascii: "<"))
        append(name)
        bytes.append(UInt8(ascii: ">"))
        appendDigits(f.year, 4)
        bytes.append(UInt8(ascii: "/"))
        appendDigits(f.month, 2)
        bytes.append(UInt8(ascii: "/"))
        appendDigits(f.day, 2)
        bytes.append(UInt8(ascii: " "))
        appendDigits(f.hour, 2)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(f.minute, 2)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(f.second, 2)
        append(" GMT +0000")
        close(name)
    }

    /// 10000-01-01T00:00:00Z in milliseconds: every instant before it has a 4-digit year.
    static let year10000: Int64 = 253_402_300_800_000

    /// `v` (0 ≤ v < 10^width) in decimal, zero-padded to `width` digits.
    private mutating func appendDigits(_ v: Int64, _ width: Int) {
        var divisor: Int64 = 1
        for _ in 1..<width { divisor *= 10 }
        var rest = v
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    /// `leaf(name, inner.text)`, escaping `inner`'s bytes straight from its buffer: a document
    /// carried as text inside another (the token in `sessionDevice`) is not made a `String` first.
    mutating func leaf(_ name: String, escaping inner: XMLWriter) {
        bytes.append(UInt8(ascii: "<"))
        append(name)
        if inner.bytes.isEmpty {
            bytes.append(UInt8(ascii: "/"))
            bytes.append(UInt8(ascii: ">"))
        } else {
            bytes.append(UInt8(ascii: ">"))
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
            bytes.append(UInt8(ascii: " "))
            append(name)
            bytes.append(UInt8(ascii: "="))
            bytes.append(UInt8(ascii: "\""))
            SafeXML.appendEscaped(value, to: &bytes)
            bytes.append(UInt8(ascii: "\""))
        }
    }

    private mutating func append(_ s: String) { bytes.append(contentsOf: s.utf8) }
}
