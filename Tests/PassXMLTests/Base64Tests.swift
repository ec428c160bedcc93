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

    /// `decode` reads a native text's contiguous bytes; a bridged one goes through its UTF-8 view.
    /// On valid, wrapped and broken texts both must give the same bytes or the same refusal.
    @Test func contiguousBytesDecodeAsTheUTF8View() {
        func outcome(_ body: () throws(PassXMLError) -> [UInt8]) -> String {
            do { return "\(try body())" } catch { return "error: \(error.message)" }
        }
        var texts = [
            "", "=", "Zg", "Zg=", "Zg==", "Zm9v", "Zm9v\r\nYmFy\n", " Zm9v ", "Zg==Zg==", "Z===", "Zm*v", "Zé9v",
            "Zm9v😀", "Zm9\u{0}v",
        ]
        var state: UInt64 = 11
        for n in 0..<300 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let bytes = (0..<(n % 97)).map { UInt8(truncatingIfNeeded: (state >> 24) &+ UInt64($0) &* 31) }
            var text = Base64.encode(bytes)
            switch n % 5 {
            case 1: text = text.enumerated().map { $0.offset % 19 == 18 ? "\($0.element)\n" : "\($0.element)" }.joined()
            case 2 where !text.isEmpty: text.insert("é", at: text.index(text.startIndex, offsetBy: n % text.count))
            case 3 where !text.isEmpty: text.insert("=", at: text.index(text.startIndex, offsetBy: n % text.count))
            case 4: text += String(repeating: "=", count: n % 4)
            default: break
            }
            texts.append(text)
        }
        for text in texts {
            #expect(
                outcome { () throws(PassXMLError) in try Base64.decode(text) }
                    == outcome { () throws(PassXMLError) in try Base64.decode(utf8: text.utf8) }, "\(text)")
        }
    }
}
