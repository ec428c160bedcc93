import Crypto
import PassModel

/// The key pair of the deprecated tvOS `setRequestor(…, secret:, publicKey:)`, which signs the calls
/// of the registration-code flow (BEHAVIOR.md "SDK 2.x tvOS: signed second-screen calls").
struct RequestSigner: Hashable, Sendable {
    var secret: String
    var publicKey: String

    /// The signed `Authorization` header for `request` sent at `now`. The nonce is the engine's
    /// count of signed requests and the instant, never random, so a seed replays the same bytes; the
    /// mock only asks a nonce not to come twice within its window.
    func authorization(for request: HTTPRequest, requestorID: String, count: Int, at now: Instant) -> String {
        let text = ClientlessSignature.signedText(
            method: request.method, requestorID: requestorID, nonce: "\(count)-\(now.milliseconds)",
            requestTime: now.milliseconds, requestURI: RequestSigner.requestURI(of: request.url))
        return ClientlessSignature.header(signedText: text, publicKey: publicKey, signature: signature(of: text))
    }

    /// The base64 HMAC-SHA1 of `text`, keyed by the secret.
    func signature(of text: String) -> String {
        let mac = HMAC<Insecure.SHA1>.authenticationCode(
            for: Array(text.utf8), using: SymmetricKey(data: Array(secret.utf8)))
        return ClientlessSignature.base64(Array(mac))
    }

    /// The URL's path, without its query: what `request_uri` names (docs/CONFORMANCE.md).
    static func requestURI(of url: String) -> String {
        guard let parts = URLParts(url) else { return "/" }
        return parts.path.isEmpty ? "/" : parts.path
    }
}
