/// A small, total URL splitter: scheme, authority, path, query. Foundation's URL is avoided on purpose:
/// it normalises what the SDK would send as is, and differs between platforms.
///
/// Every simulated request and page load is split, several times, so the split is on the hot path of
/// a fuzz run and of `passim serve` (BENCHMARKS.md). An ASCII URL is split over its UTF-8 bytes: in
/// ASCII the only grapheme made of several scalars is CR LF, which holds none of `: / ? #`, so the
/// bytes and the characters give the same positions (a test checks it). Anything else is split by
/// characters. The query is decoded only when read.
public struct URLParts: Hashable, Sendable {
    public var scheme: String
    public var authority: String
    public var path: String
    public var rawQuery: String?

    /// The query's fields, decoded (`FormCoding.decode`).
    public var query: [(String, String)] { rawQuery.map(FormCoding.decode) ?? [] }

    public init?(_ string: String) {
        var string = string
        // Native strings are contiguous UTF-8 already; only a bridged one is copied here.
        switch string.withUTF8({ URLParts.splitASCII($0) }) {
        case .split(let parts): self = parts
        case .invalid: return nil
        case .notASCII:
            guard let parts = URLParts(splittingCharacters: string) else { return nil }
            self = parts
        }
    }

    private init(scheme: String, authority: String, path: String, rawQuery: String?) {
        self.scheme = scheme
        self.authority = authority
        self.path = path
        self.rawQuery = rawQuery
    }

    /// The split by characters (any text); `init` uses it for what is not ASCII.
    init?(splittingCharacters string: String) {
        guard let colon = string.firstIndex(of: ":") else { return nil }
        scheme = String(string[..<colon]).lowercased()
        guard !scheme.isEmpty, scheme.unicodeScalars.allSatisfy(URLParts.isSchemeScalar) else { return nil }
        var rest = Substring(string[string.index(after: colon)...])
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
            let end = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
            authority = String(rest[..<end])
            rest = rest[end...]
        } else {
            authority = ""
        }
        if let q = rest.firstIndex(of: "?") {
            path = String(rest[..<q])
            rawQuery = String(rest[rest.index(after: q)...])
        } else {
            path = String(rest)
            rawQuery = nil
        }
    }

    private enum ByteSplit {
        case split(URLParts)
        case invalid
        case notASCII
    }

    private static func splitASCII(_ b: UnsafeBufferPointer<UInt8>) -> ByteSplit {
        guard b.isASCII else { return .notASCII }
        let colon = UInt8(ascii: ":"), slash = UInt8(ascii: "/"), question = UInt8(ascii: "?")
        guard let schemeEnd = b.firstIndex(of: colon), schemeEnd > 0 else { return .invalid }
        var upper = false
        for c in b[..<schemeEnd] {
            guard c < 0x80, isSchemeScalar(Unicode.Scalar(c)) else { return .invalid }
            upper = upper || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z"))
        }
        let end = b[(schemeEnd + 1)...].firstIndex(of: UInt8(ascii: "#")) ?? b.count
        var start = schemeEnd + 1
        var authority = ""
        if end - start >= 2, b[start] == slash, b[start + 1] == slash {
            start += 2
            let authorityEnd = b[start..<end].firstIndex { $0 == slash || $0 == question } ?? end
            authority = text(b, start, authorityEnd)
            start = authorityEnd
        }
        let scheme = upper ? text(b, 0, schemeEnd).lowercased() : text(b, 0, schemeEnd)
        if let q = b[start..<end].firstIndex(of: question) {
            return .split(
                URLParts(scheme: scheme, authority: authority, path: text(b, start, q), rawQuery: text(b, q + 1, end)))
        }
        return .split(URLParts(scheme: scheme, authority: authority, path: text(b, start, end), rawQuery: nil))
    }

    private static func text(_ b: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: b[from..<to]), as: UTF8.self)
    }

    /// A letter (any alphabet), digit, `+`, `-` or `.`. ASCII is decided without the Unicode
    /// property lookup, which every URL of a fuzz run paid for.
    static func isSchemeScalar(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x61...0x7A, 0x41...0x5A, 0x30...0x39, 0x2B, 0x2D, 0x2E: return true
        case 0..<0x80: return false
        default: return c.properties.isAlphabetic
        }
    }

    public static func == (a: URLParts, b: URLParts) -> Bool {
        a.scheme == b.scheme && a.authority == b.authority && a.path == b.path && a.rawQuery == b.rawQuery
    }

    public func hash(into h: inout Hasher) {
        h.combine(scheme); h.combine(authority); h.combine(path); h.combine(rawQuery)
    }

    /// `scheme://authority`.
    public var origin: String { scheme + "://" + authority }

    public var isHTTP: Bool { scheme == "http" || scheme == "https" }

    public func parameter(_ name: String) -> String? { query.first { $0.0 == name }?.1 }

    /// Resolves a `Location` or form `action` against this URL (absolute, `//host`, `/path` or relative).
    public func resolve(_ reference: String) -> String {
        if URLParts(reference) != nil { return reference }
        if reference.hasPrefix("//") { return scheme + ":" + reference }
        if reference.hasPrefix("/") { return origin + reference }
        let dir = path.lastIndex(of: "/").map { String(path[...$0]) } ?? "/"
        return origin + dir + reference
    }
}

/// `application/x-www-form-urlencoded`, as browsers and the SDK write it.
public enum FormCoding {
    public static func encode(_ fields: [(String, String)]) -> String {
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
    public static func decode(bytes: [UInt8]) -> [(String, String)] {
        let ascii = bytes.withUnsafeBufferPointer { b in b.isASCII ? decodeASCII(b) : nil }
        return ascii ?? decode(String(decoding: bytes, as: UTF8.self))
    }

    public static func decode(_ s: String) -> [(String, String)] {
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
    public static func escapedFields(_ s: String) -> [(name: String, escapedValue: String)]? {
        var s = s
        return s.withUTF8(escapedFields)
    }

    /// `escapedFields` of UTF-8 bytes (a request's body, not made a string first).
    public static func escapedFields(_ bytes: UnsafeBufferPointer<UInt8>) -> [(name: String, escapedValue: String)]? {
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
    public static func escape(_ s: String) -> String {
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

    public static func unescape<S: StringProtocol>(_ s: S) -> String {
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

extension String {
    func leftPad(_ n: Int, with c: Character = "0") -> String {
        count >= n ? self : String(repeating: c, count: n - count) + self
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// Whether every byte is below 0x80, read eight at a time: a form carrying an authN token is
    /// some 5 KB, checked before it is split by bytes.
    var isASCII: Bool {
        guard let base = baseAddress else { return true }
        var i = 0
        while i + 8 <= count {
            if UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            i += 8
        }
        while i < count {
            if base[i] >= 0x80 { return false }
            i += 1
        }
        return true
    }
}
