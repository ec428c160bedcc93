/// A single linear pass over the raw bytes that enforces `XMLLimits`' structural limits before
/// libxml2 parses anything: libxml2 2.9 spends time quadratic in an element's attributes (95,000 of
/// them cost 13.8 s) and builds every node of a document before we can count them.
///
/// It only counts; it does not judge well-formedness. Markup it cannot follow (an unterminated
/// comment, tag or quote) ends the scan and is left to libxml2 to reject. Comments, CDATA sections,
/// processing instructions and quoted attribute values are skipped whole, so a `<` or `=` inside
/// them counts for nothing.
enum XMLPrescan {
    static func check(_ bytes: [UInt8], limits: XMLLimits) throws(PassXMLError) {
        try bytes.withUnsafeBufferPointer { (b: UnsafeBufferPointer<UInt8>) throws(PassXMLError) in
            var scanner = Scanner(b: b, limits: limits)
            try scanner.run()
        }
    }

    private struct Scanner {
        let b: UnsafeBufferPointer<UInt8>
        let limits: XMLLimits
        var i = 0
        var depth = 0
        var elements = 0

        init(b: UnsafeBufferPointer<UInt8>, limits: XMLLimits) {
            self.b = b
            self.limits = limits
        }

        mutating func run() throws(PassXMLError) {
            let lt = UInt8(ascii: "<")
            while i < b.count {
                guard b[i] == lt else {
                    i += 1
                    continue
                }
                if starts("<!--") {
                    guard skip(past: "-->") else { return }
                } else if starts("<![CDATA[") {
                    guard skip(past: "]]>") else { return }
                } else if starts("<?") {
                    guard skip(past: "?>") else { return }
                } else if starts("</") {
                    depth = max(0, depth - 1)
                    guard skip(past: ">") else { return }
                } else if starts("<!") {
                    guard skip(past: ">") else { return }
                } else {
                    guard try startTag() else { return }
                }
            }
        }

        /// Counts one start tag at `i` (on its `<`); false when the tag never ends.
        private mutating func startTag() throws(PassXMLError) -> Bool {
            let start = i
            elements += 1
            guard elements <= limits.maxElements else {
                throw error("more than \(limits.maxElements) elements", "xml-elements", at: start)
            }
            var attributes = 0
            i += 1
            while i < b.count {
                switch b[i] {
                case UInt8(ascii: "\""), UInt8(ascii: "'"):
                    let quote = b[i]
                    i += 1
                    while i < b.count && b[i] != quote { i += 1 }
                    guard i < b.count else { return false }
                    i += 1
                case UInt8(ascii: "="):
                    attributes += 1
                    guard attributes <= limits.maxAttributes else {
                        throw error(
                            "element with more than \(limits.maxAttributes) attributes", "xml-attributes", at: start)
                    }
                    i += 1
                case UInt8(ascii: ">"):
                    let empty = i > start + 1 && b[i - 1] == UInt8(ascii: "/")
                    i += 1
                    guard depth + 1 <= limits.maxDepth else {
                        throw error("nesting deeper than \(limits.maxDepth) levels", "xml-depth", at: start)
                    }
                    if !empty { depth += 1 }
                    return true
                default:
                    i += 1
                }
            }
            return false
        }

        private func starts(_ s: StaticString) -> Bool {
            let n = s.utf8CodeUnitCount
            guard i + n <= b.count else { return false }
            let p = s.utf8Start
            for k in 0..<n where b[i + k] != p[k] { return false }
            return true
        }

        /// Moves `i` past the next `s`; false (and `i` at the end) when there is none.
        private mutating func skip(past s: StaticString) -> Bool {
            let n = s.utf8CodeUnitCount
            let p = s.utf8Start
            var j = i + 1
            while j + n <= b.count {
                if b[j] == p[0] {
                    var k = 1
                    while k < n && b[j + k] == p[k] { k += 1 }
                    if k == n {
                        i = j + n
                        return true
                    }
                }
                j += 1
            }
            i = b.count
            return false
        }

        private func error(_ what: String, _ limit: String, at offset: Int) -> PassXMLError {
            var line = 1
            for k in 0..<offset where b[k] == UInt8(ascii: "\n") { line += 1 }
            return PassXMLError("\(what) (limit: \(limit)) at line \(line)")
        }
    }
}
