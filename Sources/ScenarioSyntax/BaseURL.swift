/// What an SP's base URL may be: the world serves it (`passim serve`, the simulated network), so a
/// URL that is not one would be served at an address no client can reach, or one a query or user
/// info would leak into every path built from it.
enum BaseURL {
    /// nil when `text` is an absolute http(s) URL with a host and an optional port and path, and
    /// nothing else; otherwise what is wrong with it.
    static func problem(_ text: String) -> String? {
        let lower = text.lowercased()
        let rest: Substring
        if lower.hasPrefix("https://") {
            rest = text.dropFirst(8)
        } else if lower.hasPrefix("http://") {
            rest = text.dropFirst(7)
        } else {
            return "expected an absolute http:// or https:// URL"
        }
        if text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) {
            return "it holds a blank or control character"
        }
        if text.utf8.contains(UInt8(ascii: "?")) { return "a base URL has no query" }
        if text.utf8.contains(UInt8(ascii: "#")) { return "a base URL has no fragment" }
        let authority = rest.prefix { $0 != "/" }
        if authority.contains("@") { return "a base URL has no user info" }
        var host = Substring(authority)
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return "unterminated IPv6 address" }
            host = authority[authority.startIndex...close]
            let inner = authority[authority.index(after: authority.startIndex)..<close]
            guard !inner.isEmpty,
                inner.unicodeScalars.allSatisfy({ $0.properties.isASCIIHexDigit || $0 == ":" || $0 == "." })
            else {
                return "invalid IPv6 address"
            }
        } else if let colon = authority.firstIndex(of: ":") {
            host = authority[..<colon]
        }
        guard !host.isEmpty else { return "the URL has no host" }
        if !host.hasPrefix("["), !host.unicodeScalars.allSatisfy(isHostScalar) {
            return "invalid host '\(host)'"
        }
        let afterHost = authority[host.endIndex...]
        if !afterHost.isEmpty {
            let port = afterHost.dropFirst()
            guard afterHost.first == ":", let number = Int(port), port.allSatisfy(\.isASCII),
                (1...65_535).contains(number)
            else {
                return "invalid port '\(afterHost.dropFirst())'"
            }
        }
        return nil
    }

    /// A letter, digit, `-` or `.` of ASCII: a DNS name or an IPv4 address (an IDN is written in punycode).
    private static func isHostScalar(_ s: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(s) || ("A"..."Z").contains(s) || ("0"..."9").contains(s) || s == "-" || s == "."
    }
}
