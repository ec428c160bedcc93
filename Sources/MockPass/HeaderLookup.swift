import PassModel

/// `HTTPHeaders`' lookups by name, minus their cost: they lowercase both names for every field they
/// look at, on every request. An ASCII field name is compared byte by byte, ignoring ASCII case, which
/// gives the same answer; any other name is still compared through `lowercased()` (a non-ASCII name
/// such as one with a KELVIN SIGN can lowercase to an ASCII one).
extension HTTPHeaders {
    /// `self[name]` for a name given in lowercase ASCII.
    func first(lowercased name: String) -> String? {
        fields.first { HTTPHeaders.matches($0.name, lowercased: name) }?.value
    }

    /// `all(name)` for a name given in lowercase ASCII.
    func all(lowercased name: String) -> [String] {
        fields.filter { HTTPHeaders.matches($0.name, lowercased: name) }.map(\.value)
    }

    private static func matches(_ field: String, lowercased name: String) -> Bool {
        guard field.utf8.allSatisfy({ $0 < 0x80 }) else { return field.lowercased() == name }
        return field.utf8.count == name.utf8.count
            && field.utf8.elementsEqual(name.utf8) { a, b in
                (a >= UInt8(ascii: "A") && a <= UInt8(ascii: "Z") ? a | 0x20 : a) == b
            }
    }
}

extension String {
    /// The text as a header value: at most `limit` bytes' worth of characters, control characters
    /// (a CR or LF a client put in a value the text quotes) as spaces, so it cannot split the header.
    func headerSafe(limit: Int = 512) -> String {
        String(
            String.UnicodeScalarView(
                prefix(limit).unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : $0 }))
    }
}
