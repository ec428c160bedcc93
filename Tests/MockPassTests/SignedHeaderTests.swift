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
