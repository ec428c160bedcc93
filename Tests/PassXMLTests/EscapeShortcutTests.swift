import Testing
import PassModel

@testable import PassXML

/// `SafeXML.escape` and `XMLWriter` copy the runs between the five escaped characters whole, into
/// bytes; `escapeByteByByte` is the loop they replaced. On any text, generated or hostile, both must
/// give the same bytes, and so must every document written through the writer.
@Suite struct EscapeShortcutTests {
    /// Pieces a generated text is made of: the five, markup, whitespace and controls, multi-byte
    /// characters (2, 3 and 4 bytes, a combining mark, a flag), and what invalid UTF-8 decodes to.
    static let pieces: [String] = [
        "&", "<", ">", "\"", "'", "a", "Z", "0", " ", "\t", "\n", "\r\n", "\0", "&amp;", "]]>", "<!--",
        "é", "e\u{301}", "ß", "€", "中文", "😀", "🇫🇷", "\u{FEFF}", "\u{7F}", "\u{85}",
        String(decoding: [0xFF], as: UTF8.self), String(decoding: [0xC3], as: UTF8.self),
        String(decoding: [0xE2, 0x82], as: UTF8.self), String(decoding: [0xED, 0xA0, 0x80], as: UTF8.self),
        String(decoding: [0x26, 0xC0, 0xBC, 0x3C], as: UTF8.self),
        "simpleAuthenticationToken", String(repeating: "x", count: 40),
    ]

    /// Deterministic texts: every piece alone, then random joins of up to 12 pieces.
    static var texts: [String] {
        var out = [""] + pieces
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for _ in 0..<2000 {
            out.append((0..<next(13)).map { _ in pieces[next(pieces.count)] }.joined())
        }
        return out
    }

    @Test func escapeCopiesRunsAsTheByteLoopWrites() {
        for text in Self.texts {
            let expected = Array(SafeXML.escapeByteByByte(text).utf8)
            #expect(Array(SafeXML.escape(text).utf8) == expected, "\(Array(text.utf8))")
            var appended: [UInt8] = [0x2A]
            SafeXML.appendEscaped(text, to: &appended)
            #expect(appended == [0x2A] + expected, "\(Array(text.utf8))")
        }
    }

    @Test func aPlainTextIsReturnedAsItIs() {
        for text in ["", "plain", "é中😀", String(repeating: "y", count: 100)] {
            #expect(SafeXML.escape(text) == text)
            #expect(SafeXML.escapeByteByByte(text) == text)
        }
    }

    /// The text the writer made before it wrote bytes: each piece interpolated, values escaped by the loop.
    static func interpolated(_ name: String, _ value: String, _ attributes: [(String, String)]) -> String {
        let attrs = attributes.map { " \($0.0)=\"\(SafeXML.escapeByteByByte($0.1))\"" }.joined()
        return value.isEmpty
            ? "<\(name)\(attrs)/>" : "<\(name)\(attrs)>\(SafeXML.escapeByteByByte(value))</\(name)>"
    }

    @Test func writerWritesWhatInterpolationWrote() {
        let texts = Self.texts
        for (i, value) in texts.enumerated() {
            let attribute = texts[(i * 7) % texts.count]
            var w = XMLWriter(declaration: i % 2 == 0)
            w.element("outer", [("a", attribute)]) { w in
                w.leaf("v", value, [("b", value), ("c", "")])
                w.appendEscaped(value)
                w.appendMarkup("<m/>")
            }
            let expected =
                (i % 2 == 0 ? #"<?xml version="1.0" encoding="UTF-8"?>"# : "")
                + "<outer a=\"\(SafeXML.escapeByteByByte(attribute))\">"
                + Self.interpolated("v", value, [("b", value), ("c", "")])
                + SafeXML.escapeByteByByte(value) + "<m/></outer>"
            #expect(Array(w.text.utf8) == Array(expected.utf8))

            var inner = XMLWriter()
            inner.appendMarkup(value)
            var outer = XMLWriter()
            outer.leaf("t", escaping: inner)
            #expect(Array(outer.text.utf8) == Array(Self.interpolated("t", value, []).utf8))
        }
    }

    /// Tokens with every field hostile: `sessionDevice` escapes the token from its bytes, which must
    /// be the text of escaping `AuthnTokenXML.build`'s `String`, as it was written.
    @Test func sessionDeviceEscapesTheTokenAsItsText() throws {
        let texts = Self.texts
        for i in stride(from: 0, to: texts.count, by: 5) {
            func field(_ k: Int) -> String { texts[(i + k * 131) % texts.count] }
            let token = AuthnToken(
                guid: field(0), requestorID: field(1), domainName: field(2),
                expires: Instant(milliseconds: Int64(i) * 86_400_123), mvpdID: field(3), deviceID: field(4),
                nameID: field(5), sessionIndex: field(6))
            let built = AuthnTokenXML.build(token)
            let leaves = [
                ("simpleTokenAuthenticationGuid", token.guid), ("simpleTokenRequestorID", token.requestorID),
                ("simpleTokenDomainName", token.domainName), ("simpleTokenExpires", token.expires.tokenDate),
                ("simpleTokenMsoID", token.mvpdID), ("simpleTokenDeviceID", token.deviceID),
                ("simpleSamlNameID", token.nameID), ("simpleSamlSessionIndex", token.sessionIndex),
            ].map { Self.interpolated($0.0, $0.1, []) }.joined()
            let envelope = "<signatureInfo>unsigned (passim mock)<signatureInfo>"
            #expect(
                Array(built.utf8)
                    == Array((envelope + "<simpleAuthenticationToken>\(leaves)</simpleAuthenticationToken>").utf8))
            let authz = AuthzToken(
                sessionGUID: field(0), requestorID: field(1), resourceID: field(2), mvpdID: field(3),
                deviceID: field(4), expires: token.expires)
            let authzLeaves = [
                ("simpleTokenAuthenticationGuid", authz.sessionGUID), ("simpleTokenRequestorID", authz.requestorID),
                ("simpleTokenResourceID", authz.resourceID), ("simpleTokenMsoID", authz.mvpdID),
                ("simpleTokenDeviceID", authz.deviceID), ("simpleTokenExpires", authz.expires.tokenDate),
            ].map { Self.interpolated($0.0, $0.1, []) }.joined()
            #expect(
                Array(AuthzTokenXML.build(authz).utf8)
                    == Array((envelope + "<simpleAuthorizationToken>\(authzLeaves)</simpleAuthorizationToken>").utf8))
            #expect(
                Array(SessionDeviceXML.build(.token(token)).utf8)
                    == Array(("<result>" + Self.interpolated("authnToken", built, []) + "</result>").utf8))
            let meta = Value.dict([Value.Entry("k", .string(field(7)))])
            #expect(
                Array(SessionDeviceXML.build(.token(token), userMeta: meta).utf8)
                    == Array(
                        ("<result>" + Self.interpolated("authnToken", built, [])
                            + Self.interpolated("userMeta", meta.jsonText, []) + "</result>").utf8))
        }
    }

    /// `leaf(_:tokenDate:)` writes the digits itself from 1970 to the end of 9999 and hands any other
    /// instant to `tokenDate`: both must write `leaf(name, date.tokenDate)`.
    @Test func tokenDateLeafWritesTokenDate() {
        var instants: [Int64] = [
            0, 1, 999, 1000, 59_999, 86_399_999, 86_400_000, 951_782_400_000, 1_767_225_600_000, -1, -1000, -86_400_001,
            XMLWriter.year10000 - 1, XMLWriter.year10000, XMLWriter.year10000 + 1, -62_135_596_800_000,
            -62_167_219_200_001, 9_000_000_000_000_000, -9_000_000_000_000_000,
        ]
        var state: UInt64 = 7
        for _ in 0..<5000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let r = Int64(bitPattern: state >> 1) % (XMLWriter.year10000 * 2)
            instants.append(r - XMLWriter.year10000 / 2)
        }
        for ms in instants {
            let date = Instant(milliseconds: ms)
            var fast = XMLWriter()
            fast.leaf("d", tokenDate: date)
            var slow = XMLWriter()
            slow.leaf("d", date.tokenDate)
            #expect(fast.bytes == slow.bytes, "\(ms)")
        }
    }

    /// `declarations` finds in one pass what the two searches found: DOCTYPE first wherever it is,
    /// then ENTITY; near misses, cut words and either order included.
    @Test func oneDeclarationScanFindsWhatTwoSearchesFound() {
        let parts = [
            "<!DOCTYPE", "<!ENTITY", "<!DOCTYP", "<!ENTIT", "<!doctype", "< !DOCTYPE", "<<!ENTITY x", "<!", "<", "!",
            "DOCTYPE", "ENTITY", "<a>", "</a>", "<!-- c -->", "é", " ", "<!<!DOCTYPE",
        ]
        var docs: [String] = [""] + parts
        var state: UInt64 = 23
        for _ in 0..<3000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let n = Int((state >> 40) % 7)
            var doc = ""
            for k in 0..<n { doc += parts[Int((state >> UInt64(k * 5)) % UInt64(parts.count))] }
            docs.append(doc)
        }
        // The two searches `declarations` replaced, as they were written.
        func contains(_ haystack: [UInt8], _ needle: String) -> Bool {
            let n = Array(needle.utf8)
            guard haystack.count >= n.count, let first = n.first else { return false }
            return haystack.withUnsafeBufferPointer { h in
                var i = 0
                while i <= h.count - n.count {
                    if h[i] == first {
                        var j = 1
                        while j < n.count && h[i + j] == n[j] { j += 1 }
                        if j == n.count { return true }
                    }
                    i += 1
                }
                return false
            }
        }
        for doc in docs {
            let bytes = Array(doc.utf8)
            let expected: SafeXML.Declaration? =
                contains(bytes, "<!DOCTYPE") ? .doctype : contains(bytes, "<!ENTITY") ? .entity : nil
            #expect(SafeXML.declarations(in: bytes) == expected, "\(doc)")
        }
    }
}
