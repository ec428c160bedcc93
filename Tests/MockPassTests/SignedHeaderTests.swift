import Testing
@testable import MockPass

/// `SignedHeader` splits an ASCII header over its bytes and any other by Characters: the two must
/// give the same pieces and the same refusal. Each header is split as it is (ASCII) and with "é"
/// appended (not ASCII, and landing in the signature, the last piece): what differs is only that.
@Suite struct SignedHeaderTests {
    static let headers = [
        "POST requestor_id=REQ1, nonce=n, signature_method=HMAC-SHA1, request_time=1, request_uri=/a, public_key=PK, signature=S",
        "GET requestor_id=REQ1,nonce=n,,  request_uri=/a,request_time=2, public_key=PK, signature=S",
        "  GET   requestor_id=A, requestor_id=B, public_key=PK, signature=S",
        "GET nonce=a=b, x=, =y, public_key=, signature=",
        "GET requestor_id=REQ1, broken, public_key=PK, signature=S",
        "GET  , public_key=PK, signature=S", "GET , public_key=PK, signature=S", "GET, public_key=PK, signature=S",
        " , public_key=PK, signature=S", ", public_key=PK, signature=S", "GET a=b, signature=S, public_key=PK",
        "GET a=b, public_key=PK", "GET a=b", "", "GET a=b, public_key=PK, signature=S, public_key=Q, signature=T",
        "GET a=b, public_key=, signature=, public_key=X", "GET\ta=b, public_key=PK, signature=S",
    ]

    struct Split: Equatable {
        var signed = "", publicKey = "", signature = "", method = ""
        var fields: [String?] = []
        var refusal: String?
    }

    static func split(_ header: String) -> Split {
        do {
            let h = try SignedHeader(header)
            let f = h.fields
            return Split(
                signed: h.signed, publicKey: h.publicKey, signature: h.signature, method: h.method,
                fields: [f.requestorID, f.signatureMethod, f.nonce, f.requestURI, f.requestTime])
        } catch {
            return Split(refusal: "\(error.status) \(error.message)")
        }
    }

    @Test(arguments: headers)
    func bytesAndCharactersSplitAlike(_ header: String) {
        var ascii = Self.split(header)
        let other = Self.split(header + "é")
        if ascii.refusal == nil { ascii.signature += "é" }
        #expect(ascii == other)
    }

    @Test func aFieldNamedTwiceReadsAsItsLastValue() {
        #expect(Self.split(Self.headers[2]).fields.first == "B")
        #expect(Self.split(Self.headers[2]).method == "GET")
    }
}

/// `RequestSignature.expectedSignature` makes HMAC's key block itself; it must sign as swift-crypto's
/// `HMAC<Insecure.SHA1>` does, for secrets shorter than, as long as and longer than a block (hashed
/// first), empty, and not ASCII, over texts of any length.
@Suite struct ExpectedSignatureTests {
    static let secrets: [String] = [
        "", "s", "secret-of-the-requestor", String(repeating: "k", count: 63), String(repeating: "k", count: 64),
        String(repeating: "k", count: 65), String(repeating: "é", count: 32), String(repeating: "ключ", count: 40),
        "\0\u{1}\u{7F}", String(decoding: [0xFF, 0x36, 0x5C], as: UTF8.self),
    ]

    @Test(arguments: secrets)
    func signsAsHMAC(_ secret: String) {
        var texts = ["", "GET", SignedHeaderTests.headers[0]]
        for n in [55, 56, 63, 64, 65, 119, 120, 128, 300] { texts.append(String(repeating: "t", count: n)) }
        texts.append("POST requestor_id=é, nonce=😀")
        for text in texts {
            #expect(
                RequestSignature.expectedSignature(of: text, secret: secret)
                    == RequestSignature.hmacSignature(of: text, secret: secret), "\(text.utf8.count) bytes")
        }
    }
}
