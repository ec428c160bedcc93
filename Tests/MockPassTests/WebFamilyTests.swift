import PassModel
import PassXML
import Testing
@testable import MockPass

/// The web family, driven as yt-dlp 2025.4.30 (`yt_dlp/extractor/adobepass.py`) drives it: regexes
/// `<tag>(.+?)</tag>` on one line, no `device_id`, one cookie jar for every host.
@Suite struct WebFamilyTests {
    static let mrss =
        #"<rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel><title>CNN</title>"#
        + #"<item><title>Episode</title><guid>ep-1</guid><media:rating scheme="urn:v-chip">TV-14</media:rating></item></channel></rss>"#

    /// What yt-dlp's `xml_text` finds: the first `<tag>…</tag>` on one line, non-empty.
    static func xmlText(_ body: String, _ tag: String) -> String? {
        for line in body.split(separator: "\n") {
            guard let open = line.firstRange(of: "<\(tag)>"),
                let close = line[open.upperBound...].firstRange(of: "</\(tag)>")
            else { continue }
            let text = String(line[open.upperBound..<close.lowerBound])
            return text.isEmpty ? nil : text
        }
        return nil
    }

    static func unescapeHTML(_ s: String) -> String {
        s.replacing("&lt;", with: "<").replacing("&gt;", with: ">")
            .replacing("&quot;", with: "\"").replacing("&apos;", with: "'")
            .replacing("&amp;", with: "&")
    }

    /// authenticate/saml → IdP → assertion consumer → session → authorize (MRSS, userMeta=1) →
    /// shortAuthorize, each answer read the way yt-dlp reads it.
    @Test func ytDlpFlowCompletes() throws {
        var b = Browser(MockPass(world: deviceWorld(), seed: 61))
        let start = b.get(
            spURL + "/authenticate/saml?"
                + FormCoding.encode([
                    ("noflash", "true"), ("mso_id", "Comcast"), ("requestor_id", "REQ1"), ("no_iframe", "false"),
                    ("domain_name", "adobe.com"), ("redirect_url", "https://video.test/watch/1"),
                ]))
        let sso = b.submit(try onlyForm(start))
        let idp = b.submit(try onlyForm(sso), ["username": "alice", "password": "secret"])
        let acs = b.submit(try onlyForm(idp))
        #expect(acs.status == 302)
        #expect(acs.headers["Location"] == "https://video.test/watch/1")

        let session = b.post(spURL + "/session", [("_method", "GET"), ("requestor_id", "REQ1")])
        #expect(session.status == 200)
        #expect(!session.bodyText.contains("<pendingLogout"))
        let authn = WebFamilyTests.unescapeHTML(try #require(WebFamilyTests.xmlText(session.bodyText, "authnToken")))
        for tag in [
            "simpleTokenExpires", "simpleTokenMsoID", "simpleSamlNameID", "simpleSamlSessionIndex",
            "simpleTokenAuthenticationGuid",
        ] {
            #expect(WebFamilyTests.xmlText(authn, tag) != nil, "\(tag) missing from \(authn)")
        }
        #expect(WebFamilyTests.xmlText(authn, "simpleTokenExpires")?.hasSuffix(" GMT +0000") == true)
        #expect(WebFamilyTests.xmlText(authn, "simpleTokenMsoID") == "Comcast")

        let authorize = b.post(
            spURL + "/authorize",
            [
                ("resource_id", WebFamilyTests.mrss), ("requestor_id", "REQ1"), ("authentication_token", authn),
                ("mso_id", "Comcast"), ("userMeta", "1"),
            ])
        #expect(authorize.status == 200)
        #expect(!authorize.bodyText.contains("<error"))
        let authz = WebFamilyTests.unescapeHTML(try #require(WebFamilyTests.xmlText(authorize.bodyText, "authzToken")))
        #expect(WebFamilyTests.xmlText(authz, "simpleTokenTTL") != nil)

        let short = b.post(
            spURL + "/shortAuthorize",
            [
                ("authz_token", authz), ("requestor_id", "REQ1"),
                ("session_guid", try #require(WebFamilyTests.xmlText(authn, "simpleTokenAuthenticationGuid"))),
                ("hashed_guid", "false"),
            ])
        #expect(short.status == 200)
        let media = try ShortMediaTokenXML.deserialize(short.bodyText)
        #expect(media.resourceID == WebFamilyTests.mrss)
        #expect(media.mvpdID == "Comcast")
    }

    /// One login, both families: `session` and `sessionDevice` hand out the same token.
    @Test func bothFamiliesSeeOneLogin() throws {
        var b = Browser(MockPass(world: deviceWorld(), seed: 62))
        #expect(try b.login().status == 302)
        let web = b.get(spURL + "/session?requestor_id=REQ1")
        #expect(web.status == 200)
        #expect(try SessionDeviceXML.parse(web.body) == b.sessionDevice())
    }

    @Test func sessionWithoutALoginIs401() throws {
        var b = Browser(MockPass(world: deviceWorld(), seed: 63))
        let r = b.post(spURL + "/session", [("_method", "GET"), ("requestor_id", "REQ1")])
        #expect(try errorBody(r) == ErrorBody(status: 401, message: "Data not found"))
        #expect(
            try errorBody(b.post(spURL + "/session", [("_method", "GET")])).message == "missing parameter requestor_id")
    }

    @Test func deniedAuthorizationAnswersErrorXMLAndHeaders() throws {
        var b = Browser(MockPass(world: deviceWorld(), seed: 64))
        let authn = try b.loginToken()
        let r = b.post(
            spURL + "/authorize",
            [
                ("resource_id", "HBO"), ("requestor_id", "REQ1"), ("authentication_token", AuthnTokenXML.build(authn)),
                ("mso_id", "Comcast"), ("userMeta", "1"),
            ])
        // 200, the refusal's status inside the body: yt-dlp reads <details> only from a 2xx answer.
        #expect(r.status == 200)
        #expect(r.headers["Content-Type"] == "application/xml")
        let body = try ErrorXML.parse(r.body)
        #expect(body.status == 403)
        #expect(body.details == "Upgrade your package.")
        #expect(r.headers["Authzf-Error-Code"] == "notAuthorized")
        #expect(r.headers["Authzf-Sub-Error-Code"] == "authorization_denied_by_mvpd")
        // A forged token changes nothing and is a 401.
        var forged = authn
        forged.guid = "forged"
        let refused = b.post(
            spURL + "/authorize",
            [
                ("resource_id", "CNN"), ("requestor_id", "REQ1"), ("authentication_token", AuthnTokenXML.build(forged)),
                ("mso_id", "Comcast"),
            ])
        #expect(try errorBody(refused).status == 401)
    }

    @Test func getMetadataTakesTheDeviceIDOfTheToken() throws {
        var b = Browser(MockPass(world: deviceWorld(), seed: 65))
        let authn = try b.loginToken()
        let r = b.post(
            spURL + "/getMetadata", [("requestor_id", "REQ1"), ("authentication_token", AuthnTokenXML.build(authn))])
        #expect(r.status == 200)
        #expect(r.headers["Content-Type"] == "text/plain")
        #expect(r.bodyText == authn.deviceID)
        // The JS AccessEnabler sends its individualised device id and takes the whole body as the value.
        let sent = b.post(spURL + "/getMetadata", [("requestor_id", "REQ1"), ("device_id", "js-device-1")])
        #expect(sent.bodyText == "js-device-1")
        // The device family keeps its XML answer.
        let device = b.post(spURL + "/getMetadataDevice", [("requestor_id", "REQ1"), ("device_id", "js-device-1")])
        #expect(try MetadataXML.parse(device.body) == "js-device-1")
        let missing = b.post(spURL + "/getMetadata", [("requestor_id", "REQ1")])
        #expect(try errorBody(missing).message == "missing parameter device_id")
    }

    /// The JS AccessEnabler 4.x reads a token as Adobe documents it: the text of `<authnToken>` split at
    /// `<signatureInfo>`, the third piece parsed as XML. Any other shape reads as a token with no fields.
    @Test func tokensCarryAdobesEnvelopeAsTheJSSDKReadsThem() throws {
        var b = Browser(MockPass(world: deviceWorld(), seed: 67))
        let authn = try b.loginToken()
        let session = b.post(spURL + "/session", [("_method", "GET"), ("requestor_id", "REQ1")])
        let text = WebFamilyTests.unescapeHTML(try #require(WebFamilyTests.xmlText(session.bodyText, "authnToken")))
        let pieces = text.split(separator: "<signatureInfo>", omittingEmptySubsequences: false)
        #expect(pieces.count == 3 && pieces[0].isEmpty)
        let inner = try SafeXML.parse(String(try #require(pieces.last)))
        #expect(inner.name == "simpleAuthenticationToken")
        #expect(inner.child("simpleTokenMsoID")?.trimmedText == "Comcast")
        #expect(try AuthnTokenXML.parse(Array(text.utf8)) == authn)

        let authorize = b.post(
            spURL + "/authorize",
            [
                ("resource_id", "CNN"), ("requestor_id", "REQ1"), ("authentication_token", text), ("mso_id", "Comcast"),
            ])
        let authz = WebFamilyTests.unescapeHTML(try #require(WebFamilyTests.xmlText(authorize.bodyText, "authzToken")))
        let authzPieces = authz.split(separator: "<signatureInfo>", omittingEmptySubsequences: false)
        #expect(authzPieces.count == 3)
        #expect(
            try SafeXML.parse(String(try #require(authzPieces.last))).child("simpleTokenResourceID")?.trimmedText
                == "CNN")
    }

    @Test func webEndpointsRefuseOtherMethods() {
        var b = Browser(MockPass(world: deviceWorld(), seed: 66))
        for path in ["/authorize", "/shortAuthorize", "/getMetadata"] {
            #expect(b.get(spURL + path).status == 405)
        }
        #expect(b.send(HTTPRequest(method: "DELETE", url: spURL + "/session")).headers["Allow"] == "POST, GET")
    }
}
