import Testing
import PassModel
import PassXML

/// The fixtures' token: issued at the simulation start for 24 hours.
let fixtureAuthz = AuthzToken(
    sessionGUID: "5f1e2d3c-0000-4000-8000-000000000001", requestorID: "NBCOlympics", resourceID: "NBCOlympics-Live",
    mvpdID: "Comcast_SSO", deviceID: "device-abc", expires: Instant.simulationStart + .hours(24))

/// Fixtures are pretty-printed; the builders write no whitespace between elements.
func compact(_ bytes: [UInt8]) -> String {
    let chars = Array(String(decoding: bytes, as: UTF8.self))
    var out = ""
    var i = 0
    while i < chars.count {
        out.append(chars[i])
        if chars[i] == ">" {
            var j = i + 1
            while j < chars.count, chars[j] == " " || chars[j] == "\n" { j += 1 }
            if j == chars.count || chars[j] == "<" {
                i = j
                continue
            }
        }
        i += 1
    }
    return out
}

@Suite struct AuthzTokenXMLTests {
    @Test func parsesTheFixtureAndBuildsItBack() throws {
        // Adobe's envelope is what is written; the `<authzToken>` root passim wrote before is still read.
        let bytes = try Fixtures.bytes("good/authz-token-envelope.txt")
        #expect(try AuthzTokenXML.parse(bytes) == fixtureAuthz)
        #expect(AuthzTokenXML.build(fixtureAuthz, issuedAt: .simulationStart) == compact(bytes))
        #expect(try AuthzTokenXML.parse(Fixtures.bytes("good/authz-token.xml")) == fixtureAuthz)
    }

    @Test func roundTripsWithAndWithoutTTL() throws {
        var odd = fixtureAuthz
        odd.resourceID = #"<rss version="2.0"><channel><title>CNN & co</title></channel></rss>"#
        odd.deviceID = ""
        for t in [fixtureAuthz, odd] {
            #expect(try AuthzTokenXML.parse(Array(AuthzTokenXML.build(t).utf8)) == t)
            #expect(try AuthzTokenXML.parse(Array(AuthzTokenXML.build(t, issuedAt: .simulationStart).utf8)) == t)
        }
        #expect(!AuthzTokenXML.build(fixtureAuthz).contains("simpleTokenTTL"))
        // A token issued after its expiry (never by the mock) says 0, not a negative TTL.
        #expect(
            AuthzTokenXML.build(fixtureAuthz, issuedAt: fixtureAuthz.expires + .seconds(1))
                .contains("<simpleTokenTTL>0</simpleTokenTTL>"))
    }

    @Test func badTokensAreRejected() {
        let xml = AuthzTokenXML.build(fixtureAuthz, issuedAt: .simulationStart)
        #expect(throws: PassXMLError("empty element <simpleTokenResourceID> in <simpleAuthorizationToken>")) {
            try AuthzTokenXML.parse(Array(xml.replacing("NBCOlympics-Live", with: "").utf8))
        }
        #expect(throws: PassXMLError("invalid TTL 'soon' in <simpleTokenTTL> (expected milliseconds)")) {
            try AuthzTokenXML.parse(Array(xml.replacing("86400000", with: "soon").utf8))
        }
        #expect(
            throws: PassXMLError(
                "invalid date 'x' in <simpleTokenExpires> (expected yyyy/MM/dd HH:mm:ss GMT +hhmm)")
        ) {
            try AuthzTokenXML.parse(Array(xml.replacing("2026/01/02 00:00:00 GMT +0000", with: "x").utf8))
        }
        #expect(throws: PassXMLError("expected root element <authzToken>, found <authnToken>")) {
            try AuthzTokenXML.parse(Array("<authnToken/>".utf8))
        }
    }
}

@Suite struct ErrorXMLTests {
    @Test func parsesTheFixtureAndRoundTrips() throws {
        let expected = ErrorBody(
            status: 403, message: "User not authorized",
            details: "Your subscription does not include this channel.")
        let bytes = try Fixtures.bytes("good/error.xml")
        #expect(try ErrorXML.parse(bytes) == expected)
        #expect(ErrorXML.build(expected) == compact(bytes))
        let empty = ErrorBody(status: 401, message: "User not authenticated", details: "")
        #expect(
            ErrorXML.build(empty)
                == "<error><status>401</status><message>User not authenticated</message><details/></error>")
        #expect(try ErrorXML.parse(Array(ErrorXML.build(empty).utf8)) == empty)
        let odd = ErrorBody(status: 400, message: "a < b & \"c\"", details: "x'y")
        #expect(try ErrorXML.parse(Array(ErrorXML.build(odd).utf8)) == odd)
    }

    /// The bytes an answer carries are the text's: over messages with markup, non-ASCII, control
    /// characters and combining marks, and the empty message.
    @Test func buildBytesAreTheTextsBytes() {
        let texts = [
            "", "a < b & \"c\"", "x'y", "caf\u{E9} \u{212A}", "\u{0}\u{1}\r\n", "e\u{301}", "]]>", "\u{1F600}",
        ]
        for status in [-1, 0, 200, 403, 500] {
            for message in texts {
                for details in texts {
                    let body = ErrorBody(status: status, message: message, details: details)
                    #expect(ErrorXML.buildBytes(body) == Array(ErrorXML.build(body).utf8))
                }
            }
        }
    }

    @Test func badErrorsAreRejected() {
        #expect(throws: PassXMLError("invalid status 'bad' in <error> (expected an integer)")) {
            try ErrorXML.parse(Array("<error><status>bad</status><message/><details/></error>".utf8))
        }
        #expect(throws: PassXMLError("missing element <details> in <error>")) {
            try ErrorXML.parse(Array("<error><status>1</status><message/></error>".utf8))
        }
        #expect(throws: PassXMLError("expected root element <error>, found <oops>")) {
            try ErrorXML.parse(Array("<oops/>".utf8))
        }
    }
}

@Suite struct AuthorizeDeviceXMLTests {
    @Test func parsesTheFixtureAndBuildsItBack() throws {
        let bytes = try Fixtures.bytes("good/authorize-device.xml")
        #expect(try AuthorizeDeviceXML.parse(bytes) == .token(fixtureAuthz))
        #expect(AuthorizeDeviceXML.build(.token(fixtureAuthz), issuedAt: .simulationStart) == compact(bytes))
    }

    @Test func roundTripsBothCases() throws {
        let error = ErrorBody(status: 403, message: "User not authorized", details: "no")
        for c in [AuthorizeDeviceXML.Content.token(fixtureAuthz), .error(error)] {
            #expect(try AuthorizeDeviceXML.parse(Array(AuthorizeDeviceXML.build(c).utf8)) == c)
        }
        #expect(AuthorizeDeviceXML.build(.error(error)) == ErrorXML.build(error))
        #expect(AuthorizeDeviceXML.build(.token(fixtureAuthz)).hasPrefix("<result><authzToken>&lt;signatureInfo&gt;"))
    }

    /// Device clients read `result.authzToken`; the `<authorization>` root passim wrote before is still read.
    @Test func theLegacyRootIsStillRead() throws {
        let legacy = AuthorizeDeviceXML.build(.token(fixtureAuthz)).replacing("result>", with: "authorization>")
        #expect(legacy.hasPrefix("<authorization>"))
        #expect(try AuthorizeDeviceXML.parse(Array(legacy.utf8)) == .token(fixtureAuthz))
        let session = SessionDeviceXML.build(.token(AuthnTokenXMLTests.token)).replacing(
            "result>", with: "sessionDevice>")
        #expect(session.hasPrefix("<sessionDevice>"))
        #expect(try SessionDeviceXML.parse(Array(session.utf8)) == .token(AuthnTokenXMLTests.token))
        #expect(try SessionDeviceXML.parse(Array("<sessionDevice/>".utf8)) == SessionDeviceXML.Content.none)
    }

    @Test func badBodiesAreRejected() {
        #expect(throws: PassXMLError("empty element <authzToken> in <result>")) {
            try AuthorizeDeviceXML.parse(Array("<result><authzToken/></result>".utf8))
        }
        #expect(throws: PassXMLError("missing element <authzToken> in <authorization>")) {
            try AuthorizeDeviceXML.parse(Array("<authorization/>".utf8))
        }
        #expect(throws: PassXMLError("expected root element <result> or <error>, found <sessionDevice>")) {
            try AuthorizeDeviceXML.parse(Array("<sessionDevice/>".utf8))
        }
        #expect(throws: PassXMLError("invalid token in <result>: expected root element <authzToken>, found <x>")) {
            try AuthorizeDeviceXML.parse(Array("<result><authzToken>&lt;x/&gt;</authzToken></result>".utf8))
        }
        let inner = SafeXML.escape(
            #"<!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><authzToken>&x;</authzToken>"#)
        #expect(throws: PassXMLError("invalid token in <result>: DOCTYPE is not allowed")) {
            try AuthorizeDeviceXML.parse(Array("<result><authzToken>\(inner)</authzToken></result>".utf8))
        }
    }
}

@Suite struct ShortMediaTokenXMLTests {
    static let token = ShortMediaToken(
        sessionGUID: "5f1e2d3c-0000-4000-8000-000000000001", requestorID: "NBCOlympics",
        resourceID: "NBCOlympics-Live", ttl: .minutes(5), issueTime: .simulationStart, mvpdID: "Comcast_SSO")

    @Test func parsesTheFixtureAndBuildsItBack() throws {
        let bytes = try Fixtures.bytes("good/short-media-token.xml")
        #expect(try ShortMediaTokenXML.parse(bytes) == Self.token)
        #expect(ShortMediaTokenXML.build(Self.token) == compact(bytes))
    }

    @Test func serializesAsBase64() throws {
        let text = ShortMediaTokenXML.serialize(Self.token)
        #expect(text.allSatisfy { $0.isLetter || $0.isNumber || "+/=".contains($0) })
        #expect(try SAML.decodeFromPost(text) == Array(ShortMediaTokenXML.build(Self.token).utf8))
        #expect(try ShortMediaTokenXML.deserialize(text) == Self.token)
        var odd = Self.token
        odd.resourceID = "<rss>é</rss>"
        #expect(try ShortMediaTokenXML.deserialize(ShortMediaTokenXML.serialize(odd)) == odd)
    }

    @Test func badTokensAreRejected() {
        #expect(throws: PassXMLError("invalid base64: unexpected character at offset 0")) {
            try ShortMediaTokenXML.deserialize("!!!!")
        }
        let xml = ShortMediaTokenXML.build(Self.token)
        #expect(throws: PassXMLError("invalid TTL '-1' in <ttl> (expected milliseconds)")) {
            try ShortMediaTokenXML.parse(Array(xml.replacing("300000", with: "-1").utf8))
        }
        #expect(throws: PassXMLError("missing element <mvpdId> in <shortAuthorizationToken>")) {
            try ShortMediaTokenXML.parse(Array(xml.replacing("<mvpdId>Comcast_SSO</mvpdId>", with: "").utf8))
        }
        #expect(throws: PassXMLError("expected root element <shortAuthorizationToken>, found <authzToken>")) {
            try ShortMediaTokenXML.parse(Fixtures.bytes("good/authz-token.xml"))
        }
    }
}

@Suite struct PreauthorizeXMLTests {
    static let decisions = [
        PreauthorizeXML.Decision(resourceID: "CNN", authorized: true),
        PreauthorizeXML.Decision(
            resourceID: "HBO", authorized: false,
            error: ErrorBody(
                status: 403, message: "authorization_denied_by_mvpd", details: "Upgrade your package.")),
    ]

    @Test func parsesTheFixtureAndBuildsItBack() throws {
        let bytes = try Fixtures.bytes("good/preauthorize.xml")
        #expect(try PreauthorizeXML.parse(bytes) == Self.decisions)
        #expect(PreauthorizeXML.build(Self.decisions) == compact(bytes))
    }

    @Test func roundTripsInOrder() throws {
        let many = (0..<5).map { PreauthorizeXML.Decision(resourceID: "r\(4 - $0)", authorized: $0 % 2 == 0) }
        #expect(try PreauthorizeXML.parse(Array(PreauthorizeXML.build(many).utf8)) == many)
        #expect(PreauthorizeXML.build([]) == "<resources/>")
        #expect(try PreauthorizeXML.parse(Array("<resources/>".utf8)) == [])
    }

    @Test func badBodiesAreRejected() {
        #expect(throws: PassXMLError("invalid boolean 'maybe' in <authorized>")) {
            try PreauthorizeXML.parse(
                Array("<resources><resource><id>a</id><authorized>maybe</authorized></resource></resources>".utf8))
        }
        #expect(throws: PassXMLError("unexpected element <item> in <resources>")) {
            try PreauthorizeXML.parse(Array("<resources><item/></resources>".utf8))
        }
        #expect(throws: PassXMLError("missing element <authorized> in <resource>")) {
            try PreauthorizeXML.parse(Array("<resources><resource><id>a</id></resource></resources>".utf8))
        }
        #expect(throws: PassXMLError("missing element <status> in <error>")) {
            try PreauthorizeXML.parse(
                Array(
                    "<resources><resource><id>a</id><authorized>false</authorized><error/></resource></resources>".utf8)
            )
        }
    }
}

@Suite struct MetadataXMLTests {
    @Test func parsesTheFixtureAndRoundTrips() throws {
        let bytes = try Fixtures.bytes("good/metadata.xml")
        #expect(try MetadataXML.parse(bytes) == "device-abc")
        #expect(MetadataXML.build(deviceID: "device-abc") == compact(bytes))
        #expect(try MetadataXML.parse(Array(MetadataXML.build(deviceID: "a&b").utf8)) == "a&b")
        #expect(throws: PassXMLError("empty element <deviceID> in <metadata>")) {
            try MetadataXML.parse(Array("<metadata><deviceID/></metadata>".utf8))
        }
        #expect(throws: PassXMLError("expected root element <metadata>, found <error>")) {
            try MetadataXML.parse(Array(ErrorXML.build(ErrorBody(status: 403, message: "m")).utf8))
        }
    }
}

@Suite struct UserMetaXMLTests {
    static let meta = Value.dict([
        Value.Entry("updated", .int(1_767_225_600_000)),
        Value.Entry("encrypted", .list([.string("householdID")])),
        Value.Entry(
            "data",
            .dict([
                Value.Entry("zip", .list([.string("12345"), .string("67890")])),
                Value.Entry("householdID", .string("enc:ImgtNDIi")),
                Value.Entry("userID", .string("u-0042")),
            ])),
    ])

    @Test func parsesTheFixtureAndBuildsItBack() throws {
        let bytes = try Fixtures.bytes("good/session-device-usermeta.xml")
        #expect(try SessionDeviceXML.parse(bytes) == .token(AuthnTokenXMLTests.token))
        #expect(try SessionDeviceXML.parseUserMeta(bytes) == Self.meta)
        #expect(
            SessionDeviceXML.build(.token(AuthnTokenXMLTests.token), userMeta: Self.meta)
                == String(decoding: bytes, as: UTF8.self).replacing("\n", with: ""))
    }

    @Test func userMetaIsOptionalAndOnlyBesideAToken() throws {
        let plain = SessionDeviceXML.build(.token(AuthnTokenXMLTests.token))
        #expect(SessionDeviceXML.build(.token(AuthnTokenXMLTests.token), userMeta: nil) == plain)
        #expect(try SessionDeviceXML.parseUserMeta(Array(plain.utf8)) == nil)
        #expect(SessionDeviceXML.build(.none, userMeta: Self.meta) == "<result/>")
        #expect(SessionDeviceXML.build(.pendingLogout, userMeta: Self.meta) == SessionDeviceXML.build(.pendingLogout))
    }

    @Test func badUserMetaIsRejected() {
        #expect(throws: PassXMLError("empty element <userMeta> in <result>")) {
            try SessionDeviceXML.parseUserMeta(Array("<result><userMeta/></result>".utf8))
        }
        #expect(throws: PassXMLError("invalid JSON in <userMeta>: number at offset 7: only integers are supported")) {
            try SessionDeviceXML.parseUserMeta(Array("<result><userMeta>{\"zip\":1.5}</userMeta></result>".utf8))
        }
        #expect(throws: PassXMLError("expected root element <result> (or <sessionDevice>), found <userMeta>")) {
            try SessionDeviceXML.parseUserMeta(Array("<userMeta>{}</userMeta>".utf8))
        }
    }

    @Test func cipherRoundTrips() throws {
        #expect(UserMetaCipher.encrypt(.string("h-42")) == .string("enc:ImgtNDIi"))
        for v: Value in [.string("h-42"), .dict([Value.Entry("tv", .string("TV-14"))]), .list([]), .int(-1)] {
            #expect(try UserMetaCipher.decrypt(UserMetaCipher.encrypt(v)) == v)
        }
        #expect(try UserMetaCipher.decrypt(.string("plain")) == .string("plain"))
        #expect(try UserMetaCipher.decrypt(.int(3)) == .int(3))
        #expect(throws: PassXMLError("invalid base64: unexpected character at offset 0")) {
            try UserMetaCipher.decrypt(.string("enc:*"))
        }
        #expect(
            throws: PassXMLError(
                "invalid JSON in encrypted metadata value: invalid literal, expected 'null' at offset 0")
        ) {
            try UserMetaCipher.decrypt(.string("enc:" + SAML.encodeForPost("nope")))
        }
    }
}

@Suite struct TempPassAuthnTokenTests {
    /// A TempPass token has no SAML session: empty NameID and SessionIndex must survive the trip
    /// (present but empty elements), while missing ones are still an error.
    @Test func emptySAMLFieldsRoundTrip() throws {
        let token = AuthnToken(
            guid: "g-1", requestorID: "REQ1", domainName: "adobe.com",
            expires: .simulationStart + .minutes(10), mvpdID: "TempPass", deviceID: "dev-1",
            nameID: "", sessionIndex: "")
        let xml = AuthnTokenXML.build(token)
        #expect(xml.contains("<simpleSamlNameID/><simpleSamlSessionIndex/>"))
        #expect(try AuthnTokenXML.parse(Array(xml.utf8)) == token)
        #expect(try SessionDeviceXML.parse(Array(SessionDeviceXML.build(.token(token)).utf8)) == .token(token))
        #expect(throws: PassXMLError("missing element <simpleSamlNameID> in <simpleAuthenticationToken>")) {
            try AuthnTokenXML.parse(Array(xml.replacing("<simpleSamlNameID/>", with: "").utf8))
        }
    }
}
