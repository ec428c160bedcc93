import PassModel

/// The `Cookie` request header(s) (`a=b; c=d`), in order. Repeated names are kept: a browser may send
/// two `JSESSIONID`s (different paths or domains) and the SP picks the one it knows.
struct Cookies: Sendable {
    static let sessionName = "JSESSIONID"

    var pairs: [(name: String, value: String)]

    init(_ headers: HTTPHeaders) {
        var pairs: [(name: String, value: String)] = []
        headers.forEach(lowercased: "cookie") { header in
            if let ascii = header.utf8.withContiguousStorageIfAvailable({ Cookies.asciiPairs($0) }), let ascii {
                pairs += ascii
                return
            }
            for piece in header.split(separator: ";") {
                let item = piece.trimmingSpaces
                guard !item.isEmpty else { continue }
                if let eq = item.firstIndex(of: "=") {
                    pairs.append(
                        (String(item[..<eq]).trimmingSpaces, String(item[item.index(after: eq)...]).trimmingSpaces))
                } else {
                    pairs.append((item, ""))
                }
            }
        }
        self.pairs = pairs
    }

    /// The pairs of one ASCII header, over its bytes: in ASCII a space, a tab, `;` and `=` are each
    /// a character of their own, so the pieces, their trimming and their split are the same as by
    /// characters, without walking the text by grapheme. nil when the header is not ASCII.
    private static func asciiPairs(_ b: UnsafeBufferPointer<UInt8>) -> [(name: String, value: String)]? {
        guard !b.contains(where: { $0 >= 0x80 }) else { return nil }
        func isSpace(_ c: UInt8) -> Bool { c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") }
        /// `from..<to` without its leading and trailing spaces and tabs.
        func trimmed(_ from: Int, _ to: Int) -> Range<Int> {
            var from = from, to = to
            while from < to, isSpace(b[from]) { from += 1 }
            while to > from, isSpace(b[to - 1]) { to -= 1 }
            return from..<to
        }
        func text(_ r: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: b[r]), as: UTF8.self) }
        var pairs: [(name: String, value: String)] = []
        var i = 0
        while i < b.count {
            var stop = i
            while stop < b.count, b[stop] != UInt8(ascii: ";") { stop += 1 }
            // A piece empty once trimmed (or empty: `split` drops those) is skipped.
            let piece = trimmed(i, stop)
            if !piece.isEmpty {
                if let eq = b[piece].firstIndex(of: UInt8(ascii: "=")) {
                    pairs.append((text(trimmed(piece.lowerBound, eq)), text(trimmed(eq + 1, piece.upperBound))))
                } else {
                    pairs.append((text(piece), ""))
                }
            }
            i = stop + 1
        }
        return pairs
    }

    func values(_ name: String) -> [String] { pairs.filter { $0.name == name }.map(\.value) }

    /// The `Set-Cookie` value that starts (or renews) a session.
    static func setSession(_ id: String) -> String { "\(sessionName)=\(id); Path=/" }
}

extension StringProtocol {
    var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
