import PassModel

/// The `Cookie` request header(s) (`a=b; c=d`), in order. Repeated names are kept: a browser may send
/// two `JSESSIONID`s (different paths or domains) and the SP picks the one it knows.
struct Cookies: Sendable {
    static let sessionName = "JSESSIONID"

    var pairs: [(name: String, value: String)]

    init(_ headers: HTTPHeaders) {
        var pairs: [(name: String, value: String)] = []
        headers.forEach(lowercased: "cookie") { header in
            for piece in header.split(separator: ";") {
                let item = piece.trimmingSpaces
                guard !item.isEmpty else { continue }
                if let eq = item.firstIndex(of: "=") {
                    pairs.append(
                        (String(item[..<eq]).trimmingSpaces, String(item[item.index(after: eq)...]).trimmingSpaces))
                } else {
                    pairs.append((item, ""))
                }
            }
        }
        self.pairs = pairs
    }

    func values(_ name: String) -> [String] { pairs.filter { $0.name == name }.map(\.value) }

    /// The `Set-Cookie` value that starts (or renews) a session.
    static func setSession(_ id: String) -> String { "\(sessionName)=\(id); Path=/" }
}

extension StringProtocol {
    var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
