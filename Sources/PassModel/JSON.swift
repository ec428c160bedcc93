/// Why a JSON text was refused: a value with a message that names the place (a byte offset).
public struct JSONError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// JSON (RFC 8259) for `Value`: what the mock SP puts in `<userMeta>`, registration codes and
/// `generic_data`. Hand-written rather than Foundation's so the text is byte-for-byte reproducible
/// (keys in insertion order, no platform-dependent number formatting) and so hostile input meets
/// explicit limits. Numbers are integers only: nothing in the simulated protocol carries a
/// fraction, and refusing one beats silently rounding it.
extension Value {
    /// Compact JSON: no insignificant whitespace, dictionary keys in order, an MVPD as its id string.
    public var jsonText: String { String(decoding: jsonUTF8, as: UTF8.self) }

    /// `jsonText`'s UTF-8, as a body or a Base64 header wants it. Written as bytes: appending to a
    /// String checks every piece, and most of the text is runs that need no escape.
    public var jsonUTF8: [UInt8] {
        var out: [UInt8] = []
        Value.writeJSON(self, into: &out)
        return out
    }

    /// Parses one JSON value (any type at top level). Containers nested deeper than `maxDepth` (at
    /// most `JSONLimits.depth`: a caller may lower it, never raise it),
    /// numbers with a fraction or exponent, integers outside `Int`, duplicate keys in one object,
    /// invalid escapes and unpaired surrogates are refused.
    public init(jsonText: String, maxDepth: Int = JSONLimits.depth) throws(JSONError) {
        try self.init(jsonBytes: Array(jsonText.utf8), maxDepth: maxDepth)
    }

    /// `init(jsonText:)` on a body's bytes as they came, without making a String of them first.
    /// Ill-formed UTF-8 gives the same value as `String(decoding:as:)` then `init(jsonText:)`: outside a
    /// string either form is refused, and inside one a string is decoded as a whole with the same repair
    /// (a replacement never swallows the ASCII `"` or `\` that bound a token or start an escape).
    public init(jsonBytes: [UInt8], maxDepth: Int = JSONLimits.depth) throws(JSONError) {
        var parser = JSONParser(jsonBytes, maxDepth: min(maxDepth, JSONLimits.depth))
        self = try parser.parseDocument()
    }

    private static func writeJSON(_ v: Value, into out: inout [UInt8]) {
        switch v {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let i): out.append(contentsOf: String(i).utf8)
        case .string(let s): writeJSONString(s, into: &out)
        case .mvpd(let m): writeJSONString(m.id, into: &out)
        case .list(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                writeJSON(item, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .dict(let entries):
            out.append(UInt8(ascii: "{"))
            for (i, entry) in entries.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                writeJSONString(entry.key, into: &out)
                out.append(UInt8(ascii: ":"))
                writeJSON(entry.value, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func writeJSONString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { writeEscaped($0, into: &out) }
        out.append(UInt8(ascii: "\""))
    }

    /// A string's UTF-8 with `"`, `\` and the C0 controls escaped, the runs between them appended
    /// whole. Only ASCII is ever escaped: a multi-byte scalar's bytes are all 0x80 or above, so they
    /// go out as they are, as the scalar would.
    private static func writeEscaped(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        var run = 0
        for (j, b) in bytes.enumerated() where b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") {
            out.append(contentsOf: bytes[run..<j])
            run = j + 1
            switch b {
            case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
            case 0x0A: out.append(contentsOf: #"\n"#.utf8)
            case 0x0D: out.append(contentsOf: #"\r"#.utf8)
            case 0x09: out.append(contentsOf: #"\t"#.utf8)
            case 0x08: out.append(contentsOf: #"\b"#.utf8)
            case 0x0C: out.append(contentsOf: #"\f"#.utf8)
            default: out.append(contentsOf: ("\\u" + String(b, radix: 16).leftPad(4)).utf8)
            }
        }
        out.append(contentsOf: bytes[run...])
    }
}

/// An iterative parser: containers live on an explicit stack, so parsing itself never recurses.
/// Linear in the input: each open container is mutated in place on the stack (an enum payload taken
/// out and put back would hold a second reference, so every append would copy the container: one
/// object of n keys cost O(n²), 40,000 keys 20 s), and each key of a large object is checked against
/// a set (a small one's against its few keys: hashing them cost more than the rest of the parse).
private struct JSONParser {
    private struct Frame {
        var isList: Bool
        var items: [Value] = []
        var entries: [Value.Entry] = []
        /// The keys so far, made once the object has `Frame.scanLimit` of them; until then they are
        /// compared with `entries`' keys one by one.
        var keys: Set<String> = []

        static let scanLimit = 16

        /// Records `key`; false if the object already has it.
        mutating func insert(key: String) -> Bool {
            if entries.count < Frame.scanLimit { return !entries.contains { $0.key == key } }
            if keys.isEmpty { keys = Set(entries.lazy.map(\.key)) }
            return keys.insert(key).inserted
        }
        var pendingKey = ""
    }

    private let bytes: [UInt8]
    private let maxDepth: Int
    private var i = 0

    init(_ bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    mutating func parseDocument() throws(JSONError) -> Value {
        skipSpace()
        let v = try parseValue()
        skipSpace()
        guard i == bytes.count else { throw error("unexpected \(describe(bytes[i])) after the value") }
        return v
    }

    private mutating func parseValue() throws(JSONError) -> Value {
        var stack: [Frame] = []
        while true {
            skipSpace()
            guard i < bytes.count else { throw error("unexpected end of input, expected a value") }
            var value: Value
            switch bytes[i] {
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                guard stack.count < maxDepth else {
                    throw error("value nested deeper than \(maxDepth) levels (limit: json-depth)")
                }
                let isList = bytes[i] == UInt8(ascii: "[")
                i += 1
                skipSpace()
                if isList {
                    if peek(UInt8(ascii: "]")) {
                        i += 1
                        value = .list([])
                    } else {
                        stack.append(Frame(isList: true))
                        continue
                    }
                } else {
                    if peek(UInt8(ascii: "}")) {
                        i += 1
                        value = .dict([])
                    } else {
                        let key = try parseKey()
                        stack.append(Frame(isList: false, pendingKey: key))
                        continue
                    }
                }
            case UInt8(ascii: "\""):
                value = .string(try parseString())
            case UInt8(ascii: "t"): try literal("true"); value = .bool(true)
            case UInt8(ascii: "f"): try literal("false"); value = .bool(false)
            case UInt8(ascii: "n"): try literal("null"); value = .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = .int(try parseInteger())
            default:
                throw error("unexpected \(describe(bytes[i])), expected a value")
            }

            // Hand the finished value to the innermost open container, closing containers as they end.
            while true {
                guard !stack.isEmpty else { return value }
                let top = stack.count - 1
                skipSpace()
                if stack[top].isList {
                    stack[top].items.append(value)
                    if peek(UInt8(ascii: ",")) {
                        i += 1
                    } else if peek(UInt8(ascii: "]")) {
                        i += 1
                        value = .list(stack.removeLast().items)
                        continue
                    } else {
                        throw error(
                            i < bytes.count
                                ? "unexpected \(describe(bytes[i])) in an array, expected ',' or ']'"
                                : "unexpected end of input in an array")
                    }
                } else {
                    stack[top].entries.append(Value.Entry(stack[top].pendingKey, value))
                    if peek(UInt8(ascii: ",")) {
                        i += 1
                        skipSpace()
                        let keyOffset = i
                        let key = try parseKey()
                        guard stack[top].insert(key: key) else {
                            throw JSONError("duplicate key \(Value.quote(key)) at offset \(keyOffset)")
                        }
                        stack[top].pendingKey = key
                    } else if peek(UInt8(ascii: "}")) {
                        i += 1
                        value = .dict(stack.removeLast().entries)
                        continue
                    } else {
                        throw error(
                            i < bytes.count
                                ? "unexpected \(describe(bytes[i])) in an object, expected ',' or '}'"
                                : "unexpected end of input in an object")
                    }
                }
                break
            }
        }
    }

    /// `"key"` then `:`.
    private mutating func parseKey() throws(JSONError) -> String {
        guard peek(UInt8(ascii: "\"")) else {
            throw error(
                i < bytes.count
                    ? "unexpected \(describe(bytes[i])), expected a string key"
                    : "unexpected end of input, expected a string key")
        }
        let key = try parseString()
        skipSpace()
        guard peek(UInt8(ascii: ":")) else { throw error("expected ':' after an object key") }
        i += 1
        return key
    }

    private mutating func parseString() throws(JSONError) -> String {
        let start = i
        i += 1  // opening quote
        // A string without escapes (nearly all) is decoded straight from the input.
        while i < bytes.count, bytes[i] != UInt8(ascii: "\""), bytes[i] != UInt8(ascii: "\\"), bytes[i] >= 0x20 {
            i += 1
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "\"") {
            i += 1
            return String(decoding: bytes[(start + 1)..<(i - 1)], as: UTF8.self)
        }
        var out = Array(bytes[(start + 1)..<i])
        while true {
            guard i < bytes.count else { throw JSONError("unterminated string starting at offset \(start)") }
            let b = bytes[i]
            switch b {
            case UInt8(ascii: "\""):
                i += 1
                // Unescaped bytes came from a Swift String and escapes are encoded below, so this is valid UTF-8.
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                i += 1
                guard i < bytes.count else { throw JSONError("unterminated string starting at offset \(start)") }
                let e = bytes[i]
                i += 1
                switch e {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    let scalar = try parseUnicodeEscape()
                    out.append(contentsOf: Array(String(Character(scalar)).utf8))
                default:
                    i -= 1
                    throw error("invalid escape '\\\(String(decoding: [e], as: UTF8.self))'")
                }
            default:
                guard b >= 0x20 else { throw error("unescaped control character \(describe(b)) in a string") }
                out.append(b)
                i += 1
            }
        }
    }

    /// After `\u`: four hex digits, and for a high surrogate the `\uDC00`-`\uDFFF` that must follow.
    private mutating func parseUnicodeEscape() throws(JSONError) -> Unicode.Scalar {
        let at = i - 2
        let first = try hex4()
        switch first {
        case 0xD800...0xDBFF:
            guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                throw JSONError("unpaired surrogate \\u\(String(first, radix: 16, uppercase: true)) at offset \(at)")
            }
            i += 2
            let second = try hex4()
            guard (0xDC00...0xDFFF).contains(second) else {
                throw JSONError("unpaired surrogate \\u\(String(first, radix: 16, uppercase: true)) at offset \(at)")
            }
            let value = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            guard let scalar = Unicode.Scalar(value) else { throw JSONError("invalid \\u escape at offset \(at)") }
            return scalar
        case 0xDC00...0xDFFF:
            throw JSONError("unpaired surrogate \\u\(String(first, radix: 16, uppercase: true)) at offset \(at)")
        default:
            guard let scalar = Unicode.Scalar(first) else { throw JSONError("invalid \\u escape at offset \(at)") }
            return scalar
        }
    }

    private mutating func hex4() throws(JSONError) -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<4 {
            guard i < bytes.count else { throw error("unexpected end of input in a \\u escape") }
            let b = bytes[i]
            let d: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit \(describe(b)) in a \\u escape")
            }
            v = v * 16 + d
            i += 1
        }
        return v
    }

    /// RFC 8259's number grammar; a fraction or exponent is well-formed JSON but refused here.
    private mutating func parseInteger() throws(JSONError) -> Int {
        let start = i
        var negative = false
        if bytes[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        }
        guard i < bytes.count, isDigit(bytes[i]) else { throw JSONError("invalid number at offset \(start)") }
        if bytes[i] == UInt8(ascii: "0"), i + 1 < bytes.count, isDigit(bytes[i + 1]) {
            throw JSONError("invalid number at offset \(start): leading zeros are not allowed")
        }
        // Accumulate negatively so Int.min is representable.
        var value = 0
        var overflow = false
        while i < bytes.count, isDigit(bytes[i]) {
            let d = Int(bytes[i] - UInt8(ascii: "0"))
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.subtractingReportingOverflow(d)
            overflow = overflow || o1 || o2
            value = s
            i += 1
        }
        if i < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[i]) {
            throw JSONError("number at offset \(start): only integers are supported")
        }
        if negative {
            guard !overflow else { throw JSONError("integer at offset \(start) is out of range") }
            return value
        }
        guard !overflow, value != Int.min else { throw JSONError("integer at offset \(start) is out of range") }
        return -value
    }

    private mutating func literal(_ word: String) throws(JSONError) {
        // Compared in place: no array made for each `true`, `false` or `null`.
        let w = word.utf8
        guard i + w.count <= bytes.count, bytes[i..<i + w.count].elementsEqual(w) else {
            throw error("invalid literal, expected '\(word)'")
        }
        i += w.count
    }

    private mutating func skipSpace() {
        // A switch, not an array literal's `contains`: this runs between every two tokens.
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0A, 0x0D: i += 1
            default: return
            }
        }
    }

    private func peek(_ b: UInt8) -> Bool { i < bytes.count && bytes[i] == b }

    private func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    private func describe(_ b: UInt8) -> String {
        if b >= 0x21, b < 0x7F { return "'" + String(UnicodeScalar(b)) + "'" }
        return "byte 0x" + String(b, radix: 16, uppercase: true).leftPad(2)
    }

    private func error(_ message: String) -> JSONError { JSONError("\(message) at offset \(i)") }
}
