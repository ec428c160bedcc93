import Testing
import PassModel
import PassXML

@Suite struct AuthnTokenXMLTests {
    static let token = AuthnToken(
        guid: "5f1e2d3c-0000-4000-8000-000000000001", requestorID: "NBCOlympics", domainName: "adobe.com",
        expires: Instant(milliseconds: 1_767_225_600_000) + .hours(168) + .seconds(7), mvpdID: "Comcast_SSO",
        deviceID: "device-abc", nameID: "user-0042", sessionIndex: "sess-9f")

    @Test func parsesTheFixture() throws {
        #expect(try AuthnTokenXML.parse(Fixtures.bytes("good/authn-token.xml")) == Self.token)
    }

    @Test func roundTrips() throws {
        var odd = Self.token
        odd.nameID = "a<b>&\"c\""
        odd.domainName = ""
        for t in [Self.token, odd] {
            let xml = AuthnTokenXML.build(t)
            #expect(xml.hasPrefix("<signatureInfo>unsigned (passim mock)<signatureInfo><simpleAuthenticationToken>"))
            #expect(xml.contains("<simpleTokenExpires>2026/01/08 00:00:07 GMT +0000</simpleTokenExpires>"))
            #expect(try AuthnTokenXML.parse(Array(xml.utf8)) == t)
        }
    }

    @Test func bareSimpleTokenIsAccepted() throws {
        let xml = AuthnTokenXML.build(Self.token)
        guard let start = xml.firstRange(of: "<simpleAuthenticationToken>"),
            let end = xml.firstRange(of: "</simpleAuthenticationToken>")
        else {
            Issue.record("no simpleAuthenticationToken")
            return
        }
        #expect(try AuthnTokenXML.parse(Array(xml[start.lowerBound..<end.upperBound].utf8)) == Self.token)
    }

    /// pass.en's token format page lays the token out over lines; the envelope tolerates that.
    @Test func readsAdobesEnvelopeAsDocumented() throws {
        let xml = AuthnTokenXML.build(Self.token)
        let laidOut =
            "\n  " + xml.replacingFirst("<simpleAuthenticationToken>", with: "\n  <simpleAuthenticationToken>\n")
        #expect(try AuthnTokenXML.parse(Array(laidOut.utf8)) == Self.token)
    }

    @Test func hostileEnvelopesAreRefused() throws {
        let cases: [(String, String)] = [
            ("authn-one-marker.txt", "a token that starts with <signatureInfo> must have it twice, before its XML"),
            ("authn-three-markers.txt", "a token must have <signatureInfo> exactly twice"),
            (
                "authn-authz-root-after-envelope.txt",
                "expected <simpleAuthenticationToken> after <signatureInfo>, found <simpleAuthorizationToken>"
            ),
        ]
        for (name, message) in cases {
            let bytes = try Fixtures.bytes("../hostile/xml/tokens/" + name)
            #expect(throws: PassXMLError(message)) { try AuthnTokenXML.parse(bytes) }
        }
        let doctype = try Fixtures.bytes("../hostile/xml/tokens/authn-doctype-after-envelope.txt")
        #expect(throws: PassXMLError.self) { try AuthnTokenXML.parse(doctype) }
        #expect(throws: PassXMLError.self) { try AuthzTokenXML.parse(doctype) }
    }

    @Test func missingOrBadFieldsAreNamed() {
        let xml = AuthnTokenXML.build(Self.token)
        #expect(throws: PassXMLError("missing element <simpleSamlSessionIndex> in <simpleAuthenticationToken>")) {
            try AuthnTokenXML.parse(
                Array(xml.replacingFirst("<simpleSamlSessionIndex>sess-9f</simpleSamlSessionIndex>", with: "").utf8))
        }
        #expect(
            throws: PassXMLError(
                "invalid date 'tomorrow' in <simpleTokenExpires> (expected yyyy/MM/dd HH:mm:ss GMT +hhmm)")
        ) {
            try AuthnTokenXML.parse(Array(xml.replacingFirst("2026/01/08 00:00:07 GMT +0000", with: "tomorrow").utf8))
        }
        #expect(throws: PassXMLError("missing element <simpleAuthenticationToken> in <authnToken>")) {
            try AuthnTokenXML.parse(Array("<authnToken/>".utf8))
        }
        #expect(throws: PassXMLError("expected root element <authnToken>, found <token>")) {
            try AuthnTokenXML.parse(Array("<token/>".utf8))
        }
    }
}

@Suite struct SessionDeviceXMLTests {
    @Test func parsesTheFixture() throws {
        #expect(
            try SessionDeviceXML.parse(Fixtures.bytes("good/session-device.xml")) == .token(AuthnTokenXMLTests.token))
    }

    @Test func roundTripsEveryCase() throws {
        for content in [SessionDeviceXML.Content.token(AuthnTokenXMLTests.token), .pendingLogout, .none] {
            #expect(try SessionDeviceXML.parse(Array(SessionDeviceXML.build(content).utf8)) == content)
        }
        #expect(SessionDeviceXML.build(.none) == "<result/>")
        #expect(SessionDeviceXML.build(.pendingLogout) == "<result><pendingLogout>true</pendingLogout></result>")
        #expect(
            SessionDeviceXML.build(.token(AuthnTokenXMLTests.token)).hasPrefix(
                "<result><authnToken>&lt;signatureInfo&gt;"))
    }

    /// The JS SDK's spelling is written; the empty element of older answers still reads as pending,
    /// and an explicit `false` as none.
    @Test func pendingLogoutReadsInBothShapes() throws {
        #expect(try SessionDeviceXML.parse(Array("<result><pendingLogout/></result>".utf8)) == .pendingLogout)
        #expect(
            try SessionDeviceXML.parse(Array("<result><pendingLogout>true</pendingLogout></result>".utf8))
                == .pendingLogout)
        #expect(
            try SessionDeviceXML.parse(Array("<result><pendingLogout>false</pendingLogout></result>".utf8)) == .none)
    }

    @Test func badBodiesAreRejected() {
        #expect(throws: PassXMLError("<result> has both <authnToken> and <pendingLogout>")) {
            try SessionDeviceXML.parse(Array("<result><authnToken>x</authnToken><pendingLogout/></result>".utf8))
        }
        #expect(throws: PassXMLError("empty element <authnToken> in <result>")) {
            try SessionDeviceXML.parse(Array("<result><authnToken/></result>".utf8))
        }
        #expect {
            try SessionDeviceXML.parse(Array("<result><authnToken>&lt;nope</authnToken></result>".utf8))
        } throws: { error in
            ((error as? PassXMLError)?.message ?? "").hasPrefix(
                "invalid token in <result>: document is not well-formed XML")
        }
    }

    /// A token smuggling a DOCTYPE inside the escaped text is parsed with the same defences.
    @Test func nestedTokenGetsTheSameDefences() {
        let inner = SafeXML.escape(
            #"<!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><authnToken>&x;</authnToken>"#)
        #expect(throws: PassXMLError("invalid token in <result>: DOCTYPE is not allowed")) {
            try SessionDeviceXML.parse(Array("<result><authnToken>\(inner)</authnToken></result>".utf8))
        }
    }
}
