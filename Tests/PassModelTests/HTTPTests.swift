import Testing
@testable import PassModel

@Suite struct HTTPTests {
    @Test func urlParts() throws {
        let u = try #require(URLParts("https://sp.auth.test:8443/adobe-services/config/REQ1?a=1&b=x%20y#frag"))
        #expect(u.scheme == "https")
        #expect(u.authority == "sp.auth.test:8443")
        #expect(u.path == "/adobe-services/config/REQ1")
        #expect(u.parameter("b") == "x y")
        #expect(u.resolve("/sso") == "https://sp.auth.test:8443/sso")
        #expect(u.resolve("other") == "https://sp.auth.test:8443/adobe-services/config/other")
        #expect(u.resolve("adobepass://ios.app") == "adobepass://ios.app")
        #expect(URLParts("adobepass://ios.app")?.isHTTP == false)
        #expect(URLParts("no scheme here") == nil)
    }

    @Test func formCodingRoundTrip() {
        let fields = [("redirect_url", "adobepass://ios.app"), ("x", "a&b=c d+é")]
        let encoded = FormCoding.encode(fields)
        #expect(encoded == "redirect_url=adobepass%3A%2F%2Fios.app&x=a%26b%3Dc%20d%2B%C3%A9")
        let decoded = FormCoding.decode(encoded)
        #expect(decoded.map(\.0) == fields.map(\.0))
        #expect(decoded.map(\.1) == fields.map(\.1))
        #expect(FormCoding.decode("a=%ZZ&b")[0].1 == "%ZZ")
    }

    @Test func requestParameters() {
        let r = HTTPRequest.form("https://sp/sessionDevice?q=1", [("requestor_id", "REQ1")])
        #expect(r.parameters.map(\.0) == ["q", "requestor_id"])
        #expect(r.parameter("requestor_id") == "REQ1")
        #expect(r.headers["content-type"] == "application/x-www-form-urlencoded")
    }

    @Test func seededRandomIsReproducible() {
        var a = SeededRandom(seed: 42), b = SeededRandom(seed: 42), c = SeededRandom(seed: 43)
        let x = (0..<4).map { _ in a.next() }
        #expect(x == (0..<4).map { _ in b.next() })
        #expect(x != (0..<4).map { _ in c.next() })
        var g = SeededRandom(seed: 1)
        let guid = g.guid()
        #expect(guid.count == 36 && guid.split(separator: "-").map(\.count) == [8, 4, 4, 4, 12])
    }

    /// `hex` and `guid` are written as bytes: the same text as each draw's `String(radix: 16)`,
    /// zero-padded to 16 and cut, as they were written before (every id of a seeded run is one).
    @Test func hexAndGUIDAreEachDrawInRadix16() {
        func hex(_ r: inout SeededRandom, _ n: Int) -> String {
            var out = ""
            while out.count < n { out += String(r.next(), radix: 16).leftPad(16) }
            return String(out.prefix(n))
        }
        for seed: UInt64 in [0, 1, 7, 42, .max] {
            var a = SeededRandom(seed: seed), b = SeededRandom(seed: seed)
            for n in [0, 1, 8, 15, 16, 17, 32, 33, 40] { #expect(a.hex(n) == hex(&b, n), "\(seed) \(n)") }
            let h = hex(&b, 32)
            let c = Array(h)
            let dashed = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(c[$0]) }.joined(separator: "-")
            #expect(a.guid() == dashed)
            #expect(a.next() == b.next())
        }
    }

    /// Issue 44: a seeded stream gives its state away (SplitMix64 is invertible: one value and the
    /// next follows); the secure one draws each value from the system, so two never agree, and a
    /// value seen is no inverse of the next.
    @Test func aSecureRandomIsNeitherSeededNorInvertible() {
        var seeded = SeededRandom(seed: 42)
        let first = seeded.next()
        // Undo SplitMix64's output function: the state, then the next value, from one value alone.
        func unmix(_ value: UInt64) -> UInt64 {
            var z = value ^ (value >> 31) ^ (value >> 62)
            z = z &* 0x3196_42B2_D24D_8EC3
            z = z ^ (z >> 27) ^ (z >> 54)
            z = z &* 0x96DE_1B17_3F11_9089
            return z ^ (z >> 30) ^ (z >> 60)
        }
        var guessed = SeededRandom(seed: unmix(first))
        #expect(guessed.next() == seeded.next(), "a seeded stream is predictable from one value")

        var a = SeededRandom.secure(), b = SeededRandom.secure()
        #expect(a.isSecure && !seeded.isSecure)
        let drawn = (0..<4).map { _ in a.next() }
        #expect(drawn != (0..<4).map { _ in b.next() })
        var fromA = SeededRandom(seed: unmix(drawn[0]))
        #expect(fromA.next() != drawn[1])
        #expect(a.hex(64) != b.hex(64))
    }

    /// The word-at-a-time ASCII check agrees with the byte-by-byte one, wherever the high byte is.
    @Test func asciiIsCheckedEightBytesAtATime() {
        for count in 0..<40 {
            for high in [-1] + Array(0..<count) {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: count)
                if high >= 0 { bytes[high] = 0x80 | UInt8(high % 0x80) }
                #expect(bytes.withUnsafeBufferPointer(\.isASCII) == bytes.allSatisfy { $0 < 0x80 }, "\(count) \(high)")
                // From an address that is not aligned.
                let tail = bytes.dropFirst()
                #expect(tail.withUnsafeBufferPointer(\.isASCII) == tail.allSatisfy { $0 < 0x80 }, "\(count) \(high)")
            }
        }
    }

    /// `FormCoding.decode` works on bytes (ASCII) and reads `%XY` without building strings: the
    /// pairs are the ones the character-by-character version (kept here) gave, on any text.
    @Test func formDecodingIsWhatItWas() {
        func unescape<S: StringProtocol>(_ s: S) -> String {
            var bytes: [UInt8] = []
            var it = Array(s.utf8)[...]
            while let b = it.popFirst() {
                if b == UInt8(ascii: "+") {
                    bytes.append(UInt8(ascii: " "))
                } else if b == UInt8(ascii: "%"), it.count >= 2,
                    let v = UInt8(String(decoding: it.prefix(2), as: UTF8.self), radix: 16)
                {
                    bytes.append(v)
                    it = it.dropFirst(2)
                } else {
                    bytes.append(b)
                }
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        func reference(_ s: String) -> [(String, String)] {
            return s.split(separator: "&", omittingEmptySubsequences: true).map { pair in
                if let eq = pair.firstIndex(of: "=") {
                    return (unescape(pair[..<eq]), unescape(pair[pair.index(after: eq)...]))
                }
                return (unescape(pair), "")
            }
        }
        let alphabet: [String] = [
            "%", "+", "-", "&", "=", "a", "F", "0", "9", "g", "x", " ", "\r", "\n", "é", "\u{301}", "%2", "%C3%A9",
            // Escapes of bytes that are not UTF-8 on their own: repaired as the reference repairs them.
            "%FF", "%C3", "%E2%82", "%80",
        ]
        var rng = SeededRandom(seed: 17)
        for _ in 0..<5_000 {
            let s = (0..<Int(rng.next() % 14)).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }.joined()
            let (got, want) = (FormCoding.decode(s), reference(s))
            #expect(got.map(\.0) == want.map(\.0) && got.map(\.1) == want.map(\.1), "\(s.debugDescription)")
            #expect(FormCoding.unescape(s) == unescape(s), "\(s.debugDescription)")
            if let escaped = FormCoding.escapedFields(s) {
                #expect(escaped.map(\.name) == want.map(\.0), "\(s.debugDescription)")
                #expect(escaped.map { FormCoding.unescape($0.escapedValue) } == want.map(\.1), "\(s.debugDescription)")
            } else {
                #expect(s.utf8.contains { $0 >= 0x80 }, "only text that is not ASCII is left to decode")
            }
        }
        for s in ["a=%+A", "a=%-0", "a=%-1", "%", "%4", "%41", "=&=", "&&a&"] {
            #expect(
                FormCoding.decode(s).map(\.1) == reference(s).map(\.1)
                    && FormCoding.decode(s).map(\.0) == reference(s).map(\.0), "\(s)")
        }
        #expect(URLParts("a+b-c.9:x")?.scheme == "a+b-c.9" && URLParts("é:x") != nil && URLParts("a_b:x") == nil)
    }
}
