import Crypto

/// HMAC-SHA1 (RFC 2104) with the key's two blocks hashed once. Every signed second-screen call is
/// verified, always with one of a handful of requestor secrets, and keying an HMAC hashed the key's
/// inner and outer blocks again for each call. Here swift-crypto's SHA-1 state after `key ^ ipad` and
/// after `key ^ opad` is kept (`ClientAdmission.signingKeys`); a call copies them (the digest is
/// copy-on-write, so the kept states are never changed) and hashes only its text and the inner
/// digest. Tests compare it with `HMAC<Insecure.SHA1>` on every length around the block boundaries.
struct HMACSHA1Key: @unchecked Sendable {
    // @unchecked: `Insecure.SHA1` is a value with a copy-on-write context; the kept states are only
    // ever copied, never updated in place, so sharing them across threads shares no mutation.
    let inner: Insecure.SHA1
    let outer: Insecure.SHA1

    static let blockBytes = Insecure.SHA1.blockByteCount

    init(secret: String) {
        var secret = secret
        var inner = Insecure.SHA1(), outer = Insecure.SHA1()
        secret.withUTF8 { s in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.blockBytes) { key in
                // The key block: the secret, or its SHA-1 when it is longer than a block, then zeros.
                key.initialize(repeating: 0)
                if s.count > Self.blockBytes {
                    Insecure.SHA1.hash(data: UnsafeRawBufferPointer(s)).withUnsafeBytes { digest in
                        for (i, b) in digest.enumerated() { key[i] = b }
                    }
                } else {
                    for (i, b) in s.enumerated() { key[i] = b }
                }
                for i in 0..<Self.blockBytes { key[i] ^= 0x36 }
                inner.update(bufferPointer: UnsafeRawBufferPointer(key))
                for i in 0..<Self.blockBytes { key[i] ^= 0x36 ^ 0x5C }
                outer.update(bufferPointer: UnsafeRawBufferPointer(key))
            }
        }
        self.inner = inner
        self.outer = outer
    }

    /// The authentication code of `text`'s UTF-8 bytes.
    func code(of text: String) -> Insecure.SHA1Digest {
        var text = text
        var inner = self.inner, outer = self.outer
        text.withUTF8 { inner.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        inner.finalize().withUnsafeBytes { outer.update(bufferPointer: $0) }
        return outer.finalize()
    }
}

/// A signature as `verify` expects it: the HMAC's 20 bytes, compared with the header's base64 text by
/// encoding them into 28 bytes on the stack (no `String`, no array), as
/// `ClientlessSignature.base64` spells them.
struct ExpectedSignature {
    var code: Insecure.SHA1Digest

    /// The base64 text of the code (28 bytes, the last one padding), into `out`.
    func encode(into out: UnsafeMutableBufferPointer<UInt8>) {
        let alphabet: StaticString = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
        let a = alphabet.utf8Start
        code.withUnsafeBytes { d in
            // Six groups of three bytes, then the last two bytes as three characters and one `=`.
            func byte(_ i: Int) -> UInt32 { i < d.count ? UInt32(d[i]) : 0 }
            for g in 0..<7 {
                let v = byte(3 * g) << 16 | byte(3 * g + 1) << 8 | byte(3 * g + 2)
                for j in 0..<4 { out[4 * g + j] = a[Int((v >> UInt32(18 - 6 * j)) & 63)] }
            }
        }
        out[27] = UInt8(ascii: "=")
    }

    /// The header's signature equals the expected one exactly when its bytes are the base64 text.
    static func == (signature: String, expected: ExpectedSignature) -> Bool {
        var signature = signature
        return signature.withUTF8 { s in
            guard s.count == 28 else { return false }
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 28) { out in
                expected.encode(into: out)
                var same = true
                for i in 0..<28 where s[i] != out[i] { same = false }
                return same
            }
        }
    }

    var text: String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 28) { out in
            encode(into: out)
            return String(decoding: out, as: UTF8.self)
        }
    }
}

/// The requestors' secrets keyed for HMAC, by secret: a world has a handful, and each signed call
/// would otherwise hash its key's two blocks again. Bounded (oldest dropped first) so that no run of
/// secrets grows it; a value inside the mock's state, so each server's copy is its own.
struct SigningKeyCache: Sendable {
    struct Entry: Sendable {
        var secret: String
        var key: HMACSHA1Key
    }
    static let capacity = 16
    private(set) var entries: [Entry] = []

    mutating func key(for secret: String) -> HMACSHA1Key {
        if let hit = entries.first(where: { $0.secret == secret }) { return hit.key }
        let key = HMACSHA1Key(secret: secret)
        if entries.count >= Self.capacity { entries.removeFirst() }
        entries.append(Entry(secret: secret, key: key))
        return key
    }
}
