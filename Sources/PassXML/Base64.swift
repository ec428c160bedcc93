/// Standard base64 (RFC 4648 §4) for the SAML HTTP-POST binding. Written here rather than taken from
/// Foundation so PassXML needs nothing beyond PassModel and libxml2, and so decoding is strict:
/// whitespace (form values are often line-wrapped) is skipped, anything else outside the alphabet fails.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i < bytes.count {
            let b0 = bytes[i], b1 = i + 1 < bytes.count ? bytes[i + 1] : 0, b2 = i + 2 < bytes.count ? bytes[i + 2] : 0
            out.append(alphabet[Int(b0 >> 2)])
            out.append(alphabet[Int((b0 & 0x03) << 4 | b1 >> 4)])
            out.append(i + 1 < bytes.count ? alphabet[Int((b1 & 0x0F) << 2 | b2 >> 6)] : 0x3D)
            out.append(i + 2 < bytes.count ? alphabet[Int(b2 & 0x3F)] : 0x3D)
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func decode(_ text: String) throws(PassXMLError) -> [UInt8] {
        // Over the text's bytes when they are contiguous (every native String): a SAML message is
        // kilobytes, and stepping through the UTF-8 view cost most of its decoding. The same code
        // walks the view of a bridged text.
        let decoded = text.utf8.withContiguousStorageIfAvailable { bytes in
            Result { () throws(PassXMLError) -> [UInt8] in try decode(utf8: bytes) }
        }
        if let decoded { return try decoded.get() }
        return try decode(utf8: text.utf8)
    }

    /// `decode` over the UTF-8 of a text.
    static func decode<Bytes: Collection<UInt8>>(utf8 text: Bytes) throws(PassXMLError) -> [UInt8] {
        var values: [UInt8] = []
        // Reserved whole: a SAML message is kilobytes, grown append by append otherwise.
        values.reserveCapacity(text.count)
        var padding = 0
        for (offset, c) in text.enumerated() {
            switch c {
            case 0x20, 0x09, 0x0A, 0x0D: continue
            case 0x3D: padding += 1; continue
            default: break
            }
            guard padding == 0, let v = value(c) else {
                throw PassXMLError("invalid base64: unexpected character at offset \(offset)")
            }
            values.append(v)
        }
        guard padding <= 2, (values.count + padding) % 4 == 0, values.count % 4 != 1 else {
            throw PassXMLError("invalid base64: length \(values.count + padding) is not a whole number of quanta")
        }
        var out: [UInt8] = []
        out.reserveCapacity(values.count * 3 / 4)
        var i = 0
        while i < values.count {
            let n = min(4, values.count - i)
            let v0 = values[i], v1 = values[i + 1]
            let v2 = n > 2 ? values[i + 2] : 0, v3 = n > 3 ? values[i + 3] : 0
            out.append(v0 << 2 | v1 >> 4)
            if n > 2 { out.append((v1 & 0x0F) << 4 | v2 >> 2) }
            if n > 3 { out.append((v2 & 0x03) << 6 | v3) }
            i += 4
        }
        return out
    }

    private static func value(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x41...0x5A: return c - 0x41
        case 0x61...0x7A: return c - 0x61 + 26
        case 0x30...0x39: return c - 0x30 + 52
        case 0x2B: return 62
        case 0x2F: return 63
        default: return nil
        }
    }
}
