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

    /// `decode` reads a native text's contiguous bytes (a bridged one goes through its UTF-8 view);
    /// `referenceDecode` is the decoding it replaced, over the view. On valid, wrapped and broken texts
    /// all three must give the same bytes or the same refusal.
    @Test func bytesAndViewDecodeAsTheCharacterLoopDid() {
        func outcome(_ body: () throws(PassXMLError) -> [UInt8]) -> String {
            do { return "\(try body())" } catch { return "error: \(error.message)" }
        }
        var texts = [
            "", "=", "Zg", "Zg=", "Zg==", "Zm9v", "Zm9v\r\nYmFy\n", " Zm9v ", "Zg==Zg==", "Z===", "Zm*v", "Zé9v",
            "Zm9v😀", "Zm9\u{0}v", "Zm-v", "Zm_v", "Zm9v\u{B}", "Zg=\n=", "Zg= =",
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
            let expected = outcome { () throws(PassXMLError) in try Self.referenceDecode(text) }
            #expect(outcome { () throws(PassXMLError) in try Base64.decode(text) } == expected, "\(text)")
            #expect(outcome { () throws(PassXMLError) in try Base64.decode(utf8: text.utf8) } == expected, "\(text)")
        }
    }

    /// `Base64.decode` as it was written before it read contiguous bytes.
    static func referenceDecode(_ text: String) throws(PassXMLError) -> [UInt8] {
        func value(_ c: UInt8) -> UInt8? {
            switch c {
            case 0x41...0x5A: return c - 0x41
            case 0x61...0x7A: return c - 0x61 + 26
            case 0x30...0x39: return c - 0x30 + 52
            case 0x2B: return 62
            case 0x2F: return 63
            default: return nil
            }
        }
        var values: [UInt8] = []
        var padding = 0
        for (offset, c) in text.utf8.enumerated() {
            switch c {
            case 0x20, 0x09, 0x0A, 0x0D: continue
            case 0x3D: padding += 1; continue
            default: break
            }
            guard padding == 0, let v = value(c) else {
                throw PassXMLError("invalid base64: unexpected character at offset \(offset)")
            }
            values.append(v)
        }
        guard padding <= 2, (values.count + padding) % 4 == 0, values.count % 4 != 1 else {
            throw PassXMLError("invalid base64: length \(values.count + padding) is not a whole number of quanta")
        }
        var out: [UInt8] = []
        var i = 0
        while i < values.count {
            let n = min(4, values.count - i)
            let v0 = values[i], v1 = values[i + 1]
            let v2 = n > 2 ? values[i + 2] : 0, v3 = n > 3 ? values[i + 3] : 0
            out.append(v0 << 2 | v1 >> 4)
            if n > 2 { out.append((v1 & 0x0F) << 4 | v2 >> 2) }
            if n > 3 { out.append((v2 & 0x03) << 6 | v3) }
            i += 4
        }
        return out
    }
}
