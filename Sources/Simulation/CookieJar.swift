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
        guard let host = URLParts(url)?.authority else { return }
        for header in response.headers.all("Set-Cookie") {
            let pair = header.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
            guard let eq = pair.firstIndex(of: "=") else { continue }
            let name = pair[..<eq].trimmingSpaces, value = pair[pair.index(after: eq)...].trimmingSpaces
            guard !name.isEmpty else { continue }
            cookies.removeAll { $0.host == host && $0.name == name }
            // `Max-Age=0` deletes the cookie (RFC 6265 5.2.2); paths and other lifetimes are not kept.
            let deletes = header.split(separator: ";").dropFirst().contains {
                $0.trimmingSpaces.lowercased() == "max-age=0"
            }
            if !deletes { cookies.append(Cookie(host: host, name: name, value: value)) }
        }
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
