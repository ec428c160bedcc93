import PassModel

/// An app's cookies, shared by its browser and the engine's requests, as WKWebView and the URL
/// loading system share them on iOS. That is how the SP's `sessionDevice` finds the login session.
struct CookieJar: Sendable {
    private struct Cookie: Sendable {
        var host: String
        var name: String
        var value: String
    }
    private var cookies: [Cookie] = []

    mutating func store(from response: HTTPResponse, url: String) {
        // Most answers set no cookie: their URL is then not split at all.
        let headers = response.headers.all("Set-Cookie")
        guard !headers.isEmpty, let host = URLParts(url)?.authority else { return }
        for header in headers {
            guard let set = CookieJar.parse(header) else { continue }
            cookies.removeAll { $0.host == host && $0.name == set.name }
            if !set.deletes { cookies.append(Cookie(host: host, name: set.name, value: set.value)) }
        }
    }

    /// What one `Set-Cookie` header sets: the name and value of its first `;`-separated part, and
    /// whether a later part is `Max-Age=0`, which deletes the cookie (RFC 6265 5.2.2; paths and
    /// other lifetimes are not kept). nil: the header sets nothing (no `=`, or an empty name).
    static func parse(_ header: String) -> SetCookie? {
        // Every cookie the mock sets is ASCII: read by bytes. Splitting it into characters was most
        // of the jar's cost (the SP's session cookies run to a hundred characters and more).
        header.utf8.allSatisfy({ $0 < 0x80 }) ? parseASCII(header) : parseCharacters(header)
    }

    struct SetCookie: Hashable {
        var name: String
        var value: String
        var deletes: Bool
    }

    /// `parseCharacters` for an ASCII header, by bytes. The same result: in ASCII text `;`, `=` and
    /// the space are characters of their own (the one cluster of two ASCII bytes, CR LF, is neither),
    /// and lowercasing changes only `A`-`Z`.
    static func parseASCII(_ header: String) -> SetCookie? {
        // `split` leaves the empty parts out, as the characters' split does.
        let parts = Array(header.utf8).split(separator: UInt8(ascii: ";"))
        guard let pair = parts.first, let eq = pair.firstIndex(of: UInt8(ascii: "=")) else { return nil }
        let name = String(decoding: trimmed(pair[..<eq]), as: UTF8.self)
        guard !name.isEmpty else { return nil }
        let value = String(decoding: trimmed(pair[(eq + 1)...]), as: UTF8.self)
        let maxAgeZero = Array("max-age=0".utf8)
        let deletes = parts.dropFirst().contains { part in
            trimmed(part).lazy.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }.elementsEqual(maxAgeZero)
        }
        return SetCookie(name: name, value: value, deletes: deletes)
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        guard let first = bytes.firstIndex(where: { $0 != 0x20 }), let last = bytes.lastIndex(where: { $0 != 0x20 })
        else { return [] }
        return bytes[first...last]
    }

    /// Any header, by characters (what the jar always did; `parseASCII` must agree with it).
    static func parseCharacters(_ header: String) -> SetCookie? {
        let pair = header.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        guard let eq = pair.firstIndex(of: "=") else { return nil }
        let name = pair[..<eq].trimmingSpaces, value = pair[pair.index(after: eq)...].trimmingSpaces
        guard !name.isEmpty else { return nil }
        let deletes = header.split(separator: ";").dropFirst().contains {
            $0.trimmingSpaces.lowercased() == "max-age=0"
        }
        return SetCookie(name: name, value: value, deletes: deletes)
    }

    /// The `Cookie` header of each host that has cookies, in the order the hosts first set one: what a
    /// port on the live network adds to its own requests (docs/PORTING.md, "Live network").
    var headers: [(host: String, header: String)] {
        var hosts: [String] = []
        for cookie in cookies where !hosts.contains(cookie.host) { hosts.append(cookie.host) }
        return hosts.map { host in
            (host, cookies.filter { $0.host == host }.map { "\($0.name)=\($0.value)" }.joined(separator: "; "))
        }
    }

    /// The request with this host's cookies in a `Cookie` header.
    func apply(to request: HTTPRequest) -> HTTPRequest {
        // Most of the engine's requests meet an empty jar: their URL is then not split at all.
        guard !cookies.isEmpty, let host = URLParts(request.url)?.authority else { return request }
        let matching = cookies.filter { $0.host == host }
        guard !matching.isEmpty else { return request }
        var r = request
        r.headers.add("Cookie", matching.map { "\($0.name)=\($0.value)" }.joined(separator: "; "))
        return r
    }
}

extension StringProtocol {
    /// Without its leading and trailing spaces. ASCII text by bytes (every cookie the mock sets):
    /// rebuilding it from reversed characters was a visible share of a fuzz run.
    var trimmingSpaces: String {
        let bytes = Array(utf8)
        guard bytes.allSatisfy({ $0 < 0x80 }) else {
            return String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
        }
        guard let first = bytes.firstIndex(where: { $0 != 0x20 }), let last = bytes.lastIndex(where: { $0 != 0x20 })
        else {
            return ""
        }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
