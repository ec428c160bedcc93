/// A JSON-shaped value: what calls take and callbacks carry, and what scenarios write.
///
/// Dictionaries keep their keys in insertion order so that canonical text never depends on
/// hashing (determinism is a feature: the same run prints the same bytes).
public indirect enum Value: Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case string(String)
    case list([Value])
    case dict([Entry])
    case mvpd(MVPD)

    public struct Entry: Hashable, Sendable {
        public var key: String
        public var value: Value
        public init(_ key: String, _ value: Value) {
            self.key = key
            self.value = value
        }
    }

    public subscript(key: String) -> Value? {
        guard case .dict(let entries) = self else { return nil }
        return entries.first { $0.key == key }?.value
    }

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var intValue: Int? {
        if case .int(let i) = self { return i }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    public var listValue: [Value]? {
        if case .list(let l) = self { return l }
        return nil
    }
}

extension Value: CustomStringConvertible {
    /// The canonical text of SCENARIO-FORMAT.md: `"s"`, `nil`, `[a, b]`, `{key: value}`, MVPDs by id.
    public var description: String {
        switch self {
        case .null: return "nil"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .string(let s): return Value.quote(s)
        case .list(let items): return "[" + items.map(\.description).joined(separator: ", ") + "]"
        case .dict(let entries):
            return "{" + entries.map { Value.key($0.key) + ": " + $0.value.description }.joined(separator: ", ") + "}"
        case .mvpd(let m): return Value.key(m.id)
        }
    }

    /// A dictionary key or name: bare when it lexes as an identifier, else a quoted string.
    public static func key(_ s: String) -> String {
        isIdentifier(s) ? s : quote(s)
    }

    public static func isIdentifier(_ s: String) -> Bool {
        guard let first = s.unicodeScalars.first else { return false }
        if first == "-" || first == "." || ("0"..."9").contains(first) { return false }
        if ["nil", "true", "false", "_"].contains(s) { return false }
        return s.unicodeScalars.allSatisfy(isIdentifierScalar)
    }

    public static func isIdentifierScalar(_ c: Unicode.Scalar) -> Bool {
        // ASCII is decided without the Unicode property lookup, which every word of a parsed line paid.
        switch c.value {
        case 0x61...0x7A, 0x41...0x5A, 0x30...0x39, 0x5F, 0x2D, 0x2E: return true
        case 0..<0x80: return false
        default: return c.properties.isAlphabetic
        }
    }

    public static func quote(_ s: String) -> String {
        var out = "\""
        for c in s.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                if c.value < 0x20 || c.value == 0x7F {
                    out += "\\u{" + String(c.value, radix: 16) + "}"
                } else {
                    out.unicodeScalars.append(c)
                }
            }
        }
        return out + "\""
    }
}
