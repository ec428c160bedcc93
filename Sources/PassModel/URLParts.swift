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
        // The separators are found eight bytes at a time: a login URL carries a long query.
        let end = b.firstIndex(of: UInt8(ascii: "#"), or: UInt8(ascii: "#"), from: schemeEnd + 1)
        let upTo = UnsafeBufferPointer(rebasing: b[..<end])
        var start = schemeEnd + 1
        var authority = ""
        if end - start >= 2, b[start] == slash, b[start + 1] == slash {
            start += 2
            let authorityEnd = upTo.firstIndex(of: slash, or: question, from: start)
            authority = text(b, start, authorityEnd)
            start = authorityEnd
        }
        let scheme = upper ? text(b, 0, schemeEnd).lowercased() : knownScheme(b, schemeEnd) ?? text(b, 0, schemeEnd)
        let q = upTo.firstIndex(of: question, or: question, from: start)
        if q < end {
            return .split(
                URLParts(scheme: scheme, authority: authority, path: text(b, start, q), rawQuery: text(b, q + 1, end)))
        }
        return .split(URLParts(scheme: scheme, authority: authority, path: text(b, start, end), rawQuery: nil))
    }

    /// `http` or `https` as a literal when the scheme's bytes are those: nearly every URL's, and a
    /// literal is neither checked as UTF-8 nor counted as a reference.
    private static func knownScheme(_ b: UnsafeBufferPointer<UInt8>, _ count: Int) -> String? {
        guard count == 4 || count == 5, b[0] == UInt8(ascii: "h"), b[1] == UInt8(ascii: "t"), b[2] == UInt8(ascii: "t"),
            b[3] == UInt8(ascii: "p")
        else { return nil }
        if count == 4 { return "http" }
        return b[4] == UInt8(ascii: "s") ? "https" : nil
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
        String(unsafeUninitializedCapacity: encodedCount(fields)) { write(fields, into: $0) }
    }

    /// `Array(encode(fields).utf8)`, written straight into the array: a form POST's body, which
    /// need not be a string first (nor be checked as UTF-8, then copied).
    public static func encodedBytes(_ fields: [(String, String)]) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: encodedCount(fields)) { out, n in n = write(fields, into: out) }
    }

    /// The size of `encode(fields)`.
    private static func encodedCount(_ fields: [(String, String)]) -> Int {
        var size = max(fields.count - 1, 0)
        for (name, value) in fields { size += escapedCount(name) + 1 + escapedCount(value) }
        return size
    }

    /// Writes `encode(fields)` into `out` (`encodedCount` bytes), returning how many it wrote.
    private static func write(_ fields: [(String, String)], into out: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var j = 0
        for (i, (name, value)) in fields.enumerated() {
            if i > 0 {
                out[j] = UInt8(ascii: "&")
                j += 1
            }
            write(name, into: out, at: &j)
            out[j] = UInt8(ascii: "=")
            j += 1
            write(value, into: out, at: &j)
        }
        return j
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
        fields.reserveCapacity(initialFieldCapacity(bytes))
        forEachPair(bytes) { name, value in
            fields.append(
                (unescape(bytes: name), String(decoding: UnsafeBufferPointer(rebasing: value), as: UTF8.self)))
        }
        return fields
    }

    /// Whether `escape` leaves the byte as it is: an RFC 3986 unreserved character (letters,
    /// digits, `-._~`). A bit of two words, not an array: no bounds check nor global to load per
    /// byte of every form the engine writes.
    @inline(__always)
    static func isUnreserved(_ c: UInt8) -> Bool {
        // Bits 45, 46 and 48-57 (`-.0-9`); above 64, bits 1-26, 31, 33-58 and 62 (`A-Z_a-z~`).
        let word: UInt64 = c < 64 ? 0x03FF_6000_0000_0000 : c < 128 ? 0x47FF_FFFE_87FF_FFFE : 0
        return word >> (c & 63) & 1 != 0
    }

    /// Percent-encodes every byte but the unreserved ones. Works on bytes: forms are built on every
    /// simulated request, and this was a visible share of a fuzz run (BENCHMARKS.md).
    public static func escape(_ s: String) -> String {
        // Most values (ids, tokens, codes) are unreserved throughout: returned as they are, shared.
        let plain =
            s.utf8.withContiguousStorageIfAvailable { b in b.allSatisfy(isUnreserved) }
            ?? s.utf8.allSatisfy(isUnreserved)
        guard !plain else { return s }
        return String(unsafeUninitializedCapacity: escapedCount(s)) { out in
            var j = 0
            write(s, into: out, at: &j)
            return j
        }
    }

    /// Per byte, the bytes `escape` writes for it: 1 for an unreserved one, 3 for `%XY`. Read
    /// through a pointer, a load per byte of every form the engine writes.
    private static let escapedWidths: [UInt8] = (0..<256).map { isUnreserved(UInt8($0)) ? 1 : 3 }

    /// `body` on the UTF-8 of `s`: a native string's own bytes, a bridged one's copied.
    private static func withBytes<R>(_ s: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let r = s.utf8.withContiguousStorageIfAvailable(body) { return r }
        return Array(s.utf8).withUnsafeBufferPointer(body)
    }

    /// How many bytes `s` takes escaped: three for each reserved byte.
    private static func escapedCount(_ s: String) -> Int {
        escapedWidths.withUnsafeBufferPointer { widths in
            withBytes(s) { b in
                var n = 0
                for c in b { n &+= Int(widths[Int(c)]) }
                return n
            }
        }
    }

    /// Writes `s` escaped into `out` from `j` on (`escapedCount` bytes), advancing `j`. Each run of
    /// unreserved bytes (a Base64 token's are some thirty long) is copied whole.
    private static func write(_ s: String, into out: UnsafeMutableBufferPointer<UInt8>, at j: inout Int) {
        guard let to = out.baseAddress else { return }
        var k = j
        escapedWidths.withUnsafeBufferPointer { widths in
            withBytes(s) { b in
                guard let from = b.baseAddress else { return }
                var i = 0
                while i < b.count {
                    var end = i
                    while end < b.count, widths[Int(from[end])] == 1 { end &+= 1 }
                    (to + k).initialize(from: from + i, count: end &- i)
                    k &+= end &- i
                    guard end < b.count else { break }
                    let c = from[end]
                    to[k] = UInt8(ascii: "%")
                    to[k &+ 1] = hexDigit(c >> 4)
                    to[k &+ 2] = hexDigit(c & 0x0F)
                    k &+= 3
                    i = end &+ 1
                }
            }
        }
        j = k
    }

    /// The upper-case hex digit of a value below 16.
    @inline(__always)
    private static func hexDigit(_ v: UInt8) -> UInt8 {
        v < 10 ? UInt8(ascii: "0") &+ v : UInt8(ascii: "A") &+ (v &- 10)
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
        fields.reserveCapacity(initialFieldCapacity(bytes))
        forEachPair(bytes) { name, value in fields.append((unescape(bytes: name), unescape(bytes: value))) }
        return fields
    }

    /// Room for the fields of a form of these bytes, up to eight (a pair takes two bytes at least):
    /// one allocation where the array grew four times for a form of a few fields, as most are.
    private static func initialFieldCapacity(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        min((bytes.count + 1) / 2, 8)
    }

    /// The `&`-separated pairs of an ASCII form, empty ones skipped, each split at its first `=`
    /// (none: the value is empty), in one pass with no array of pieces; the separators are found
    /// eight bytes at a time.
    private static func forEachPair(
        _ bytes: UnsafeBufferPointer<UInt8>,
        _ body: (Slice<UnsafeBufferPointer<UInt8>>, Slice<UnsafeBufferPointer<UInt8>>) -> Void
    ) {
        let amp = UInt8(ascii: "&"), equals = UInt8(ascii: "=")
        var start = 0
        let end = bytes.count
        while start < end {
            // The first `&` or `=`; after a `=`, the next `&`.
            var stop = bytes.firstIndex(of: amp, or: equals, from: start)
            var eq = -1
            if stop < end, bytes[stop] == equals {
                eq = stop
                stop = bytes.firstIndex(of: amp, or: amp, from: stop &+ 1)
            }
            if stop > start {
                let pair = bytes[start..<stop]
                if eq >= 0 { body(pair[..<eq], pair[(eq + 1)...]) } else { body(pair, pair[stop...]) }
            }
            start = stop &+ 1
        }
    }

    /// `+` is a space, `%XY` the byte XY; anything else stays as it is. Written in one pass into the
    /// string's own storage, each run with neither `+` nor `%` copied whole (an authN token, some
    /// 5 KB escaped, is decoded from every authorization's form); invalid UTF-8 is repaired as
    /// `String(decoding:as:)` repairs it.
    private static func unescape(bytes s: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        let s = UnsafeBufferPointer(rebasing: s)
        let plus = UInt8(ascii: "+"), percent = UInt8(ascii: "%")
        var i = s.firstIndex(of: plus, or: percent, from: 0)
        guard i < s.count, let from = s.baseAddress else { return String(decoding: s, as: UTF8.self) }
        return String(unsafeUninitializedCapacity: s.count) { out in
            guard let to = out.baseAddress else { return 0 }
            to.initialize(from: from, count: i)
            var j = i
            while i < s.count {
                // `s[i]` is `+` or `%`.
                if s[i] == plus {
                    to[j] = UInt8(ascii: " ")
                    i &+= 1
                } else if s.count &- i > 2, let v = escapedByte(s[i &+ 1], s[i &+ 2]) {
                    to[j] = v
                    i &+= 3
                } else {
                    to[j] = percent
                    i &+= 1
                }
                j &+= 1
                let next = s.firstIndex(of: plus, or: percent, from: i)
                (to + j).initialize(from: from + i, count: next &- i)
                j &+= next &- i
                i = next
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
