import Testing
import PassXML

/// Every hostile fixture is rejected by the generic parser and by every typed parser, with a
/// specific message, and nothing from the file system (the text of /etc/passwd) ever shows up.
@Suite struct HostileXMLTests {
    /// Runs every parser of the module on the bytes and returns what each produced, error or value.
    static func everyParserOutput(_ bytes: [UInt8]) -> [String] {
        func run<T>(_ f: ([UInt8]) throws -> T) -> String {
            do { return "value: \(try f(bytes))" } catch { return "error: \(error)" }
        }
        return [
            run { try SafeXML.parse($0) },
            run { try SafeXML.xpath("//text()", in: $0, namespaces: []) },
            run { try ConfigurationXML.parse($0) },
            run { try SAML.parseAuthnRequest($0) },
            run { try SAML.parseResponse($0) },
            run { try SAML.parseLogoutRequest($0) },
            run { try SAML.parseLogoutResponse($0) },
            run { try AuthnTokenXML.parse($0) },
            run { try SessionDeviceXML.parse($0) },
            run { try HTMLPageXML.parse($0) },
            run { try AuthzTokenXML.parse($0) },
            run { try AuthorizeDeviceXML.parse($0) },
            run { try ErrorXML.parse($0) },
            run { try ShortMediaTokenXML.parse($0) },
            run { try PreauthorizeXML.parse($0) },
            run { try MetadataXML.parse($0) },
            run { try SessionDeviceXML.parseUserMeta($0) },
            run {
                try SAML.parseResponse(SAML.decodeFromPost(SAML.encodeForPost(String(decoding: $0, as: UTF8.self))))
            },
        ]
    }

    static func expectRejected(
        _ fixture: String, with message: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let bytes = try Fixtures.bytes("hostile/" + fixture)
        for output in everyParserOutput(bytes) {
            #expect(output == "error: \(message)", "\(fixture)", sourceLocation: sourceLocation)
            #expect(!output.contains("root:"), "\(fixture) leaked /etc/passwd", sourceLocation: sourceLocation)
        }
    }

    @Test func externalEntityToFile() throws {
        try Self.expectRejected("xxe-file.xml", with: "DOCTYPE is not allowed")
    }

    @Test func parameterEntityWithExternalDTD() throws {
        try Self.expectRejected("xxe-parameter.xml", with: "DOCTYPE is not allowed")
    }

    @Test func billionLaughs() throws {
        try Self.expectRejected("billion-laughs.xml", with: "DOCTYPE is not allowed")
    }

    @Test func quadraticBlowup() throws {
        try Self.expectRejected("quadratic-blowup.xml", with: "DOCTYPE is not allowed")
    }

    @Test func harmlessDoctypeIsStillRejected() throws {
        try Self.expectRejected("doctype-harmless.xml", with: "DOCTYPE is not allowed")
    }

    @Test func samlResponseWrappingAnXXE() throws {
        try Self.expectRejected("saml-response-xxe.xml", with: "DOCTYPE is not allowed")
    }

    /// UTF-16 hides the DOCTYPE from the byte pre-check; the check on the parsed document must catch it,
    /// and the external entity must not have been fetched on the way.
    @Test func utf16DoctypeIsCaughtAfterParsing() throws {
        let bytes = try Fixtures.bytes("hostile/xxe-utf16.xml")
        let outputs = Self.everyParserOutput(bytes)
        for output in outputs.dropLast() {  // the last one re-encodes as UTF-8, see below
            #expect(output == "error: DOCTYPE is not allowed")
            #expect(!output.contains("root:"))
        }
        #expect(!outputs.contains { $0.contains("root:") })
    }

    @Test func deepNesting() throws {
        try Self.expectRejected("deep-nesting.xml", with: "nesting deeper than 64 levels (limit: xml-depth) at line 1")
    }

    @Test func hugeAttribute() throws {
        try Self.expectRejected(
            "huge-attribute.xml",
            with: "attribute 'value' of <item> is longer than 65536 bytes (limit: xml-attribute-bytes) at line 1")
    }

    @Test func notXML() throws {
        let bytes = try Fixtures.bytes("hostile/not-xml.txt")
        for output in Self.everyParserOutput(bytes) {
            #expect(output.hasPrefix("error: document is not well-formed XML (line 1): "), "\(output)")
        }
    }

    /// The entity defences hold even with a very generous size limit.
    @Test func quadraticBlowupUnderLargeLimits() throws {
        let bytes = try Fixtures.bytes("hostile/quadratic-blowup.xml")
        let limits = XMLLimits(maxBytes: 10_000_000, maxDepth: 10_000, maxAttributeLength: 10_000_000)
        #expect(throws: PassXMLError("DOCTYPE is not allowed")) { try SafeXML.parse(bytes, limits: limits) }
    }

    /// The fixtures must be hostile in the way their names say (guards against a regenerated fixture
    /// silently losing its payload).
    @Test func fixturesCarryTheirPayloads() throws {
        func text(_ name: String) throws -> String {
            String(decoding: try Fixtures.bytes("hostile/" + name), as: UTF8.self)
        }
        #expect(try text("xxe-file.xml").contains("SYSTEM \"file:///etc/passwd\""))
        #expect(try text("xxe-parameter.xml").contains("%dtd;"))
        #expect(try text("billion-laughs.xml").contains("<!ENTITY lol9"))
        let quadratic = try Fixtures.bytes("hostile/quadratic-blowup.xml")
        #expect(quadratic.count > 150_000 && quadratic.count < 300_000)
        #expect(try Fixtures.bytes("hostile/deep-nesting.xml").count == 70_001)
        #expect(try Fixtures.bytes("hostile/huge-attribute.xml").count > 200_000)
    }
}
