/// Base64 as REST v2's headers carry it (RFC 4648, standard or URL-safe alphabet, padding
/// optional). Anything else is nil, never a trap: the headers come straight from clients.
enum StrictBase64 {
    static func decode(_ text: String) -> [UInt8]? {
        var values: [UInt8] = []
        values.reserveCapacity(text.utf8.count)
        var padding = 0
        for c in text.utf8 {
            if c == UInt8(ascii: "=") { padding += 1; continue }
            // Nothing but padding may follow padding.
            guard padding == 0, let v = value(c) else { return nil }
            values.append(v)
        }
        guard padding <= 2, values.count % 4 != 1 else { return nil }
        if padding > 0, (values.count + padding) % 4 != 0 { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(values.count * 3 / 4)
        var i = 0
        while i + 4 <= values.count {
            let n =
                UInt32(values[i]) << 18 | UInt32(values[i + 1]) << 12 | UInt32(values[i + 2]) << 6
                | UInt32(values[i + 3])
            out += [UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)]
            i += 4
        }
        let rest = values.count - i
        if rest == 2 {
            let n = UInt32(values[i]) << 18 | UInt32(values[i + 1]) << 12
            out.append(UInt8(n >> 16 & 0xFF))
        } else if rest == 3 {
            let n = UInt32(values[i]) << 18 | UInt32(values[i + 1]) << 12 | UInt32(values[i + 2]) << 6
            out += [UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF)]
        }
        return out
    }

    private static func value(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return c - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return c - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"), UInt8(ascii: "-"): return 62
        case UInt8(ascii: "/"), UInt8(ascii: "_"): return 63
        default: return nil
        }
    }

    /// The decoded bytes as a JSON object, else nil (not Base64, not UTF-8 JSON, or not an object).
    /// Bytes that are not UTF-8 are refused, not read as U+FFFD (docs/CONFORMANCE.md, choice 93):
    /// JSON between systems must be UTF-8 (RFC 8259 8.1), and a replaced value is not what was sent.
    static func jsonObject(_ text: String) -> Value? {
        guard let bytes = decode(text), let utf8 = String(validating: bytes, as: UTF8.self),
            let json = try? Value(jsonText: utf8),
            case .dict = json
        else { return nil }
        return json
    }
}

import PassModel
