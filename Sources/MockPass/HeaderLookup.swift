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

    /// Bytes first: a field whose bytes equal `name`'s but for ASCII case is ASCII (as `name` is),
    /// so it matches; one that does not matches only if it is not ASCII and lowercases to `name`.
    /// Most fields differ in length and are decided by one scan of their bytes for non-ASCII.
    static func matches(_ field: String, lowercased name: String) -> Bool {
        // Over both texts' bytes (native and small strings have them contiguous): walking the
        // `utf8` views byte by byte, and scanning every field that does not match for non-ASCII,
        // was most of a lookup, and every request makes several (`Content-Type`, `Cookie`, ...).
        // nil: no contiguous bytes, or a non-ASCII field the bytes do not decide.
        let decided: Bool?? = field.utf8.withContiguousStorageIfAvailable { f in
            name.utf8.withContiguousStorageIfAvailable { n in HTTPHeaders.matchesASCII(f, lowercased: n) } ?? nil
        }
        if let decided, let decided { return decided }
        return slowMatches(field, lowercased: name)
    }

    /// `matches` as first written, over the `utf8` views: for a text without contiguous bytes (a
    /// bridged one), and for a non-ASCII field name that is not byte-equal (lowercasing decides).
    static func slowMatches(_ field: String, lowercased name: String) -> Bool {
        let f = field.utf8, n = name.utf8
        if f.count == n.count,
            f.elementsEqual(n, by: { a, b in (a >= UInt8(ascii: "A") && a <= UInt8(ascii: "Z") ? a | 0x20 : a) == b })
        {
            return true
        }
        return !f.allSatisfy({ $0 < 0x80 }) && field.lowercased() == name
    }

    /// The byte half of `matches`: true when equal but for ASCII case, false when not equal and the
    /// field is ASCII (lowercasing it changes only ASCII case, so it cannot become `name`), nil when
    /// the field is not ASCII (only `lowercased()` can tell).
    private static func matchesASCII(_ f: UnsafeBufferPointer<UInt8>, lowercased n: UnsafeBufferPointer<UInt8>)
        -> Bool?
    {
        if f.count == n.count {
            var k = 0
            while k < f.count {
                let a = f[k]
                guard (a >= UInt8(ascii: "A") && a <= UInt8(ascii: "Z") ? a | 0x20 : a) == n[k] else { break }
                k += 1
            }
            if k == f.count { return true }
        }
        for a in f where a >= 0x80 { return nil }
        return false
    }

    /// Calls `body` with the value of each field named `name` (lowercase ASCII), in order: `all`
    /// without the array.
    func forEach(lowercased name: String, _ body: (String) -> Void) {
        for field in fields where HTTPHeaders.matches(field.name, lowercased: name) { body(field.value) }
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
