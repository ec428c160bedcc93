import Testing
import PassModel
import PassXML

@Suite struct SAMLTests {
    static let t0 = Instant(milliseconds: 1_767_225_600_000)
    static let acs = "https://sp.auth.adobe.com/sp/saml/SAMLAssertionConsumer"

    static let assertion = Assertion(
        id: "_as1", issueInstant: t0 + .seconds(7), issuer: "https://idp.example", nameID: "user<&>1",
        sessionIndex: "sess-1", notOnOrAfter: t0 + .minutes(5), audience: "https://saml.sp.auth.adobe.com",
        attributes: [SAMLAttribute(name: "zip", values: ["10001", ""]), SAMLAttribute(name: "none", values: [])])

    @Test func parsesAuthnRequestFixture() throws {
        let r = try SAML.parseAuthnRequest(Fixtures.bytes("good/authn-request.xml"))
        #expect(
            r
                == AuthnRequest(
                    id: "_a1b2c3d4", issueInstant: Self.t0 + .seconds(5), issuer: "https://saml.sp.auth.adobe.com",
                    destination: "https://idp.comcast.example/saml/sso", assertionConsumerServiceURL: Self.acs,
                    forceAuthn: false, isPassive: true))
    }

    @Test func parsesResponseFixture() throws {
        let r = try SAML.parseResponse(Fixtures.bytes("good/response.xml"))
        #expect(r.id == "_resp42")
        #expect(r.inResponseTo == "_a1b2c3d4")
        #expect(r.issueInstant == Instant(milliseconds: Self.t0.milliseconds + 7_250))
        #expect(r.issuer == "https://idp.comcast.example")
        #expect(r.destination == Self.acs)
        #expect(r.success)
        let a = try #require(r.assertion)
        #expect(a.id == "_assert7")
        #expect(a.nameID == "user-0042")
        #expect(a.sessionIndex == "sess-9f")
        #expect(a.notOnOrAfter == Self.t0 + .seconds(307))
        #expect(a.audience == "https://saml.sp.auth.adobe.com")
        #expect(
            a.attributes == [
                SAMLAttribute(name: "householdID", values: ["hh-17"]),
                SAMLAttribute(name: "channelID", values: ["espn", "cnn"]),
            ])
    }

    @Test func parsesLogoutFixtures() throws {
        let q = try SAML.parseLogoutRequest(Fixtures.bytes("good/logout-request.xml"))
        #expect(
            q
                == LogoutRequest(
                    id: "_logout1", issueInstant: Self.t0 + .hours(1),
                    issuer: "https://saml.sp.auth.adobe.com",
                    destination: "https://idp.comcast.example/saml/slo",
                    nameID: "user-0042", sessionIndex: "sess-9f"))
        let r = try SAML.parseLogoutResponse(Fixtures.bytes("good/logout-response.xml"))
        #expect(
            r
                == LogoutResponse(
                    id: "_logoutresp1", inResponseTo: "_logout1",
                    issueInstant: Self.t0 + .hours(1) + .seconds(1), issuer: "https://idp.comcast.example",
                    destination: "https://sp.auth.adobe.com/sp/saml/LogoutServiceHTTPRedirectResponse",
                    success: true))
    }

    @Test func authnRequestRoundTrips() throws {
        for (force, passive) in [(false, false), (true, false), (false, true)] {
            let r = AuthnRequest(
                id: "_q\(force)\(passive)", issueInstant: Self.t0, issuer: "https://saml.sp.auth.adobe.com",
                destination: "https://idp/sso?a=1&b=2", assertionConsumerServiceURL: Self.acs,
                forceAuthn: force, isPassive: passive)
            let xml = SAML.build(r)
            #expect(xml.contains(#"IssueInstant="2026-01-01T00:00:00Z""#))
            #expect(try SAML.parseAuthnRequest(Array(xml.utf8)) == r)
        }
    }

    @Test func responseRoundTrips() throws {
        let ok = SAMLResponse(
            id: "_r1", inResponseTo: "_q1", issueInstant: Self.t0 + .seconds(7), issuer: "https://idp.example",
            destination: Self.acs, success: true, assertion: Self.assertion)
        #expect(try SAML.parseResponse(Array(SAML.build(ok).utf8)) == ok)
        let failed = SAMLResponse(
            id: "_r2", inResponseTo: "_q2", issueInstant: Self.t0, issuer: "https://idp.example",
            destination: Self.acs, success: false, assertion: nil)
        let xml = SAML.build(failed)
        #expect(xml.contains("status:Requester"))
        #expect(xml.contains("status:AuthnFailed"))
        #expect(try SAML.parseResponse(Array(xml.utf8)) == failed)
    }

    @Test func logoutMessagesRoundTrip() throws {
        let q = LogoutRequest(
            id: "_l1", issueInstant: Self.t0, issuer: "sp", destination: "https://idp/slo",
            nameID: "n", sessionIndex: "s")
        #expect(try SAML.parseLogoutRequest(Array(SAML.build(q).utf8)) == q)
        for success in [true, false] {
            let r = LogoutResponse(
                id: "_l2", inResponseTo: "_l1", issueInstant: Self.t0, issuer: "idp",
                destination: "https://sp/slo", success: success)
            #expect(try SAML.parseLogoutResponse(Array(SAML.build(r).utf8)) == r)
        }
    }

    @Test func postBindingRoundTrips() throws {
        let xml = SAML.build(
            SAMLResponse(
                id: "_r", inResponseTo: "_q", issueInstant: Self.t0, issuer: "i",
                destination: "d", success: true, assertion: Self.assertion))
        let encoded = SAML.encodeForPost(xml)
        #expect(encoded.allSatisfy { $0.isLetter || $0.isNumber || "+/=".contains($0) })
        let parsed = try SAML.parseResponse(SAML.decodeFromPost(encoded))
        #expect(parsed.assertion?.nameID == "user<&>1")
        #expect(throws: PassXMLError.self) { try SAML.decodeFromPost("not base64!") }
    }

    @Test func wrongRootOrNamespaceIsRejected() {
        #expect(
            throws: PassXMLError(
                "expected root element <Response> in namespace urn:oasis:names:tc:SAML:2.0:protocol, found <Response>")
        ) {
            try SAML.parseResponse(Array("<Response/>".utf8))
        }
        #expect(throws: PassXMLError.self) {
            try SAML.parseAuthnRequest(
                Array(
                    SAML.build(
                        LogoutRequest(
                            id: "a", issueInstant: Self.t0, issuer: "i",
                            destination: "d", nameID: "n", sessionIndex: "s")
                    ).utf8))
        }
    }

    @Test func missingPartsAreNamed() throws {
        let p = SAML.protocolNamespace, a = SAML.assertionNamespace
        let head =
            #"<samlp:Response xmlns:samlp="\#(p)" xmlns:saml="\#(a)" ID="r" InResponseTo="q" IssueInstant="2026-01-01T00:00:00Z" Destination="d">"#
        let issuer = "<saml:Issuer>i</saml:Issuer>"
        let status =
            #"<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>"#
        func parse(_ body: String) throws -> SAMLResponse {
            try SAML.parseResponse(Array((head + body + "</samlp:Response>").utf8))
        }

        #expect(throws: PassXMLError("missing element <Issuer> in <Response>")) { try parse(status) }
        #expect(throws: PassXMLError("missing element <Status> in <Response>")) { try parse(issuer) }
        #expect(throws: PassXMLError("missing element <Subject> in <Assertion>")) {
            try parse(issuer + status + #"<saml:Assertion ID="a" IssueInstant="2026-01-01T00:00:00Z"/>"#)
        }
        #expect(throws: PassXMLError("missing element <NameID> in <Subject>")) {
            try parse(
                issuer + status
                    + #"<saml:Assertion ID="a" IssueInstant="2026-01-01T00:00:00Z"><saml:Issuer>i</saml:Issuer><saml:Subject/><saml:Conditions NotOnOrAfter="2026-01-01T00:00:00Z"><saml:AudienceRestriction><saml:Audience>x</saml:Audience></saml:AudienceRestriction></saml:Conditions><saml:AuthnStatement SessionIndex="s"/></saml:Assertion>"#
            )
        }
        #expect(throws: PassXMLError("missing attribute InResponseTo on <Response>")) {
            try SAML.parseResponse(
                Array(
                    (head.replacingFirst(#" InResponseTo="q""#, with: "") + issuer + status + "</samlp:Response>").utf8)
            )
        }
        #expect(throws: PassXMLError("invalid ISO-8601 instant 'yesterday' in attribute IssueInstant of <Response>")) {
            try SAML.parseResponse(
                Array(
                    (head.replacingFirst("2026-01-01T00:00:00Z", with: "yesterday") + issuer + status
                        + "</samlp:Response>").utf8))
        }
        // An Issuer in the wrong namespace does not count.
        #expect(throws: PassXMLError("missing element <Issuer> in <Response>")) {
            try parse("<Issuer>i</Issuer>" + status)
        }
    }

    @Test func twoAssertionsOrEncryptedAssertionsAreRejected() throws {
        let one = SAML.build(
            SAMLResponse(
                id: "_r", inResponseTo: "_q", issueInstant: Self.t0, issuer: "i",
                destination: "d", success: true, assertion: Self.assertion))
        guard let start = one.firstRange(of: "<saml:Assertion"), let end = one.firstRange(of: "</saml:Assertion>")
        else {
            Issue.record("no assertion in built response")
            return
        }
        let block = String(one[start.lowerBound..<end.upperBound])
        let two = one.replacingFirst(block, with: block + block)
        #expect(throws: PassXMLError("<Response> has 2 <Assertion> elements; at most one is allowed")) {
            try SAML.parseResponse(Array(two.utf8))
        }
        let encrypted = one.replacingFirst(block, with: "<saml:EncryptedAssertion/>")
        #expect(throws: PassXMLError("encrypted assertions are not supported")) {
            try SAML.parseResponse(Array(encrypted.utf8))
        }
    }
}

extension String {
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let r = firstRange(of: target) else { return self }
        var s = self
        s.replaceSubrange(r, with: replacement)
        return s
    }
}
