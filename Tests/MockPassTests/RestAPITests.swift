import PassModel
import PassXML
import Testing
@testable import MockPass

/// The clientless REST API v1 (facts §1) and its signed calls (real-clients.md, Kodi's add-on).
@Suite struct RestAPITests {
    static let q = "?requestor=REQ1&deviceId=tv-1"

    func json(_ r: HTTPResponse) throws -> Value { try Value(jsonText: r.bodyText) }

    @Test func anAuthenticatedDeviceGetsAuthnAuthzAndMediaTokensInXMLOrJSON() throws {
        var b = Browser(MockPass(world: rootServiceWorld(), seed: 81))
        #expect(b.engineGet("/api/v1/tokens/authn" + Self.q).status == 404)
        #expect(b.engineGet("/api/v1/checkauthn" + Self.q).status == 403)
        #expect(
            try errorBody(b.engineGet("/api/v1/authorize" + Self.q + "&resource=CNN"))
                == ErrorBody(status: 412, message: "User not authenticated"))
        try b.codeLogin()

        let authn = b.engineGet("/api/v1/tokens/authn" + Self.q + "&format=json")
        #expect(authn.status == 200)
        #expect(authn.headers["Content-Type"] == "application/json")
        let a = try json(authn)
        #expect(a["mvpd"] == .string("Comcast"))
        #expect(a["requestor"] == .string("REQ1"))
        #expect(a["expires"] == .string(String((b.now + .hours(24)).wholeSeconds.milliseconds)))
        #expect(b.engineGet("/api/v1/checkauthn" + Self.q).status == 200)
        // XML by default, by suffix, or by Accept.
        let xml = b.engineGet("/api/v1/tokens/authn" + Self.q)
        #expect(xml.headers["Content-Type"] == "application/xml")
        #expect(xml.bodyText.hasPrefix("<authentication><expires>"))
        #expect(b.engineGet("/api/v1/tokens/authn.json" + Self.q).headers["Content-Type"] == "application/json")
        let accept = b.send(
            HTTPRequest(
                method: "GET", url: spURL + "/api/v1/tokens/authn" + Self.q,
                headers: [("Accept", "application/json")]), withCookies: false)
        #expect(accept.headers["Content-Type"] == "application/json")

        #expect(
            try errorBody(b.engineGet("/api/v1/tokens/authz" + Self.q + "&resource=CNN"))
                == ErrorBody(status: 404, message: "Not found"))
        let authz = b.engineGet("/api/v1/authorize" + Self.q + "&resource=CNN")
        #expect(authz.status == 200)
        #expect(authz.bodyText.hasPrefix("<authorization><expires>"))
        #expect(
            authz.bodyText.hasSuffix(
                "<mvpd>Comcast</mvpd><requestor>REQ1</requestor><resource>CNN</resource></authorization>"))
        #expect(b.engineGet("/api/v1/tokens/authz" + Self.q + "&resource=CNN").bodyText == authz.bodyText)

        let media = try json(b.engineGet("/api/v1/mediatoken" + Self.q + "&resource=CNN&format=json"))
        let token = try ShortMediaTokenXML.deserialize(try #require(media["serializedToken"]?.stringValue))
        #expect(token.resourceID == "CNN")
        #expect(token.mvpdID == "Comcast")
        #expect(media["mvpdId"] == .string("Comcast"))
        #expect(
            try json(b.engineGet("/api/v1/tokens/media" + Self.q + "&resource=CNN&format=json"))["resource"]
                == .string("CNN"))

        // The authZ token ends with the requestor's authz TTL (1h): 410, then a new authorize.
        b.now = b.now + .hours(1)
        #expect(try errorBody(b.engineGet("/api/v1/tokens/authz" + Self.q + "&resource=CNN")).status == 410)
        #expect(b.engineGet("/api/v1/authorize" + Self.q + "&resource=CNN").status == 200)
        // The authN token ends: 410 for tokens/authn, 412 for the rest.
        b.now = b.now + .hours(23)
        #expect(try errorBody(b.engineGet("/api/v1/tokens/authn" + Self.q)).status == 410)
        #expect(try errorBody(b.engineGet("/api/v1/tokens/authz" + Self.q + "&resource=CNN")).status == 412)
    }

    @Test func aDenialIs403WithTheMVPDsMessageAsDetails() throws {
        var b = Browser(MockPass(world: rootServiceWorld(), seed: 82))
        try b.codeLogin()
        let denied = b.engineGet("/api/v1/authorize" + Self.q + "&resource=HBO&format=json")
        #expect(denied.status == 403)
        #expect(
            try json(denied)
                == .dict([
                    Value.Entry("status", .int(403)), Value.Entry("message", .string("User not authorized")),
                    Value.Entry("details", .string("Upgrade your package.")),
                ]))
        #expect(b.engineGet("/api/v1/mediatoken" + Self.q + "&resource=HBO").status == 403)
        #expect(b.mock.restV1.authorizations.count == 0)

        let pre = try json(b.engineGet("/api/v1/preauthorize" + Self.q + "&resource=CNN,HBO&format=json"))
        let list = try #require(pre["resources"]?.listValue)
        #expect(list.count == 2)
        #expect(list[0]["id"] == .string("CNN") && list[0]["authorized"] == .bool(true))
        #expect(list[1]["authorized"] == .bool(false))
        #expect(list[1]["error"]?["details"] == .string("Upgrade your package."))
        let preXML = b.engineGet("/api/v1/preauthorize" + Self.q + "&resource=CNN")
        #expect(
            preXML.bodyText
                == "<preauthorization><resources><resource><id>CNN</id><authorized>true</authorized></resource></resources></preauthorization>"
        )
    }

    @Test func userMetadataLogoutAndFreePreview() throws {
        var b = Browser(MockPass(world: rootServiceWorld(), seed: 83))
        #expect(b.engineGet("/api/v1/tokens/usermetadata" + Self.q).status == 412)
        try b.codeLogin()
        let meta = try json(b.engineGet("/api/v1/tokens/usermetadata" + Self.q))
        #expect(meta["data"]?["zip"] == .list([.string("12345")]))
        #expect(meta["encrypted"] == .list([.string("householdID")]))
        #expect(b.engineGet("/api/v1/authorize" + Self.q + "&resource=CNN").status == 200)

        let out = b.engineDelete("/api/v1/logout" + Self.q + "&format=json")
        #expect(out.status == 204)
        #expect(b.mock.restV1.authorizations.count == 0)
        #expect(b.engineGet("/api/v1/checkauthn" + Self.q).status == 403)
        #expect(b.engineGet("/api/v1/logout" + Self.q).status == 405)
        let missing = b.engineDelete("/api/v1/logout?requestor=REQ1&format=json")
        #expect(missing.status == 400)
        #expect(try json(missing)["message"] == .string("missing parameter deviceId"))

        let free = b.engine(
            "/api/v1/authenticate/freepreview",
            [
                ("requestor_id", "REQ1"), ("deviceId", "tv-9"),
                ("mso_id", "TempPass"), ("domain_name", "adobe.com"),
            ])
        #expect(free.status == 204)
        let temp = try json(b.engineGet("/api/v1/tokens/authn?requestor=REQ1&deviceId=tv-9&format=json"))
        #expect(temp["mvpd"] == .string("TempPass"))
        #expect(b.engineGet("/api/v1/authorize?requestor=REQ1&deviceId=tv-9&resource=anything").status == 200)
        #expect(b.engineGet("/api/v1/tokens/usermetadata?requestor=REQ1&deviceId=tv-9").status == 404)
        #expect(
            b.engine("/api/v1/authenticate/freepreview", [("requestor_id", "REQ1"), ("mso_id", "TempPass")]).status
                == 400)
    }

    @Test func parameterRefusalsNameTheParameter() throws {
        var b = Browser(MockPass(world: rootServiceWorld(), seed: 84))
        for (path, message) in [
            ("/api/v1/authorize?deviceId=tv-1&resource=CNN", "missing parameter requestor"),
            ("/api/v1/authorize?requestor=REQ1&resource=CNN", "missing parameter deviceId"),
            ("/api/v1/tokens/authn?requestor=NOPE&deviceId=tv-1", "unknown requestor NOPE"),
        ] {
            let r = b.engineGet(path + "&format=json")
            #expect(r.status == 400)
            #expect(try json(r)["message"] == .string(message))
        }
        try b.codeLogin()
        #expect(try errorBody(b.engineGet("/api/v1/authorize" + Self.q)).message == "missing parameter resource")
        #expect(b.engineGet("/api/v1/preauthorize" + Self.q + "&resource=CNN,,HBO").status == 400)
        #expect(b.engine("/api/v1/authorize", [("requestor", "REQ1")]).status == 405)
    }

    @Test func theRegcodeAnswersKodisAndYtDlpsFields() throws {
        var b = Browser(MockPass(world: rootServiceWorld(), seed: 85))
        var request = HTTPRequest.form(
            spURL + "/reggie/v1/REQ1/regcode",
            [
                ("registrationURL", "http://sp.auth.adobe.com/adobe-services"), ("ttl", "3600"), ("deviceId", "kodi-1"),
                ("format", "json"), ("appId", "app"), ("deviceType", "Kodi"),
            ])
        request.headers.add("User-Agent", "Mozilla/5.0")
        let r = b.send(request, withCookies: false)
        #expect(r.status == 201)
        let json = try json(r)
        #expect(json["mvpd"] == .null)
        #expect(json["expires"] == .int(Int((b.now + .hours(1)).milliseconds)))
        #expect(json["info"]?["userAgent"] == .string("Mozilla/5.0"))
        #expect(json["info"]?["deviceType"] == .string("Kodi"))
        #expect(json["info"]?["deviceInfo"] == .null)
        let xml = b.engine("/reggie/v1/REQ1/regcode", [("deviceId", "kodi-1"), ("format", "xml")])
        #expect(xml.headers["Content-Type"] == "application/xml")
        #expect(xml.bodyText.hasPrefix("<regcode><id>"))
        #expect(xml.bodyText.contains("<mvpd/>"))
        for ttl in ["0", "36001", "ten"] {
            let bad = b.engine("/reggie/v1/REQ1/regcode", [("deviceId", "kodi-1"), ("ttl", ttl)])
            #expect(bad.status == 400)
            #expect(
                try errorBody(bad).message
                    == "ttl must be a number of seconds from 1 to 36000 (limit: mock-regcode-max-ttl)")
        }
    }

    // MARK: - Signatures

    @Test func kodisSignedCallsWorkEndToEnd() throws {
        var b = Browser(MockPass(world: rootServiceWorld(), seed: 86))
        let path = "/reggie/v1/SIGNED/regcode"
        let made = b.signed("POST", path, nonce: "n-1", body: [("deviceId", "kodi-1"), ("format", "json")])
        #expect(made.status == 201)
        let code = try #require(try json(made)["code"]?.stringValue)
        var phone = Browser(b.mock)
        phone.now = b.now
        let start = phone.get(RegistrationCodeTests.secondScreenURL(code, requestor: "SIGNED"))
        let login = phone.submit(
            try onlyForm(phone.submit(try onlyForm(start))), ["username": "alice", "password": "secret"])
        #expect(phone.submit(try onlyForm(login)).status == 302)
        b.mock = phone.mock
        let q = "?deviceId=kodi-1&requestor=SIGNED&resource=CNN&format=json"
        #expect(b.signed("GET", "/api/v1/authorize", query: q, nonce: "n-2").status == 200)
        let media = b.signed("GET", "/api/v1/mediatoken", query: q, nonce: "n-3")
        #expect(try json(media)["serializedToken"]?.stringValue?.isEmpty == false)
        #expect(
            b.signed("DELETE", "/api/v1/logout", query: "?deviceId=kodi-1&requestor=SIGNED&format=json", nonce: "n-4")
                .status == 204)
    }

    @Test func aMissingBadOrReplayedSignatureIs401AndChangesNothing() throws {
        var b = Browser(MockPass(world: rootServiceWorld(), seed: 87))
        let path = "/reggie/v1/SIGNED/regcode"
        let fields = [("deviceId", "kodi-1"), ("format", "json")]
        let unsigned = b.engine(path, fields)
        #expect(unsigned.status == 401)
        #expect(try json(unsigned)["message"] == .string("missing signed Authorization header"))
        let cases: [(HTTPResponse, String)] = [
            (
                b.signed(
                    "POST", path, nonce: "a", key: World.KeyPair(publicKey: "pub-kodi", secret: "wrong"), body: fields),
                "signature does not verify"
            ),
            (
                b.signed(
                    "POST", path, nonce: "b", key: World.KeyPair(publicKey: "other", secret: "s3cret-kodi"),
                    body: fields),
                "unknown public_key"
            ),
            (
                b.signed("POST", path, nonce: "e", time: b.now.milliseconds - 300_001, body: fields),
                "request_time is more than 300s from the server's clock (limit: mock-signature-window)"
            ),
            (
                b.signed("POST", path, nonce: "f", time: b.now.milliseconds + 300_001, body: fields),
                "request_time is more than 300s from the server's clock (limit: mock-signature-window)"
            ),
        ]
        for (r, message) in cases {
            #expect(r.status == 401)
            #expect(try json(r)["message"] == .string(message))
        }
        #expect(b.mock.sdk.registrationCodes.count == 0)
        #expect(b.mock.clients.nonces.count == 0)
        // A header signed for another method or requestor is refused.
        var asGET = HTTPRequest.form(spURL + path, fields)
        asGET.headers.add(
            "Authorization",
            RequestSignature.header(
                method: "GET", requestorID: "SIGNED", nonce: "c",
                requestTime: b.now.milliseconds, requestURI: path, key: signedKey))
        #expect(try json(b.send(asGET, withCookies: false))["message"] == .string("signed method GET is not POST"))
        var elsewhere = HTTPRequest.form(spURL + path, fields)
        elsewhere.headers.add(
            "Authorization",
            RequestSignature.header(
                method: "POST", requestorID: "SIGNED", nonce: "d",
                requestTime: b.now.milliseconds, requestURI: "/api/v1/authorize", key: signedKey))
        #expect(
            try json(b.send(elsewhere, withCookies: false))["message"]
                == .string("signed request_uri is not /reggie/v1/SIGNED/regcode"))
        var other = HTTPRequest.form(spURL + path, fields)
        other.headers.add(
            "Authorization",
            RequestSignature.header(
                method: "POST", requestorID: "REQ1", nonce: "g",
                requestTime: b.now.milliseconds, requestURI: path, key: signedKey))
        #expect(try json(b.send(other, withCookies: false))["message"] == .string("signed requestor_id is not SIGNED"))

        #expect(b.signed("POST", path, nonce: "once", body: fields).status == 201)
        let replay = b.signed("POST", path, nonce: "once", body: fields)
        #expect(replay.status == 401)
        #expect(try json(replay)["message"] == .string("nonce once was already used"))
        #expect(b.mock.sdk.registrationCodes.count == 1)
        // Requestors without a key pair are not asked for a signature.
        #expect(b.engine("/reggie/v1/REQ1/regcode", fields).status == 201)
    }

    @Test func hostileRequestTimesAreRefusedWithoutOverflow() throws {
        var mock = MockPass(world: rootServiceWorld(), seed: 88)
        for name in ["signed-request-time-int64-max.txt", "signed-request-time-int64-min.txt"] {
            let r = mock.handle(try PreparedRequestTests.hostileRequest(name), at: .simulationStart)
            #expect(r.status == 401)
            #expect(r.bodyText.contains("limit: mock-signature-window"))
        }
    }

    @Test func aSignedCallMayNameItsRequestorOnlyInItsSignature() throws {
        var b = Browser(MockPass(world: rootServiceWorld(), seed: 90))
        // Kodi's checkauthn sends deviceId and format only: the requestor is the signature's.
        #expect(b.signed("GET", "/api/v1/checkauthn", query: "?deviceId=d&format=json", nonce: "k1").status == 403)
        // Unsigned, there is no requestor to name: a 400 that says so.
        let bare = b.engineGet("/api/v1/checkauthn?deviceId=d&format=json")
        #expect(bare.status == 400)
        #expect(bare.bodyText.contains("missing parameter requestor"))
    }

    @Test func noncesAreCappedOldestFirst() throws {
        var limits = MockLimits.simulated
        limits.nonces = 2
        var b = Browser(MockPass(world: rootServiceWorld(), seed: 89, limits: limits))
        for nonce in ["1", "2", "3"] {
            #expect(
                b.signed("GET", "/api/v1/checkauthn", query: "?requestor=SIGNED&deviceId=d", nonce: nonce).status == 403
            )
        }
        #expect(b.mock.clients.nonces.count == 2)
    }
}
