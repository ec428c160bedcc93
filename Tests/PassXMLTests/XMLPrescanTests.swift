import Testing
import PassXML

/// The structural limits hold before libxml2 sees the bytes.
@Suite struct XMLPrescanTests {
    static func hostile(_ name: String) throws -> [UInt8] { try Fixtures.bytes("../hostile/xml/" + name) }

    /// Issue 12's 880 KB element with 95,000 attributes, built as `Fixtures/hostile/xml/attribute-bomb.txt` says.
    static func attributeBomb() -> [UInt8] {
        let attributes = (0..<95_000).map { "a\(String($0, radix: 36))=\"1\"" }.joined(separator: " ")
        return Array("<r><e \(attributes)/></r>".utf8)
    }

    @Test func attributeBombIsRejectedBeforeLibxml2() throws {
        let bomb = Self.attributeBomb()
        #expect(bomb.count == 902_023)
        #expect(try String(decoding: Self.hostile("attribute-bomb.txt"), as: UTF8.self).contains("902,023"))
        let elapsed = ContinuousClock().measure {
            #expect(throws: PassXMLError("element with more than 32 attributes (limit: xml-attributes) at line 1")) {
                try SafeXML.parse(bomb)
            }
        }
        // Printed, not asserted: the figure for the report (it was 13.8 s inside libxml2).
        print("attribute bomb (\(bomb.count) bytes, 95,000 attributes) rejected in \(elapsed)")
    }

    @Test func oneAttributeOverTheLimit() throws {
        let bytes = try Self.hostile("33-attributes.xml")
        #expect(throws: PassXMLError("element with more than 32 attributes (limit: xml-attributes) at line 3")) {
            try SafeXML.parse(bytes)
        }
        #expect(throws: PassXMLError("element with more than 32 attributes (limit: xml-attributes) at line 3")) {
            try SAML.parseResponse(bytes)
        }
        #expect(try SafeXML.parse(bytes, limits: XMLLimits(maxAttributes: 33)).children[0].attributes.count == 33)
    }

    @Test func tooManyElements() throws {
        let many = Array(("<r>" + String(repeating: "<e/>\n", count: 10_000) + "</r>").utf8)
        #expect(throws: PassXMLError("more than 10000 elements (limit: xml-elements) at line 10000")) {
            try SafeXML.parse(many)
        }
        let fits = Array(("<r>" + String(repeating: "<e/>", count: 9_999) + "</r>").utf8)
        #expect(try SafeXML.parse(fits).children.count == 9_999)
    }

    @Test func depthIsCountedBeforeParsing() throws {
        #expect(throws: PassXMLError("nesting deeper than 64 levels (limit: xml-depth) at line 1")) {
            try SafeXML.parse(String(repeating: "<a>", count: 65) + String(repeating: "</a>", count: 65))
        }
        // Empty elements and closed siblings do not deepen the document.
        let wide = String(repeating: "<a>", count: 63) + "<b/><b></b><b/>" + String(repeating: "</a>", count: 63)
        #expect(try SafeXML.parse(wide).name == "a")
    }

    /// Tags and `=` inside comments, CDATA, processing instructions and quoted values are not counted.
    @Test func markupInsideTextDoesNotCount() throws {
        let bytes = try Self.hostile("markup-in-text.xml")
        let root = try SafeXML.parse(bytes, limits: XMLLimits(maxDepth: 2, maxAttributes: 2, maxElements: 2))
        #expect(root.attributes.count == 2)
        #expect(root.children.map(\.name) == ["leaf"])
    }

    /// Unterminated markup ends the scan; libxml2 then refuses the document as before.
    @Test func unterminatedMarkupIsLeftToLibxml2() {
        for text in ["<r a=\"1", "<r><!-- never closed", "<r><![CDATA[ x", "<r><?pi", "<r", "<r></r"] {
            #expect(throws: PassXMLError.self, "\(text)") { try SafeXML.parse(text) }
        }
    }
}
