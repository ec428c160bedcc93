import Testing

@testable import PassModel

/// `FormCoding` against the implementation it replaced (`OldFormCoding`, below, kept as the
/// reference): the same bytes out for ordinary and hostile input, every byte value included.
@Suite struct FormCodingReferenceTests {
    /// Hostile pieces: every byte value alone and in runs, non-ASCII, `%` at the end, `%zz`, `+`,
    /// empty names and values, `&&`, `=` in values, and long values.
    static let pieces: [String] = {
        var pieces = [
            "", "a", "A-z_0.9~", "%", "a%", "a%2", "%zz", "%2", "%20", "%2B", "%2b", "%+A", "%-0", "%-1", "%%41", "+",
            "++a+",
            "&", "&&", "=", "==", "a=b=c", "&a=&=b&&", "é", "e\u{301}", "\u{212A}", "日本語", "😀=😀&😀",
            "%C3%A9", "%FF%FE", "%C3", "\r\n", "a b/c?d#e",
        ]
        pieces.append(String(decoding: (0..<256).map { UInt8($0) }, as: UTF8.self))
        pieces.append(String(repeating: "abcDEF123-._~+/=%", count: 700))
        pieces.append(String(repeating: "x", count: 5000) + "%")
        pieces.append(String(repeating: "%2B%2F%3D", count: 500))
        return pieces
    }()

    /// Every byte value on its own, and amid unreserved ones, as text (bytes 0x80 and up repaired).
    static let bytePieces: [String] = (0..<256).flatMap { b -> [String] in
        let s = String(decoding: [UInt8(b)], as: UTF8.self)
        return [s, "ab" + s + "cdefghijk" + s + s, String(repeating: "q", count: 9) + s]
    }

    static func same(_ a: [(String, String)], _ b: [(String, String)]) -> Bool {
        a.map(\.0) == b.map(\.0) && a.map(\.1) == b.map(\.1)
    }

    @Test func escapeIsTheOldEscape() {
        for s in Self.pieces + Self.bytePieces {
            #expect(FormCoding.escape(s) == OldFormCoding.escape(s), "\(Array(s.utf8))")
        }
        for b in 0...255 {
            let c = UInt8(b)
            let old = OldFormCoding.escape(String(decoding: [c], as: UTF8.self)) == String(decoding: [c], as: UTF8.self)
            #expect(FormCoding.isUnreserved(c) == (old && c < 0x80), "\(b)")
        }
    }

    @Test func encodeIsTheOldEncode() {
        var random = SeededRandom(seed: 3)
        let all = Self.pieces + Self.bytePieces
        var forms: [[(String, String)]] = [
            [], [("", "")], [("a", "")], [("", "b")], [("a", "b"), ("", ""), ("c", "d")],
        ]
        for s in all { forms.append([(s, s)]) }
        for _ in 0..<500 {
            forms.append(
                (0..<Int(random.next() % 6)).map { _ in
                    (all[Int(random.next() % UInt64(all.count))], all[Int(random.next() % UInt64(all.count))])
                })
        }
        for fields in forms {
            let old = OldFormCoding.encode(fields)
            #expect(FormCoding.encode(fields) == old)
            #expect(FormCoding.encodedBytes(fields) == Array(old.utf8))
        }
    }

    /// Forms to decode: the hostile pieces alone, joined, and encoded.
    static let forms: [String] = {
        var random = SeededRandom(seed: 5)
        let all = pieces + bytePieces
        var forms = all
        for _ in 0..<1500 {
            let n = Int(random.next() % 5)
            forms.append((0..<n).map { _ in all[Int(random.next() % UInt64(all.count))] }.joined())
            forms.append(
                OldFormCoding.encode([
                    (all[Int(random.next() % UInt64(all.count))], all[Int(random.next() % UInt64(all.count))])
                ]))
        }
        return forms
    }()

    @Test func decodeIsTheOldDecode() {
        for form in Self.forms {
            #expect(Self.same(FormCoding.decode(form), OldFormCoding.decode(form)), "\(Array(form.utf8))")
            let bytes = Array(form.utf8)
            #expect(Self.same(FormCoding.decode(bytes: bytes), OldFormCoding.decode(bytes: bytes)), "\(bytes)")
            let new = FormCoding.escapedFields(form), old = OldFormCoding.escapedFields(form)
            #expect((new == nil) == (old == nil))
            if let new, let old {
                #expect(new.map(\.name) == old.map(\.name) && new.map(\.escapedValue) == old.map(\.escapedValue))
            }
        }
        // Not UTF-8.
        for bytes: [UInt8] in [[0xFF], [0x25, 0xFF, 0x3D, 0x25], [0x61, 0x3D, 0x25, 0x43, 0x33, 0x26, 0x80]] {
            #expect(Self.same(FormCoding.decode(bytes: bytes), OldFormCoding.decode(bytes: bytes)), "\(bytes)")
        }
    }

    @Test func unescapeIsTheOldUnescape() {
        for s in Self.forms { #expect(FormCoding.unescape(s) == OldFormCoding.unescape(s), "\(Array(s.utf8))") }
    }

    /// The eight-at-a-time search against a byte-by-byte one, at every start, for every offset of
    /// the match within a word.
    @Test func firstIndexFindsTheFirstOfEither() {
        var random = SeededRandom(seed: 8)
        let alphabet: [UInt8] = [0x26, 0x3D, 0x25, 0x2B, 0x00, 0x01, 0x7F, 0x80, 0xFF, 0x61, 0x27, 0x3C]
        for _ in 0..<2000 {
            let bytes = (0..<Int(random.next() % 40)).map { _ in
                random.next() % 3 == 0 ? alphabet[Int(random.next() % UInt64(alphabet.count))] : 0x61
            }
            let a = alphabet[Int(random.next() % 4)], b = alphabet[Int(random.next() % 4)]
            bytes.withUnsafeBufferPointer { buffer in
                for start in 0...buffer.count {
                    let expected = buffer[start...].firstIndex { $0 == a || $0 == b } ?? buffer.count
                    #expect(buffer.firstIndex(of: a, or: b, from: start) == expected, "\(bytes) \(a) \(b) \(start)")
                }
            }
        }
    }
}

/// The `FormCoding` of before its byte-level rewrite, as it was, for the tests above to compare with.
enum OldFormCoding {
    static func encode(_ fields: [(String, String)]) -> String {
        // Written once, at its exact size: every request the engine sends is encoded here, and a
        // string per escaped name, value and pair, then joined (later a byte array appended to
        // byte by byte), was a visible share of a fuzz run.
        let table = unreserved
        var size = max(fields.count - 1, 0)
        for (name, value) in fields { size += escapedCount(name, table) + 1 + escapedCount(value, table) }
        return String(unsafeUninitializedCapacity: size) { out in
            var j = 0
            for (i, (name, value)) in fields.enumerated() {
                if i > 0 {
                    out[j] = UInt8(ascii: "&")
                    j += 1
                }
                write(name, table, into: out, at: &j)
                out[j] = UInt8(ascii: "=")
                j += 1
                write(value, table, into: out, at: &j)
            }
            return j
        }
    }

    /// `decode(String(decoding: bytes, as: UTF8.self))`: an ASCII body (every form the simulation
    /// posts) is split straight from its bytes, where the text would hold the same bytes, without
    /// first copying them into a string; any other body is decoded as that text.
    static func decode(bytes: [UInt8]) -> [(String, String)] {
        let ascii = bytes.withUnsafeBufferPointer { b in b.isASCII ? decodeASCII(b) : nil }
        return ascii ?? decode(String(decoding: bytes, as: UTF8.self))
    }

    static func decode(_ s: String) -> [(String, String)] {
        // ASCII text (every form and query the simulation builds) is split by bytes, where a byte is
        // a character: the same pairs as by characters, without the grapheme breaking that was a
        // tenth of a fuzz run (BENCHMARKS.md). Other text keeps the split by characters.
        let ascii = s.utf8.withContiguousStorageIfAvailable { b in
            b.isASCII ? decodeASCII(b) : nil
        }
        if let fields = ascii ?? nil { return fields }
        if s.utf8.allSatisfy({ $0 < 0x80 }) { return decodeASCII(Array(s.utf8)) }
        return s.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            if let eq = pair.firstIndex(of: "=") {
                return (unescape(pair[..<eq]), unescape(pair[pair.index(after: eq)...]))
            }
            return (unescape(pair), "")
        }
    }

    /// The fields of `decode(s)` with their values still escaped (`unescape` gives what `decode`
    /// would): a reader that needs one field of a large form, maybe only later, decodes no value
    /// it does not read. nil when `s` is not ASCII (`decode` splits that by characters).
    static func escapedFields(_ s: String) -> [(name: String, escapedValue: String)]? {
        var s = s
        return s.withUTF8(escapedFields)
    }

    /// `escapedFields` of UTF-8 bytes (a request's body, not made a string first).
    static func escapedFields(_ bytes: UnsafeBufferPointer<UInt8>) -> [(name: String, escapedValue: String)]? {
        guard bytes.isASCII else { return nil }
        var fields: [(name: String, escapedValue: String)] = []
        forEachPair(bytes) { name, value in
            fields.append(
                (unescape(bytes: name), String(decoding: UnsafeBufferPointer(rebasing: value), as: UTF8.self)))
        }
        return fields
    }

    /// RFC 3986 unreserved characters, by byte: the ones `escape` leaves as they are.
    private static let unreserved: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for b in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8 { table[Int(b)] = true }
        return table
    }()
    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// Percent-encodes every byte but the unreserved ones. Works on bytes: forms are built on every
    /// simulated request, and this was a visible share of a fuzz run (BENCHMARKS.md).
    static func escape(_ s: String) -> String {
        // Most values (ids, tokens, codes) are unreserved throughout: returned as they are, shared.
        let table = unreserved
        let plain =
            s.utf8.withContiguousStorageIfAvailable { b in b.allSatisfy { table[Int($0)] } }
            ?? s.utf8.allSatisfy { table[Int($0)] }
        guard !plain else { return s }
        return String(unsafeUninitializedCapacity: escapedCount(s, table)) { out in
            var j = 0
            write(s, table, into: out, at: &j)
            return j
        }
    }

    /// `body` on the UTF-8 of `s`: a native string's own bytes, a bridged one's copied.
    private static func withBytes<R>(_ s: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let r = s.utf8.withContiguousStorageIfAvailable(body) { return r }
        return Array(s.utf8).withUnsafeBufferPointer(body)
    }

    /// How many bytes `s` takes escaped: three for each reserved byte.
    private static func escapedCount(_ s: String, _ table: [Bool]) -> Int {
        withBytes(s) { b in
            var n = 0
            for c in b { n += table[Int(c)] ? 1 : 3 }
            return n
        }
    }

    /// Writes `s` escaped into `out` from `j` on (`escapedCount` bytes), advancing `j`.
    private static func write(
        _ s: String, _ table: [Bool], into out: UnsafeMutableBufferPointer<UInt8>, at j: inout Int
    ) {
        let hex = hexDigits
        var k = j
        withBytes(s) { b in
            for c in b {
                if table[Int(c)] {
                    out[k] = c
                    k += 1
                } else {
                    out[k] = UInt8(ascii: "%")
                    out[k + 1] = hex[Int(c >> 4)]
                    out[k + 2] = hex[Int(c & 0x0F)]
                    k += 3
                }
            }
        }
        j = k
    }

    static func unescape<S: StringProtocol>(_ s: S) -> String {
        var text = String(s)
        return text.withUTF8 { unescape(bytes: $0[...]) }
    }

    private static func decodeASCII(_ bytes: [UInt8]) -> [(String, String)] {
        bytes.withUnsafeBufferPointer(decodeASCII)
    }

    /// The split of `decode` over ASCII bytes, in one pass: no array of pieces, and a piece with no
    /// `+` or `%` becomes its string directly.
    private static func decodeASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> [(String, String)] {
        var fields: [(String, String)] = []
        forEachPair(bytes) { name, value in fields.append((unescape(bytes: name), unescape(bytes: value))) }
        return fields
    }

    /// The `&`-separated pairs of an ASCII form, empty ones skipped, each split at its first `=`
    /// (none: the value is empty), in one pass with no array of pieces.
    private static func forEachPair(
        _ bytes: UnsafeBufferPointer<UInt8>,
        _ body: (Slice<UnsafeBufferPointer<UInt8>>, Slice<UnsafeBufferPointer<UInt8>>) -> Void
    ) {
        var start = 0
        let end = bytes.count
        while start < end {
            var stop = start
            var eq = -1
            while stop < end, bytes[stop] != UInt8(ascii: "&") {
                if eq < 0, bytes[stop] == UInt8(ascii: "=") { eq = stop }
                stop += 1
            }
            if stop > start {
                let pair = bytes[start..<stop]
                if eq >= 0 { body(pair[..<eq], pair[(eq + 1)...]) } else { body(pair, pair[stop...]) }
            }
            start = stop + 1
        }
    }

    /// `+` is a space, `%XY` the byte XY; anything else stays as it is. Written in one pass into the
    /// string's own storage (an authN token, some 5 KB escaped, is decoded from every authorization's
    /// form); invalid UTF-8 is repaired as `String(decoding:as:)` repairs it.
    private static func unescape(bytes s: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        let s = UnsafeBufferPointer(rebasing: s)
        guard s.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) else {
            return String(decoding: s, as: UTF8.self)
        }
        return String(unsafeUninitializedCapacity: s.count) { out in
            var i = 0
            var j = 0
            while i < s.count {
                let b = s[i]
                if b == UInt8(ascii: "+") {
                    out[j] = UInt8(ascii: " ")
                } else if b == UInt8(ascii: "%"), s.count - i > 2, let v = escapedByte(s[i + 1], s[i + 2]) {
                    out[j] = v
                    i += 2
                } else {
                    out[j] = b
                }
                i += 1
                j += 1
            }
            return j
        }
    }

    /// The byte `%ab` stands for: what `UInt8("ab", radix: 16)` reads, which `unescape` used, sign
    /// included (`%+A` is 0x0A, `%-0` is 0).
    private static func escapedByte(_ a: UInt8, _ b: UInt8) -> UInt8? {
        guard let low = hexValue(b) else { return nil }
        if let high = hexValue(a) { return high << 4 | low }
        if a == UInt8(ascii: "+") { return low }
        if a == UInt8(ascii: "-"), low == 0 { return 0 }
        return nil
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
