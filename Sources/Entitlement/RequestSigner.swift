import Crypto
import PassModel

/// The key pair of the deprecated tvOS `setRequestor(…, secret:, publicKey:)`, which signs the calls
/// of the registration-code flow (BEHAVIOR.md "SDK 2.x tvOS: signed second-screen calls").
struct RequestSigner: Hashable, Sendable {
    let secret: String
    let publicKey: String
    /// The secret as HMAC's inner and outer key blocks (RFC 2104), made once: keying an `HMAC` anew
    /// for each signed call (every registration-code poll) was most of the cost of signing it.
    private let innerKey: [UInt8]
    private let outerKey: [UInt8]

    init(secret: String, publicKey: String) {
        self.secret = secret
        self.publicKey = publicKey
        var key = Array(secret.utf8)
        let block = Insecure.SHA1.blockByteCount
        if key.count > block { key = Insecure.SHA1.hash(data: key).withUnsafeBytes { Array($0) } }
        key += Array(repeating: 0, count: block - key.count)
        innerKey = key.map { $0 ^ 0x36 }
        outerKey = key.map { $0 ^ 0x5c }
    }

    /// The signed `Authorization` header for `request` sent at `now`. The nonce is the engine's
    /// count of signed requests and the instant, never random, so a seed replays the same bytes; the
    /// mock only asks a nonce not to come twice within its window.
    func authorization(for request: HTTPRequest, requestorID: String, count: Int, at now: Instant) -> String {
        let text = ClientlessSignature.signedText(
            method: request.method, requestorID: requestorID, nonce: "\(count)-\(now.milliseconds)",
            requestTime: now.milliseconds, requestURI: RequestSigner.requestURI(of: request.url))
        return ClientlessSignature.header(signedText: text, publicKey: publicKey, signature: signature(of: text))
    }

    /// The base64 HMAC-SHA1 of `text`, keyed by the secret: SHA1(outer key, SHA1(inner key, text)),
    /// what `HMAC<Insecure.SHA1>` computes, from the key blocks made once.
    func signature(of text: String) -> String {
        var inner = Insecure.SHA1()
        innerKey.withUnsafeBytes { inner.update(bufferPointer: $0) }
        var text = text
        text.withUTF8 { inner.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        var outer = Insecure.SHA1()
        outerKey.withUnsafeBytes { outer.update(bufferPointer: $0) }
        inner.finalize().withUnsafeBytes { outer.update(bufferPointer: $0) }
        return ClientlessSignature.base64(outer.finalize().withUnsafeBytes { Array($0) })
    }

    /// The URL's path, without its query: what `request_uri` names (docs/CONFORMANCE.md).
    static func requestURI(of url: String) -> String {
        guard let parts = URLParts(url) else { return "/" }
        return parts.path.isEmpty ? "/" : parts.path
    }
}
