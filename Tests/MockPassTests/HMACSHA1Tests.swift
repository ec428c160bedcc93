import Testing
@testable import MockPass

/// `HMACSHA1Key` keeps SHA-1 states after the key's blocks; it must sign as swift-crypto's
/// `HMAC<Insecure.SHA1>` (`RequestSignature.hmacSignature`) for every text length across one, two and
/// three blocks (the padding's one-or-two-block edge at 55/56 bytes after the key block), and for
/// secrets short, a block long, longer (hashed first), empty and not ASCII.
@Suite struct HMACSHA1Tests {
    static let secrets = ExpectedSignatureTests.secrets

    @Test(arguments: secrets)
    func everyLengthSignsAsHMAC(_ secret: String) {
        let key = HMACSHA1Key(secret: secret)
        for n in 0...200 {
            // Bytes of every value, repaired to UTF-8 where they are not (so the text is still `n`-ish).
            let text = String(decoding: (0..<n).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ n) }, as: UTF8.self)
            #expect(
                ExpectedSignature(code: key.code(of: text)).text
                    == RequestSignature.hmacSignature(of: text, secret: secret), "\(n)")
        }
    }

    @Test func aLongTextSignsAsHMAC() {
        let text = String(repeating: "request_uri=/reggie/v1/é/regcode, ", count: 500)
        for secret in Self.secrets {
            #expect(
                RequestSignature.expectedSignature(of: text, secret: secret)
                    == RequestSignature.hmacSignature(of: text, secret: secret))
        }
    }

    /// The header's text matches only the exact base64 of the code: one byte off, a case changed,
    /// the padding dropped or doubled, the text cut or extended (by an ASCII or a non-ASCII
    /// character), or empty, it does not.
    @Test func theSignatureIsComparedByItsBytes() {
        let key = HMACSHA1Key(secret: "secret-of-the-requestor")
        let expected = RequestSignature.expectedSignature(of: "GET requestor_id=R", secret: key)
        let text = RequestSignature.hmacSignature(of: "GET requestor_id=R", secret: "secret-of-the-requestor")
        #expect(text.utf8.count == 28)
        #expect(text == expected)
        var hostile = [
            "", String(text.dropLast()), text + "=", text + "é", String(text.dropLast()) + "é",
            text.lowercased(), text.uppercased(), String(text.dropFirst()) + "=",
        ]
        var bytes = Array(text.utf8)
        for i in bytes.indices {
            bytes[i] ^= 1
            hostile.append(String(decoding: bytes, as: UTF8.self))
            bytes[i] ^= 1
        }
        for h in hostile where h != text { #expect(!(h == expected), "\(h)") }
    }

    /// The cache gives the key a fresh keying gives, keeps at most `capacity` secrets, and still
    /// answers for secrets it dropped.
    @Test func theCacheIsBoundedAndKeysAsFresh() {
        var cache = SigningKeyCache()
        let many = (0..<40).map { "secret-\($0)" } + Self.secrets
        for round in 0..<2 {
            for secret in many {
                let cached = cache.key(for: secret), fresh = HMACSHA1Key(secret: secret)
                #expect(
                    ExpectedSignature(code: cached.code(of: "t\(round)")).text
                        == RequestSignature.hmacSignature(of: "t\(round)", secret: secret))
                #expect(
                    ExpectedSignature(code: cached.code(of: "x")).text
                        == ExpectedSignature(code: fresh.code(of: "x")).text)
                #expect(cache.entries.count <= SigningKeyCache.capacity)
            }
        }
        #expect(cache.entries.count == SigningKeyCache.capacity)
    }
}
