/// Standard base64 (RFC 4648 §4) for the SAML HTTP-POST binding. Written here rather than taken from
/// Foundation so PassXML needs nothing beyond PassModel and libxml2, and so decoding is strict:
/// whitespace (form values are often line-wrapped) is skipped, anything else outside the alphabet fails.
///
/// Every SAML message, signature and short media token of a fuzz run goes through here, kilobytes at
/// a time, so both directions work over contiguous bytes with lookup tables read through pointers and
/// write their output once, in place (a per-byte generic walk, an array of values and appends were a
/// visible share of the run).
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// In `decodeTable`: a byte that is skipped (space, tab, LF, CR), a padding `=`, and any other
    /// byte outside the alphabet. The alphabet's own bytes map to their values, 0-63.
    private static let whitespace: UInt8 = 0x40, pad: UInt8 = 0x41, invalid: UInt8 = 0xFF

    private static let decodeTable: [UInt8] = {
        var table = [UInt8](repeating: invalid, count: 256)
        for (v, c) in alphabet.enumerated() { table[Int(c)] = UInt8(v) }
        for c in [0x20, 0x09, 0x0A, 0x0D] { table[c] = whitespace }
        table[0x3D] = pad
        return table
    }()

    static func encode(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer(encode)
    }

    /// `encode(Array(text.utf8))`, read from the text's own bytes when they are contiguous (every
    /// native String) rather than copied into an array first.
    static func encode(utf8 text: String) -> String {
        text.utf8.withContiguousStorageIfAvailable(encode) ?? encode(Array(text.utf8))
    }

    static func encode(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let n = bytes.count
        // Four characters per three bytes or part of three: the exact size.
        return String(unsafeUninitializedCapacity: (n + 2) / 3 * 4) { out in
            alphabet.withUnsafeBufferPointer { a in
                var i = 0, j = 0
                while i + 3 <= n {
                    let b0 = bytes[i], b1 = bytes[i + 1], b2 = bytes[i + 2]
                    out[j] = a[Int(b0 >> 2)]
                    out[j + 1] = a[Int((b0 & 0x03) << 4 | b1 >> 4)]
                    out[j + 2] = a[Int((b1 & 0x0F) << 2 | b2 >> 6)]
                    out[j + 3] = a[Int(b2 & 0x3F)]
                    i += 3
                    j += 4
                }
                if i < n {
                    let b0 = bytes[i], b1 = i + 1 < n ? bytes[i + 1] : 0
                    out[j] = a[Int(b0 >> 2)]
                    out[j + 1] = a[Int((b0 & 0x03) << 4 | b1 >> 4)]
                    out[j + 2] = i + 1 < n ? a[Int((b1 & 0x0F) << 2)] : 0x3D
                    out[j + 3] = 0x3D
                    j += 4
                }
                return j
            }
        }
    }

    static func decode(_ text: String) throws(PassXMLError) -> [UInt8] {
        try decode(utf8: text.utf8)
    }

    /// `decode` over the UTF-8 of a text.
    static func decode<Bytes: Collection<UInt8>>(utf8 text: Bytes) throws(PassXMLError) -> [UInt8] {
        // Over the bytes in place when they are contiguous (every native String); anything else is
        // copied first, which only a bridged text is.
        let decoded = text.withContiguousStorageIfAvailable { bytes in decode(bytes: bytes) }
        return try (decoded ?? Array(text).withUnsafeBufferPointer { decode(bytes: $0) }).get()
    }

    /// One pass: each byte is looked up, each fourth value completes three output bytes, written
    /// into the result's own storage. The first byte that cannot be there is the error, at its
    /// offset; the count of values and padding is checked at the end.
    private static func decode(bytes b: UnsafeBufferPointer<UInt8>) -> Result<[UInt8], PassXMLError> {
        var failure: PassXMLError?
        // At most three bytes per four values, and one or two for a last two or three.
        let decoded = [UInt8](unsafeUninitializedCapacity: b.count / 4 * 3 + 2) { out, count in
            decodeTable.withUnsafeBufferPointer { table in
                var acc: UInt32 = 0
                var values = 0, padding = 0, j = 0
                for i in 0..<b.count {
                    let v = table[Int(b[i])]
                    if v < 64 {
                        guard padding == 0 else {
                            failure = PassXMLError("invalid base64: unexpected character at offset \(i)")
                            return
                        }
                        acc = acc << 6 | UInt32(v)
                        values += 1
                        if values & 3 == 0 {
                            out[j] = UInt8(truncatingIfNeeded: acc >> 16)
                            out[j + 1] = UInt8(truncatingIfNeeded: acc >> 8)
                            out[j + 2] = UInt8(truncatingIfNeeded: acc)
                            j += 3
                            acc = 0
                        }
                    } else if v == pad {
                        padding += 1
                    } else if v != whitespace {
                        failure = PassXMLError("invalid base64: unexpected character at offset \(i)")
                        return
                    }
                }
                guard padding <= 2, (values + padding) % 4 == 0, values % 4 != 1 else {
                    failure = PassXMLError(
                        "invalid base64: length \(values + padding) is not a whole number of quanta")
                    return
                }
                switch values & 3 {
                case 2:  // 12 bits: one byte, the last four bits dropped.
                    out[j] = UInt8(truncatingIfNeeded: acc >> 4)
                    j += 1
                case 3:  // 18 bits: two bytes, the last two bits dropped.
                    out[j] = UInt8(truncatingIfNeeded: acc >> 10)
                    out[j + 1] = UInt8(truncatingIfNeeded: acc >> 2)
                    j += 2
                default: break
                }
                count = j
            }
        }
        if let failure { return .failure(failure) }
        return .success(decoded)
    }
}
