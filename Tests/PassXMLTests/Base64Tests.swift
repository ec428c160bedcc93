import Testing
@testable import PassXML

@Suite struct Base64Tests {
    @Test func knownVectors() throws {
        let vectors = [
            "": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=",
            "foobar": "Zm9vYmFy",
        ]
        for (plain, encoded) in vectors.sorted(by: { $0.key < $1.key }) {
            #expect(SAML.encodeForPost(plain) == encoded)
            #expect(try SAML.decodeFromPost(encoded) == Array(plain.utf8))
        }
    }

    @Test func allByteValuesRoundTrip() throws {
        let bytes = (0..<256).map { UInt8($0) } + [0xFF, 0x00]
        #expect(try Base64.decode(Base64.encode(bytes)) == bytes)
    }

    @Test func lineWrappedInputIsAccepted() throws {
        #expect(try SAML.decodeFromPost("Zm9v\r\nYmFy\n") == Array("foobar".utf8))
    }

    @Test func invalidInputIsAnError() {
        #expect(throws: PassXMLError("invalid base64: unexpected character at offset 2")) {
            try SAML.decodeFromPost("Zm*v")
        }
        #expect(throws: PassXMLError.self) { try SAML.decodeFromPost("Zm9") }  // truncated
        #expect(throws: PassXMLError.self) { try SAML.decodeFromPost("Zg==Zg==") }  // data after padding
        #expect(throws: PassXMLError.self) { try SAML.decodeFromPost("Z===") }
    }
}
