import Testing
@testable import PassModel

/// `URLParts` splits an ASCII URL over its bytes (the hot path) and anything else by characters:
/// both must find the same parts.
@Suite struct URLPartsTests {
    static let urls =
        [
            "https://sp.auth.test/config/REQ1", "HTTPS://SP.auth.test/config/REQ1?a=1&b=%20x+y#frag",
            "http://127.0.0.1:40001/config/REQ1", "http://127.0.0.1:40001", "http://127.0.0.1:40001?x",
            "https://sp.auth.test?#", "https://h/p#x?y", "mailto:someone@example.com", "x-y.z+1://h/p",
            "a:b", "https://", "https:", ":nothing", "1http://h/p", "ht tp://h/p", "ht_tp://h/p", "no colon",
            "", "https://h/a\r\nb?c\r\n", "https://h/é?q=ü", "htté://h/p", "https://h/p?a=1&&b&c=%ZZ",
            "https://sp2.auth.test/adobe-services/config/REQ1?requestor_id=REQ1",
            "http:", "http:x", "https:/", "httpx://h/p", "htt://h", "hTTps://h/p", "HTTP://h", "https://h?a?b#c#d",
            "https://h/" + String(repeating: "p/", count: 300) + "?" + String(repeating: "q=1&", count: 300) + "#f?g",
            "https://" + String(repeating: "a", count: 37) + "#" + String(repeating: "?", count: 9),
        ]
        + (0..<24).flatMap { n in
            // A separator at every offset within an eight-byte word, and none.
            let pad = String(repeating: "x", count: n)
            return [
                "http://" + pad + "/p?q", "https://h/" + pad + "?q#" + pad, "https://h" + pad + "?" + pad + "/",
                "https://" + pad,
            ]
        }

    @Test(arguments: urls) func theByteSplitIsTheCharacterSplit(_ url: String) {
        let parts = URLParts(splittingCharacters: url)
        let split = URLParts(url)
        #expect((parts == nil) == (split == nil))
        guard let parts, let split else { return }
        #expect(split.scheme == parts.scheme)
        #expect(split.authority == parts.authority)
        #expect(split.path == parts.path)
        #expect(split.rawQuery == parts.rawQuery)
        #expect(split.query.map { [$0.0, $0.1] } == parts.query.map { [$0.0, $0.1] })
    }
}
