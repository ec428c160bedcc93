import PassModel

/// A request URL split the way `URLParts` splits it (scheme lowercased, fragment dropped, authority,
/// path, raw query), without decoding the query. Every request goes through this split, and
/// `URLParts` does its work on `Character`s and Unicode properties, which made it a large share of a
/// request's cost under load (BENCHMARKS.md). An ASCII URL is split over its UTF-8 bytes instead:
/// in ASCII the only grapheme made of several scalars is CR LF, which holds none of `: / ? #`, so both
/// splits find the same positions. Anything else goes through `URLParts` itself.
struct RequestURL {
    var scheme: String
    var authority: String
    var path: String
    var rawQuery: String?

    init?(_ url: String) {
        if let fast = RequestURL(ascii: url) {
            self = fast
            return
        }
        guard let parts = URLParts(url) else { return nil }
        scheme = parts.scheme
        authority = parts.authority
        path = parts.path
        rawQuery = parts.rawQuery
    }

    /// The query's fields, decoded as `URLParts.query` decodes them.
    var query: [(String, String)] { rawQuery.map(FormCoding.decode) ?? [] }

    /// nil when `url` is not ASCII or has no valid scheme (the caller then asks `URLParts`).
    private init?(ascii url: String) {
        var url = url
        // Native strings are contiguous UTF-8 already; only a bridged one is copied here.
        guard let parts = url.withUTF8({ bytes -> RequestURL? in
            guard !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
            return RequestURL.split(bytes)
        }) else { return nil }
        self = parts
    }

    private static func split(_ b: UnsafeBufferPointer<UInt8>) -> RequestURL? {
        let colon = UInt8(ascii: ":"), slash = UInt8(ascii: "/"), question = UInt8(ascii: "?")
        guard let schemeEnd = b.firstIndex(of: colon), schemeEnd > 0 else { return nil }
        for c in b[..<schemeEnd] {
            let letter = (c | 0x20) >= UInt8(ascii: "a") && (c | 0x20) <= UInt8(ascii: "z")
            let other = (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9"))
                || c == UInt8(ascii: "+") || c == UInt8(ascii: "-") || c == UInt8(ascii: ".")
            guard letter || other else { return nil }
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
        let scheme = text(b, 0, schemeEnd).lowercased()
        if let q = b[start..<end].firstIndex(of: question) {
            return RequestURL(scheme: scheme, authority: authority, path: text(b, start, q),
                              rawQuery: text(b, q + 1, end))
        }
        return RequestURL(scheme: scheme, authority: authority, path: text(b, start, end), rawQuery: nil)
    }

    private init(scheme: String, authority: String, path: String, rawQuery: String?) {
        self.scheme = scheme
        self.authority = authority
        self.path = path
        self.rawQuery = rawQuery
    }

    private static func text(_ b: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: b[from..<to]), as: UTF8.self)
    }
}
