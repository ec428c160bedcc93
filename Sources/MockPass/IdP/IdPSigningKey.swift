import Crypto
import _CryptoExtras
import PassXML

/// An RSA-2048 key a mock IdP signs its assertions with, and its certificate. The keys are a fixed
/// committed pool (`IdPKeyMaterial`), parsed once per process; the seed and the MVPD id pick one,
/// so a world's transcripts are the same on every run while its IdPs usually differ. Generating a
/// key from the seed instead would cost far more than a login (docs/CONFORMANCE.md, "SAML signing keys").
struct IdPSigningKey: Sendable {
    let privateKey: _RSA.Signing.PrivateKey
    /// Base64 of the DER certificate, as KeyInfo's `X509Certificate` carries it.
    let certificate: String

    var publicKey: _RSA.Signing.PublicKey { privateKey.publicKey }

    /// Every entry of `IdPKeyMaterial` that parses (a test checks that all of them do).
    static let pool: [IdPSigningKey] = IdPKeyMaterial.entries.compactMap { entry in
        guard let key = try? _RSA.Signing.PrivateKey(pemRepresentation: entry.privateKey) else { return nil }
        let body = entry.certificate.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        return IdPSigningKey(privateKey: key, certificate: body)
    }

    /// The pool's key for an IdP of a world run with `seed`: SplitMix64 of the seed mixed with the
    /// MVPD id's FNV-1a hash.
    static func key(seed: UInt64, mvpdID: String) -> IdPSigningKey? {
        index(seed: seed, mvpdID: mvpdID).map { pool[$0] }
    }

    /// Where `key(seed:mvpdID:)` is in the pool (a typed run's `SignatureVerdict` names a key so).
    static func index(seed: UInt64, mvpdID: String) -> Int? {
        guard !pool.isEmpty else { return nil }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in mvpdID.utf8 { hash = (hash ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        var z = (seed ^ hash) &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Int(z % UInt64(pool.count))
    }

    /// What PassXML needs to sign: SHA-256 and RSASSA-PKCS1-v1_5 with SHA-256 (deterministic, so
    /// the same assertion always gets the same signature).
    var signer: XMLSignature.Signer {
        let key = privateKey
        return XMLSignature.Signer(
            digest: { Array(SHA256.hash(data: $0)) },
            sign: { bytes in
                (try? key.signature(for: SHA256.hash(data: bytes), padding: .insecurePKCS1v1_5))
                    .map { Array($0.rawRepresentation) }
            },
            certificate: certificate)
    }

    /// Why `signed` does not hold for this key (nil: it does): the digest of the canonical element,
    /// then the signature over the canonical SignedInfo.
    func problem(with signed: XMLSignature.Signed) -> String? {
        guard Array(SHA256.hash(data: signed.canonicalElement)) == signed.digestValue else {
            return IdPSigningKey.digestMismatch
        }
        let signature = _RSA.Signing.RSASignature(rawRepresentation: signed.signatureValue)
        guard
            publicKey.isValidSignature(
                signature, for: SHA256.hash(data: signed.canonicalSignedInfo),
                padding: .insecurePKCS1v1_5)
        else {
            return IdPSigningKey.signatureMismatch
        }
        return nil
    }

    /// The refusals of `problem(with:)`, also given for a typed run's `SignatureVerdict`.
    static let digestMismatch = "the assertion's digest does not match its content (it was changed after signing)"
    static let signatureMismatch = "the assertion's signature does not verify with the identity provider's key"
}
