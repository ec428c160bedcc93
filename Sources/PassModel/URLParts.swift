/// A small, total URL splitter: scheme, authority, path, query. Foundation's URL is avoided on purpose:
/// it normalises what the SDK would send as is, and differs between platforms.
public struct URLParts: Hashable, Sendable {
    public var scheme: String
    public var authority: String
    public var path: String
    public var query: [(String, String)]
    public var rawQuery: String?

    public init?(_ string: String) {
        guard let colon = string.firstIndex(of: ":") else { return nil }
        scheme = String(string[..<colon]).lowercased()
        guard !scheme.isEmpty, scheme.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || "+-.0123456789".unicodeScalars.contains($0) }) else { return nil }
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
            query = FormCoding.decode(rawQuery ?? "")
        } else {
            path = String(rest)
            rawQuery = nil
            query = []
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
        fields.map { escape($0.0) + "=" + escape($0.1) }.joined(separator: "&")
    }

    public static func decode(_ s: String) -> [(String, String)] {
        s.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            if let eq = pair.firstIndex(of: "=") {
                return (unescape(pair[..<eq]), unescape(pair[pair.index(after: eq)...]))
            }
            return (unescape(pair), "")
        }
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
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count + s.utf8.count / 2)
        for b in s.utf8 {
            if unreserved[Int(b)] {
                out.append(b)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(b >> 4)])
                out.append(hexDigits[Int(b & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    public static func unescape<S: StringProtocol>(_ s: S) -> String {
        var bytes: [UInt8] = []
        var it = Array(s.utf8)[...]
        while let b = it.popFirst() {
            if b == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if b == UInt8(ascii: "%"), it.count >= 2,
                      let v = UInt8(String(decoding: it.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(v)
                it = it.dropFirst(2)
            } else {
                bytes.append(b)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension String {
    func leftPad(_ n: Int, with c: Character = "0") -> String {
        count >= n ? self : String(repeating: c, count: n - count) + self
    }
}
