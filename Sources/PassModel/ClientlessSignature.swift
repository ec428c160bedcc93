/// The text of the clientless API's signed `Authorization` header (BEHAVIOR.md "SDK 2.x tvOS: signed
/// second-screen calls"; real-clients.md "Signed clientless calls"; Kodi `script.module.adobepass`
/// `create_authorization`): `METHOD requestor_id=R, nonce=N, signature_method=HMAC-SHA1,
/// request_time=MS, request_uri=PATH, public_key=PK, signature=SIG`, SIG being the base64 HMAC-SHA1,
/// keyed by the secret, of the text before `, public_key`.
///
/// Only the format lives here: the engine signs and the mock verifies, each with swift-crypto, which
/// PassModel does not depend on. One spelling of the bytes for both sides means a signature the engine
/// makes is one the mock accepts.
public enum ClientlessSignature {
    /// The part of the header the HMAC covers.
    public static func signedText(
        method: String, requestorID: String, nonce: String, requestTime: Int64,
        requestURI: String
    ) -> String {
        // Appended into one buffer sized up front (the interpolation grew it piece by piece); the
        // text is the same: `String(requestTime)` is how an Int64 interpolates.
        let time = String(requestTime)
        var text = ""
        text.reserveCapacity(
            method.utf8.count + requestorID.utf8.count + nonce.utf8.count + time.utf8.count
                + requestURI.utf8.count + 80)
        text += method
        text += " requestor_id="
        text += requestorID
        text += ", nonce="
        text += nonce
        text += ", signature_method=HMAC-SHA1, request_time="
        text += time
        text += ", request_uri="
        text += requestURI
        return text
    }

    /// The whole header, from the signed text, the public key and the base64 signature.
    public static func header(signedText: String, publicKey: String, signature: String) -> String {
        var text = ""
        text.reserveCapacity(signedText.utf8.count + publicKey.utf8.count + signature.utf8.count + 25)
        text += signedText
        text += ", public_key="
        text += publicKey
        text += ", signature="
        text += signature
        return text
    }

    /// Standard base64 (RFC 4648 §4, with padding), as the signature is sent.
    public static func base64(_ bytes: [UInt8]) -> String {
        let alphabet = base64Alphabet
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i < bytes.count {
            let n = min(3, bytes.count - i)
            var v = UInt32(bytes[i]) << 16
            if n > 1 { v |= UInt32(bytes[i + 1]) << 8 }
            if n > 2 { v |= UInt32(bytes[i + 2]) }
            for j in 0..<4 { out.append(j <= n ? alphabet[Int((v >> UInt32(18 - 6 * j)) & 63)] : UInt8(ascii: "=")) }
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Made once: every signed call encodes a signature, and building the table per call cost more
    /// than the encoding.
    private static let base64Alphabet = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
}
