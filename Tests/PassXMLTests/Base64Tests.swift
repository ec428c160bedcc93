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

    /// The table-driven one-pass decoder against `referenceDecode` on hostile texts: every byte value
    /// alone and inside a valid quantum, padding in every position, whitespace everywhere, every
    /// length 0...40 of valid and wrapped text, and a long text.
    @Test func oneBytePassDecodesAsTheReference() throws {
        func outcome(_ body: () throws(PassXMLError) -> [UInt8]) -> String {
            do { return "\(try body())" } catch { return "error: \(error.message)" }
        }
        var inputs: [[UInt8]] = []
        for c in 0...255 {
            let c = UInt8(c)
            inputs += [
                [c], Array("Zm9v".utf8) + [c], Array("Zm".utf8) + [c] + Array("9v".utf8), [c] + Array("Zm9".utf8),
            ]
            inputs.append(Array("Zg=".utf8) + [c])
            inputs.append(Array("Zm9".utf8) + [c] + Array("=".utf8))
        }
        let base = Array("Zm9vYmFyYmF6".utf8)
        for at in 0...base.count {
            for insert in ["=", "==", "===", " ", "\t", "\n", "\r", "\r\n", "= ", " =", "\u{B}", "\u{C}", "\u{0}", "é"]
            {
                inputs.append(Array(base[..<at]) + Array(insert.utf8) + Array(base[at...]))
            }
        }
        var state: UInt64 = 5
        for n in 0...40 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let bytes = (0..<n).map { UInt8(truncatingIfNeeded: (state >> 20) &+ UInt64($0) &* 97) }
            let text = Array(Base64.encode(bytes).utf8)
            inputs.append(text)
            inputs.append(Array(text.prefix(n)))  // every cut of a valid text
            inputs.append(text.flatMap { [$0, 0x20] })
            inputs.append(text.filter { $0 != 0x3D })  // unpadded
            inputs.append(text + [0x3D])
        }
        let long = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
        inputs.append(Array(Base64.encode(long).utf8))
        inputs.append(Array(Base64.encode(long).utf8) + [0x2A])
        for input in inputs {
            let text = String(decoding: input, as: UTF8.self)
            let expected = outcome { () throws(PassXMLError) in try Self.referenceDecode(text) }
            #expect(outcome { () throws(PassXMLError) in try Base64.decode(text) } == expected, "\(input)")
            #expect(outcome { () throws(PassXMLError) in try Base64.decode(utf8: text.utf8) } == expected, "\(input)")
        }
        #expect(try Base64.decode(Base64.encode(long)) == long)
    }

    /// The in-place encoder against `referenceEncode` on every length 0...40, every byte value in every
    /// position of a quantum, and a long input, from an array and from a text's bytes.
    @Test func encodeWritesWhatTheAppendingEncoderDid() {
        var inputs: [[UInt8]] = []
        var state: UInt64 = 3
        for n in 0...40 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            inputs.append((0..<n).map { UInt8(truncatingIfNeeded: (state >> 24) &+ UInt64($0) &* 53) })
        }
        for c in 0...255 {
            let c = UInt8(c)
            inputs += [[c], [c, 0xFF - c], [0x55, c, c], [c, 0, c, c ^ 0xA5]]
        }
        inputs.append((0..<100_001).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ $0 >> 8) })
        for input in inputs {
            #expect(Base64.encode(input) == Self.referenceEncode(input), "\(input.count)")
        }
        for text in ["", "a", "ab", "abc", "<saml/>", "é😀", String(repeating: "x<y>", count: 999)] {
            #expect(Base64.encode(utf8: text) == Self.referenceEncode(Array(text.utf8)))
            #expect(SAML.encodeForPost(text) == Self.referenceEncode(Array(text.utf8)))
        }
    }

    /// `Base64.encode` as it was written before it wrote its output in place.
    static func referenceEncode(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            let b0 = bytes[i], b1 = i + 1 < bytes.count ? bytes[i + 1] : 0, b2 = i + 2 < bytes.count ? bytes[i + 2] : 0
            out.append(alphabet[Int(b0 >> 2)])
            out.append(alphabet[Int((b0 & 0x03) << 4 | b1 >> 4)])
            out.append(i + 1 < bytes.count ? alphabet[Int((b1 & 0x0F) << 2 | b2 >> 6)] : 0x3D)
            out.append(i + 2 < bytes.count ? alphabet[Int(b2 & 0x3F)] : 0x3D)
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
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
