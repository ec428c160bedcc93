import Testing
@testable import PassXML
import PassModel

@Suite struct SafeXMLTests {
    @Test func parsesTreeWithNamespacesAttributesAndText() throws {
        let root = try SafeXML.parse(
            #"<r xmlns:x="urn:x" a="1"><x:c b="&lt;2&gt;">hi &amp; <![CDATA[<raw>]]></x:c><d/><c>2</c></r>"#)
        #expect(root.name == "r")
        #expect(root.namespace == nil)
        #expect(root.attribute("a") == "1")
        #expect(root.children.count == 3)
        let c = try #require(root.child("c"))
        #expect(c.namespace == "urn:x")
        #expect(c.attribute("b") == "<2>")
        #expect(c.text == "hi & <raw>")
        #expect(root.children("c").count == 2)
        #expect(root.child("c", namespace: nil)?.text == "2")
        #expect(root.child("missing") == nil)
    }

    @Test func textIsRawAndTrimmedTextIsTrimmed() throws {
        let root = try SafeXML.parse("<a>\n  value \t</a>")
        #expect(root.text == "\n  value \t")
        #expect(root.trimmedText == "value")
    }

    @Test func descendantIsFirstInDocumentOrder() throws {
        let root = try SafeXML.parse("<a><b><x>1</x></b><x>2</x></a>")
        #expect(root.descendant("x")?.text == "1")
        #expect(root.descendant("a") == nil)  // not self
    }

    @Test func notWellFormedGivesLineAndReason() {
        #expect {
            try SafeXML.parse("<a>\n<b></a>")
        } throws: { error in
            let m = (error as? PassXMLError)?.message ?? ""
            return m.hasPrefix("document is not well-formed XML (line ") && m.contains("mismatch")
        }
    }

    @Test func undefinedEntityIsRejected() {
        #expect(throws: PassXMLError.self) { try SafeXML.parse("<a>&nope;</a>") }
    }

    @Test func emptyDocumentIsRejected() {
        #expect(throws: PassXMLError("document is empty")) { try SafeXML.parse(" \n") }
        #expect(throws: PassXMLError("document is empty")) { try SafeXML.parse([UInt8]()) }
    }

    @Test func maxBytesIsCheckedBeforeParsing() throws {
        let doc = "<a>" + String(repeating: "x", count: 100) + "</a>"
        let limits = XMLLimits(maxBytes: 50)
        #expect(throws: PassXMLError("document is 107 bytes, over the limit of 50 bytes (limit: xml-bytes)")) {
            try SafeXML.parse(doc, limits: limits)
        }
        // Also for bytes that are not XML at all: the size is checked first.
        #expect(throws: PassXMLError("document is 60 bytes, over the limit of 50 bytes (limit: xml-bytes)")) {
            try SafeXML.parse([UInt8](repeating: 0xFF, count: 60), limits: limits)
        }
        _ = try SafeXML.parse(doc, limits: XMLLimits(maxBytes: 107))
    }

    @Test func maxDepthCountsTheRootAsOne() throws {
        func nested(_ depth: Int) -> String {
            String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
        }
        _ = try SafeXML.parse(nested(64))
        #expect(throws: PassXMLError("nesting deeper than 64 levels (limit: xml-depth) at line 1")) {
            try SafeXML.parse(nested(65))
        }
        #expect(throws: PassXMLError("nesting deeper than 3 levels (limit: xml-depth) at line 1")) {
            try SafeXML.parse(nested(4), limits: XMLLimits(maxDepth: 3))
        }
    }

    @Test func maxAttributeLength() throws {
        let doc = #"<a v=""# + String(repeating: "y", count: 20) + #""/>"#
        _ = try SafeXML.parse(doc, limits: XMLLimits(maxAttributeLength: 20))
        #expect(
            throws: PassXMLError("attribute 'v' of <a> is longer than 19 bytes (limit: xml-attribute-bytes) at line 1")
        ) {
            try SafeXML.parse(doc, limits: XMLLimits(maxAttributeLength: 19))
        }
    }

    @Test func escapeCoversAllFiveCharacters() throws {
        let raw = #"a<b>&"c"'d' é"#
        #expect(SafeXML.escape(raw) == "a&lt;b&gt;&amp;&quot;c&quot;&apos;d&apos; é")
        // What escape produces reads back to the original, as text and as an attribute.
        let root = try SafeXML.parse("<x v=\"\(SafeXML.escape(raw))\">\(SafeXML.escape(raw))</x>")
        #expect(root.text == raw)
        #expect(root.attribute("v") == raw)
    }

    @Test func xpathWithNamespacesOnSAMLResponse() throws {
        let bytes = try Fixtures.bytes("good/response.xml")
        let ns = [(prefix: "sp", uri: SAML.protocolNamespace), (prefix: "sa", uri: SAML.assertionNamespace)]
        #expect(
            try SafeXML.xpath("/sp:Response/sa:Assertion/sa:Subject/sa:NameID", in: bytes, namespaces: ns) == [
                "user-0042"
            ])
        #expect(try SafeXML.xpath("//sa:AuthnStatement/@SessionIndex", in: bytes, namespaces: ns) == ["sess-9f"])
        #expect(
            try SafeXML.xpath("//sa:Attribute[@Name='channelID']/sa:AttributeValue", in: bytes, namespaces: ns)
                == ["espn", "cnn"])
        #expect(try SafeXML.xpath("count(//sa:AttributeValue)", in: bytes, namespaces: ns) == ["3"])
        #expect(try SafeXML.xpath("//sp:Nothing", in: bytes, namespaces: ns) == [])
        // Without the namespace the same local name matches nothing: prefixes are not guessed.
        #expect(try SafeXML.xpath("//NameID", in: bytes, namespaces: []) == [])
    }

    @Test func xpathErrorsAreValues() throws {
        let bytes = try Fixtures.bytes("good/response.xml")
        #expect(throws: PassXMLError("invalid XPath expression '//['")) {
            try SafeXML.xpath("//[", in: bytes, namespaces: [])
        }
        #expect(throws: PassXMLError.self) { try SafeXML.xpath("//undeclared:x", in: bytes, namespaces: []) }
    }

    @Test func iso8601RoundTripsAndAcceptsOffsets() throws {
        let start = Instant(milliseconds: 1_767_225_600_000)
        #expect(ISO8601.format(start) == "2026-01-01T00:00:00Z")
        #expect(ISO8601.format(Instant(milliseconds: 1_767_225_600_250)) == "2026-01-01T00:00:00.250Z")
        #expect(ISO8601.format(Instant(milliseconds: -1)) == "1969-12-31T23:59:59.999Z")
        for ms: Int64 in [0, -1, 951_782_400_000, 1_767_225_600_000, 1_767_225_600_007, 4_102_444_800_123] {
            #expect(ISO8601.parse(ISO8601.format(Instant(milliseconds: ms))) == Instant(milliseconds: ms))
        }
        #expect(ISO8601.parse("2026-01-01T01:30:00+01:30") == start)
        #expect(ISO8601.parse("2026-01-01T00:00:00.1234567Z") == Instant(milliseconds: 1_767_225_600_123))
        for bad in ["2026-01-01", "2026-01-01T00:00:00", "2026-13-01T00:00:00Z", "2026-01-01T00:00:00.Z", "x"] {
            #expect(ISO8601.parse(bad) == nil, "\(bad)")
        }
    }
}
