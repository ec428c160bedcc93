import Crypto
import PassModel

/// The clientless API's signed `Authorization` header (real-clients.md "Signed clientless calls";
/// Kodi `script.module.adobepass` `create_authorization`): `METHOD requestor_id=R, nonce=N,
/// signature_method=HMAC-SHA1, request_time=MS, request_uri=PATH, public_key=PK, signature=SIG`,
/// SIG being the base64 HMAC-SHA1, keyed by the secret, of the text before `, public_key`.
struct RequestSignature: Sendable {
    var nonce: String
    var requestTime: Int64

    /// Checks the header of `r` against the requestor's key pair at `now`; every refusal is a 401
    /// naming what failed. The fields must come in Kodi's order: the signed text is the header
    /// itself, so a reordered header would sign other bytes anyway.
    static func verify(
        _ r: IncomingRequest, requestorID: String, key: Key, at now: Instant,
        window: Millis
    ) throws(HandlerFailure) -> RequestSignature {
        guard let header = r.request.headers.first(lowercased: "authorization") else {
            throw .unauthorized("missing signed Authorization header")
        }
        let parts = try SignedHeader(header)
        let signed = parts.signed, publicKey = parts.publicKey, signature = parts.signature
        let method = parts.method
        let fields = parts.fields
        guard method == r.method else { throw .unauthorized("signed method \(method) is not \(r.method)") }
        guard fields.requestorID == requestorID else {
            throw .unauthorized("signed requestor_id is not \(requestorID)")
        }
        guard fields.signatureMethod == "HMAC-SHA1" else {
            throw .unauthorized("signature_method must be HMAC-SHA1")
        }
        guard let nonce = fields.nonce, !nonce.isEmpty else { throw .unauthorized("missing nonce") }
        // Remembered (`nonces`) until the window ends: held to the door's limit like any kept value.
        guard nonce.utf8.count <= MockLimits.valueBytes else {
            throw .unauthorized(
                "nonce is \(nonce.utf8.count) bytes, over the limit of \(MockLimits.valueBytes) (limit: mock-value-bytes)"
            )
        }
        guard let uri = fields.requestURI, uri == r.path || uri == URLParts(r.request.url)?.path else {
            throw .unauthorized("signed request_uri is not \(r.path)")
        }
        guard let timeText = fields.requestTime, let time = Int64(timeText) else {
            throw .unauthorized("missing or malformed request_time")
        }
        // Written as a difference: a hostile request_time near Int64's ends must not overflow.
        let skew =
            time >= now.milliseconds
            ? time.subtractingReportingOverflow(now.milliseconds)
            : now.milliseconds.subtractingReportingOverflow(time)
        guard !skew.overflow, skew.partialValue <= window.value else {
            throw .unauthorized(
                "request_time is more than \(window.value / 1000)s from the server's clock (limit: mock-signature-window)"
            )
        }
        guard publicKey == key.publicKey else { throw .unauthorized("unknown public_key") }
        guard signature == expectedSignature(of: signed, secret: key.secret) else {
            throw .unauthorized("signature does not verify")
        }
        return RequestSignature(nonce: nonce, requestTime: time)
    }

    /// A requestor's key pair with its secret keyed for HMAC (`SigningKeyCache`).
    struct Key {
        var publicKey: String
        var secret: HMACSHA1Key
    }

    /// The HMAC-SHA1 of `text` under a keyed secret, compared with the header's text as bytes.
    static func expectedSignature(of text: String, secret: HMACSHA1Key) -> ExpectedSignature {
        ExpectedSignature(code: secret.code(of: text))
    }

    /// The base64 HMAC-SHA1 of `text` keyed by `secret` (RFC 2104), as a client sends it.
    static func expectedSignature(of text: String, secret: String) -> String {
        expectedSignature(of: text, secret: HMACSHA1Key(secret: secret)).text
    }

    /// `expectedSignature` through swift-crypto's `HMAC`, as it was first written (what the tests
    /// compare the key block made in place against).
    static func hmacSignature(of text: String, secret: String) -> String {
        let mac = HMAC<Insecure.SHA1>.authenticationCode(
            for: Array(text.utf8), using: SymmetricKey(data: Array(secret.utf8)))
        return ClientlessSignature.base64(Array(mac))
    }

    /// The header a client would send (tests, and documentation of the format by example).
    static func header(
        method: String, requestorID: String, nonce: String, requestTime: Int64, requestURI: String,
        key: World.KeyPair
    ) -> String {
        let signed = ClientlessSignature.signedText(
            method: method, requestorID: requestorID, nonce: nonce,
            requestTime: requestTime, requestURI: requestURI)
        return ClientlessSignature.header(
            signedText: signed, publicKey: key.publicKey,
            signature: expectedSignature(of: signed, secret: key.secret))
    }
}
