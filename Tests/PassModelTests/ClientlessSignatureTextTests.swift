import Testing

@testable import PassModel

/// The signed header's text and base64, against the interpolation and the encoding they replaced.
@Suite struct ClientlessSignatureTextTests {
    @Test func signedTextAndHeaderAsInterpolated() {
        let texts = ["", "GET", "POST", "a b", "\u{E9}\u{212A}", "x=y, z", String(repeating: "q", count: 200)]
        for text in texts {
            for time: Int64 in [0, -1, 1_700_000_000_123, .max, .min] {
                let signed = ClientlessSignature.signedText(
                    method: text, requestorID: text + "R", nonce: "n" + text, requestTime: time, requestURI: text)
                #expect(
                    signed
                        == "\(text) requestor_id=\(text)R, nonce=n\(text), signature_method=HMAC-SHA1, "
                        + "request_time=\(time), request_uri=\(text)")
                #expect(
                    ClientlessSignature.header(signedText: signed, publicKey: text, signature: text + "=")
                        == signed + ", public_key=\(text), signature=\(text)=")
            }
        }
    }

    @Test func base64AsFoundation() {
        #expect(ClientlessSignature.base64([]) == "")
        #expect(ClientlessSignature.base64(Array("f".utf8)) == "Zg==")
        #expect(ClientlessSignature.base64(Array("fo".utf8)) == "Zm8=")
        #expect(ClientlessSignature.base64(Array("foo".utf8)) == "Zm9v")
        #expect(ClientlessSignature.base64([0xFB, 0xFF, 0xBF]) == "+/+/")
        #expect(ClientlessSignature.base64(Array(0...255)).hasPrefix("AAECAwQFBgcICQoLDA0ODxAREhMUFRYX"))
    }
}
