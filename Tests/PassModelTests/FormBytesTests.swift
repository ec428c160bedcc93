import Testing

@testable import PassModel

/// `FormCoding.decode(bytes:)` against decoding the body as text, as the readers of a form did.
@Suite struct FormBytesTests {
    static func same(_ bytes: [UInt8]) -> Bool {
        let a = FormCoding.decode(bytes: bytes), b = FormCoding.decode(String(decoding: bytes, as: UTF8.self))
        return a.map(\.0) == b.map(\.0) && a.map(\.1) == b.map(\.1)
    }

    @Test func handPicked() {
        let forms = [
            "", "&", "&&=", "=", "a", "a=", "=b", "a=b&c=d", "a=b=c", "x=%ZZ&y=%4", "x=%C3%A9+%2B", "a+b=c%20d",
            "k=\u{E9}&\u{212A}=v", "e\u{301}=1&&q", "redirect_url=adobepass%3A%2F%2Fios.app",
        ]
        for form in forms { #expect(Self.same(Array(form.utf8)), "\(form)") }
        // Not UTF-8: repaired as the text was.
        for bytes: [UInt8] in [[0xFF], [0x61, 0x3D, 0xC3], [0xC3, 0x3D, 0xA9, 0x26, 0x80], [0x25, 0xFF, 0x3D]] {
            #expect(Self.same(bytes), "\(bytes)")
        }
    }

    @Test func generated() {
        let alphabet: [UInt8] = [0x61, 0x3D, 0x26, 0x25, 0x2B, 0x41, 0x46, 0x30, 0x20, 0xC3, 0xA9, 0xFF, 0x80, 0xE2]
        var random = SeededRandom(seed: 9)
        for _ in 0..<3000 {
            let bytes = (0..<Int(random.next() % 12)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            #expect(Self.same(bytes), "\(bytes)")
        }
    }
}
