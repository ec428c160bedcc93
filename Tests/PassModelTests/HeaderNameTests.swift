import Testing

@testable import PassModel

/// `HTTPHeaders.sameName` against what the lookups did before it: lowercase both names and compare.
@Suite struct HeaderNameTests {
    /// Names chosen to catch a byte shortcut: ASCII case, non-ASCII that lowercases to ASCII (KELVIN
    /// SIGN), that lowercases to more scalars (İ), that does not change (ß), Greek sigmas, combining
    /// marks, and prefixes and lengths that differ.
    static let names = [
        "", "a", "A", "k", "K", "\u{212A}", "x-forwarded-for", "X-Forwarded-For", "X-FORWARDED-FOR",
        "x-forwarded-fo", "x-forwarded-forr", "Content-Type", "content-type", "CONTENT-TYPE", "i", "I",
        "\u{130}", "i\u{307}", "I\u{307}", "\u{DF}", "SS", "ss", "\u{3A3}", "\u{3C3}", "\u{3C2}", "A\u{3A3}",
        "a\u{3C3}", "e\u{301}", "\u{E9}", "\u{C9}", "E\u{301}", "[", "{", "@", "`", "\u{7F}", "X-\u{212A}ey",
        "x-key", "X-KEY", "caf\u{E9}", "CAF\u{C9}", "Caf\u{E9}",
    ]

    @Test func sameNameAgreesWithLowercasing() {
        for a in Self.names {
            for b in Self.names {
                #expect(HTTPHeaders.sameName(a, b) == (a.lowercased() == b.lowercased()), "\(a) vs \(b)")
            }
        }
    }

    /// Random names over a small alphabet of ASCII letters of both cases and awkward scalars.
    @Test func sameNameAgreesOnGeneratedNames() {
        let pieces = [
            "a", "A", "z", "Z", "-", "k", "K", "\u{212A}", "\u{130}", "i", "\u{307}", "\u{3A3}", "\u{3C3}", "\u{DF}",
        ]
        var random = SeededRandom(seed: 5)
        func name() -> String {
            (0..<Int(random.next() % 4)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
        }
        for _ in 0..<5000 {
            let a = name(), b = Bool.random(using: &random) ? a.uppercased() : name()
            #expect(HTTPHeaders.sameName(a, b) == (a.lowercased() == b.lowercased()), "\(a) vs \(b)")
        }
    }

    @Test func lookupsIgnoreCase() {
        let h: HTTPHeaders = [("X-Forwarded-For", "1"), ("x-forwarded-for", "2"), ("\u{212A}ey", "3")]
        #expect(h["x-FORWARDED-for"] == "1")
        #expect(h.all("X-FORWARDED-FOR") == ["1", "2"])
        #expect(h["key"] == "3")
        #expect(h["x-forwarded"] == nil)
    }
}
