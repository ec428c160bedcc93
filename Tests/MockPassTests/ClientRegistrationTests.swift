import PassModel
import PassXML
import Testing
@testable import MockPass

/// Dynamic Client Registration, device individualisation and the Bearer gate (root services).
@Suite struct ClientRegistrationTests {
    /// Adobe's "Retrieve client credentials" and "Retrieve access token" pages: 201 each, with every
    /// field of their Success tables and of the types their samples show.
    @Test func registrationAndTokenAnswerTheDCRFields() throws {
        var b = Browser(MockPass(world: rootServiceWorld(), seed: 71))
        let reg = b.postJSON(
            "/o/client/register", #"{"software_statement": "statement-dcr", "redirect_uri": "adobepass://ios.app"}"#)
        #expect(reg.status == 201)
        #expect(reg.headers["Content-Type"] == "application/json")
        let client = try Value(jsonText: reg.bodyText)
        guard case .dict(let entries) = client else { Issue.record("not an object"); return }
        #expect(
            entries.map(\.key) == [
                "client_id", "client_secret", "client_id_issued_at", "redirect_uris", "grant_types", "scopes",
            ])
        #expect(client["client_id"]?.stringValue?.count == 32)
        #expect(client["client_secret"]?.stringValue?.count == 48)
        #expect(client["client_id_issued_at"] == .int(Int(b.now.milliseconds / 1000)))
        #expect(client["redirect_uris"] == .list([.string("adobepass://ios.app")]))
        #expect(client["grant_types"] == .list([.string("client_credentials")]))
        #expect(client["scopes"] == .list([.string("api:client:v2")]))
        let token = b.engine(
            "/o/client/token",
            [
                ("grant_type", "client_credentials"),
                ("client_id", try #require(client["client_id"]?.stringValue)),
                ("client_secret", try #require(client["client_secret"]?.stringValue)),
            ])
        #expect(token.status == 201)
        #expect(token.headers["Content-Type"] == "application/json")
        let json = try Value(jsonText: token.bodyText)
        guard case .dict(let fields) = json else { Issue.record("not an object"); return }
        #expect(fields.map(\.key) == ["id", "access_token", "created_at", "expires_in", "token_type"])
        let accessToken = try #require(json["access_token"]?.stringValue)
        #expect(accessToken.count == 64)
        #expect(json["id"] == .string(DCRWire.tokenID(accessToken)))
        #expect(json["id"]?.stringValue?.split(separator: "-").map(\.count) == [8, 4, 4, 4, 12])
        #expect(json["created_at"] == .int(Int(b.now.milliseconds)))
        #expect(json["expires_in"] == .int(3600))
        #expect(json["token_type"] == .string("bearer"))
        // Without a redirect_uri (yt-dlp, the JS SDK) the list is empty, never missing.
        let bare = try Value(
            jsonText: b.postJSON("/o/client/register", #"{"software_statement": "statement-dcr"}"#).bodyText)
        #expect(bare["redirect_uris"] == .list([]))
    }

    /// Client registration draws from a stream of its own: a client's token is the same whether or not
    /// another flow drew values first (as on REST API v2, where sessions draw codes the SDK's wire does
    /// not), and another seed gives another.
    @Test func aClientsTokenDoesNotMoveWhenAnotherFlowDrawsFirst() throws {
        var alone = Browser(MockPass(world: rootServiceWorld(), seed: 71))
        var after = Browser(MockPass(world: rootServiceWorld(), seed: 71))
        _ = try after.codeLogin()
        #expect(try alone.accessToken() == after.accessToken())
        #expect(try alone.accessToken() == after.accessToken(), "the second client's too")
        var other = Browser(MockPass(world: rootServiceWorld(), seed: 72))
        var fresh = Browser(MockPass(world: rootServiceWorld(), seed: 71))
        #expect(try other.accessToken() != fresh.accessToken())
    }

    @Test func aMalformedDeviceInfoIsAnInvalidRequestAndAMissingOneIsFine() throws {
        var b = Browser(MockPass(world: rootServiceWorld(), seed: 72))
        for bad in ["", "not base64!", "bm90IEpTT04=", "WzFd"] {
            let r = b.send(
                HTTPRequest(
                    method: "POST", url: spURL + "/o/client/register",
                    headers: [("Content-Type", "application/json"), ("X-Device-Info", bad)],
                    body: Array(#"{"software_statement": "statement-dcr"}"#.utf8)), withCookies: false)
            #expect(r.status == 400, "\(bad)")
            #expect(r.bodyText == #"{"error":"invalid_request"}"#)
            #expect(r.headers.first(lowercased: "x-passim-explanation")?.isEmpty == false)
        }
        #expect(b.mock.clients.registeredClients.count == 0)
        #expect(b.postJSON("/o/client/register", #"{"software_statement": "statement-dcr"}"#).status == 201)
    }

    @Test func registrationRefusals() throws {
        var b = Browser(MockPass(world: rootServiceWorld(), seed: 72))
        let unknown = b.postJSON("/o/client/register", #"{"software_statement": "forged"}"#)
        #expect(unknown.status == 400)
        #expect(unknown.headers["Content-Type"] == "application/json")
        #expect(unknown.bodyText == #"{"error":"invalid_software_statement"}"#)
        #expect(b.postJSON("/o/client/register", "{}").bodyText == #"{"error":"invalid_request"}"#)
        let notJSON = b.postJSON("/o/client/register", "software_statement=x")
        #expect(notJSON.status == 400)
        #expect(notJSON.bodyText == #"{"error":"invalid_request"}"#)
        #expect(b.get(spURL + "/o/client/register").status == 405)
        #expect(b.mock.clients.registeredClients.count == 0)

        let missing = b.engine("/o/client/token", [("client_id", "x"), ("client_secret", "y")])
        #expect(missing.status == 400)
        #expect(missing.bodyText == #"{"error":"invalid_request"}"#)
        #expect(b.engine("/o/client/token", [("grant_type", "password")]).status == 400)
        #expect(
            b.engine("/o/client/token", [("grant_type", "client_credentials"), ("client_secret", "y")]).status == 400)
        let reg = try Value(
            jsonText: b.postJSON("/o/client/register", #"{"software_statement": "statement-dcr"}"#).bodyText)
        let wrong = b.engine(
            "/o/client/token",
            [
                ("grant_type", "client_credentials"),
                ("client_id", try #require(reg["client_id"]?.stringValue)),
                ("client_secret", "guess"),
            ])
        // The page's Error table has one status, 400, for invalid_client too (not RFC 6749's 401).
        #expect(wrong.status == 400)
        #expect(wrong.bodyText == #"{"error":"invalid_client"}"#)
        #expect(b.mock.clients.accessTokens.count == 0)
    }

    /// Every malformed registration body gets the code the page's Error table gives it, 400 and JSON,
    /// never a 500; nothing is stored and nothing is drawn from the seeded stream: the registration
    /// that follows gets the very client a fresh mock gives first.
    @Test func eachMalformedRegistrationAnswersItsDocumentedErrorAndKeepsNothing() throws {
        var b = Browser(MockPass(world: rootServiceWorld(), seed: 79))
        let long = String(repeating: "a", count: MockLimits.valueBytes)
        let cases: [(body: String, error: String)] = [
            ("software_statement=statement-dcr", "invalid_request"),  // not JSON
            (#"{"software_statement": "statement-dcr""#, "invalid_request"),  // cut short
            (#"["statement-dcr"]"#, "invalid_request"),  // JSON, not an object
            (#""statement-dcr""#, "invalid_request"),
            ("42", "invalid_request"),
            ("null", "invalid_request"),
            ("", "invalid_request"),
            ("{}", "invalid_request"),  // missing
            (#"{"software_statement": null}"#, "invalid_request"),
            (#"{"software_statement": ""}"#, "invalid_request"),  // empty
            (#"{"software_statement": 7}"#, "invalid_request"),  // wrong type
            (#"{"software_statement": ["statement-dcr"]}"#, "invalid_request"),
            (#"{"software_statement": {"s": "statement-dcr"}}"#, "invalid_request"),
            (#"{"software_statement": true}"#, "invalid_request"),
            (#"{"software_statement": "statement-dcr", "software_statement": "statement-dcr"}"#, "invalid_request"),
            (#"{"redirect_uri": "adobepass://ios.app"}"#, "invalid_request"),
            (#"{"software_statement": "statement-dcr "}"#, "invalid_software_statement"),
            (#"{"software_statement": "\#(long)\#(long)"}"#, "invalid_software_statement"),  // oversized
            (#"{"software_statement": "statement-dcr", "redirect_uri": ""}"#, "invalid_redirect_uri"),
            (#"{"software_statement": "statement-dcr", "redirect_uri": 3}"#, "invalid_redirect_uri"),
            (#"{"software_statement": "statement-dcr", "redirect_uri": ["adobepass://a"]}"#, "invalid_redirect_uri"),
            (#"{"software_statement": "statement-dcr", "redirect_uri": "ios.app"}"#, "invalid_redirect_uri"),
            (#"{"software_statement": "statement-dcr", "redirect_uri": "adobepass:"}"#, "invalid_redirect_uri"),
            (#"{"software_statement": "statement-dcr", "redirect_uri": "1app://x"}"#, "invalid_redirect_uri"),
            (#"{"software_statement": "statement-dcr", "redirect_uri": "app://a b"}"#, "invalid_redirect_uri"),
            (#"{"software_statement": "statement-dcr", "redirect_uri": "app://\u00e9"}"#, "invalid_redirect_uri"),
            (#"{"software_statement": "statement-dcr", "redirect_uri": "app://\#(long)"}"#, "invalid_redirect_uri"),
        ]
        for c in cases {
            let r = b.postJSON("/o/client/register", c.body)
            #expect(r.status == 400, "\(c.body.prefix(80))")
            #expect(r.headers["Content-Type"] == "application/json", "\(c.body.prefix(80))")
            #expect(r.bodyText == #"{"error":"\#(c.error)"}"#, "\(c.body.prefix(80)): \(r.bodyText)")
        }
        // A value over mock-value-bytes met before the handler (a query parameter) is refused the same way.
        let query = b.send(
            HTTPRequest(
                method: "POST", url: spURL + "/o/client/register?client_id=" + long + "b",
                headers: [("Content-Type", "application/json")],
                body: Array(#"{"software_statement": "statement-dcr"}"#.utf8)),
            withCookies: false)
        #expect(query.status == 400 && query.bodyText == #"{"error":"invalid_request"}"#)
        #expect(b.mock.clients.registeredClients.count == 0)
        // A null redirect_uri is none; a fragment is allowed (the page's own sample answers one).
        let ok = b.postJSON(
            "/o/client/register", #"{"software_statement": "statement-dcr", "redirect_uri": null, "extra": 1}"#)
        #expect(ok.status == 201)
        var fresh = Browser(MockPass(world: rootServiceWorld(), seed: 79))
        let first = fresh.postJSON("/o/client/register", #"{"software_statement": "statement-dcr"}"#)
        #expect(try Value(jsonText: ok.bodyText)["client_id"] == Value(jsonText: first.bodyText)["client_id"])
        let fragment = b.postJSON(
            "/o/client/register", #"{"software_statement": "statement-dcr", "redirect_uri": "app://com.p.adobe#x"}"#)
        #expect(try Value(jsonText: fragment.bodyText)["redirect_uris"] == .list([.string("app://com.p.adobe#x")]))
    }

    /// Every malformed token request gets the code the page's Error table gives it (400, JSON), and
    /// no token is issued.
    @Test func eachMalformedTokenRequestAnswersItsDocumentedErrorAndIssuesNothing() throws {
        var b = Browser(MockPass(world: rootServiceWorld(), seed: 80))
        let client = try Value(
            jsonText: b.postJSON("/o/client/register", #"{"software_statement": "statement-dcr"}"#).bodyText)
        let id = try #require(client["client_id"]?.stringValue)
        let secret = try #require(client["client_secret"]?.stringValue)
        let grant = ("grant_type", "client_credentials")
        let long = String(repeating: "z", count: MockLimits.valueBytes + 1)
        let cases: [(fields: [(String, String)], query: String, error: String)] = [
            ([("client_id", id), ("client_secret", secret)], "", "invalid_request"),  // missing
            ([grant, ("client_secret", secret)], "", "invalid_request"),
            ([grant, ("client_id", id)], "", "invalid_request"),
            ([("grant_type", ""), ("client_id", id), ("client_secret", secret)], "", "invalid_request"),  // empty
            ([grant, ("client_id", ""), ("client_secret", secret)], "", "invalid_request"),
            ([grant, ("client_id", id), ("client_secret", "")], "", "invalid_request"),
            ([grant, grant, ("client_id", id), ("client_secret", secret)], "", "invalid_request"),  // repeated
            ([grant, ("client_id", id), ("client_secret", secret)], "?client_id=\(id)", "invalid_request"),
            ([grant, ("client_id", id), ("client_secret", secret), ("client_secret", secret)], "", "invalid_request"),
            ([grant, ("client_id", long), ("client_secret", secret)], "", "invalid_request"),  // oversized
            ([grant, ("client_id", id), ("client_secret", long)], "", "invalid_request"),
            ([("grant_type", long), ("client_id", id), ("client_secret", secret)], "", "invalid_request"),
            ([("grant_type", "password"), ("client_id", id), ("client_secret", secret)], "", "unsupported_grant_type"),
            (
                [("grant_type", "Client_Credentials"), ("client_id", id), ("client_secret", secret)], "",
                "unsupported_grant_type"
            ),
            ([grant, ("client_id", id), ("client_secret", "guess")], "", "invalid_client"),
            ([grant, ("client_id", "nobody"), ("client_secret", secret)], "", "invalid_client"),
            ([("grant_type", "refresh_token"), ("client_id", id), ("client_secret", "guess")], "", "invalid_client"),
            (
                [("grant_type", "refresh_token"), ("client_id", id), ("client_secret", secret)], "",
                "unauthorized_client"
            ),
        ]
        for c in cases {
            let r = b.engine("/o/client/token" + c.query, c.fields)
            let what = c.fields.map { "\($0.0)=\($0.1.prefix(12))" }.joined(separator: "&") + c.query.prefix(12)
            #expect(r.status == 400, "\(what)")
            #expect(r.headers["Content-Type"] == "application/json", "\(what)")
            #expect(r.bodyText == #"{"error":"\#(c.error)"}"#, "\(what): \(r.bodyText)")
        }
        // Two ways of authenticating the client (Basic beside the form's secret).
        var basic = HTTPRequest.form(spURL + "/o/client/token", [grant, ("client_id", id), ("client_secret", secret)])
        basic.headers.add("Authorization", "Basic Y2xpZW50OnNlY3JldA==")
        #expect(b.send(basic, withCookies: false).bodyText == #"{"error":"invalid_request"}"#)
        // A form the page does not describe: a JSON body holds no form parameter.
        let json = b.send(
            HTTPRequest(
                method: "POST", url: spURL + "/o/client/token", headers: [("Content-Type", "application/json")],
                body: Array(#"{"grant_type": "client_credentials", "client_id": "\#(id)"}"#.utf8)),
            withCookies: false)
        #expect(json.bodyText == #"{"error":"invalid_request"}"#)
        #expect(b.mock.clients.accessTokens.count == 0)
        // The client is good: the same request, well formed, gets its token; past its day it is forgotten.
        #expect(b.engine("/o/client/token", [grant, ("client_id", id), ("client_secret", secret)]).status == 201)
        b.now = b.now + .hours(24)
        let expired = b.engine("/o/client/token", [grant, ("client_id", id), ("client_secret", secret)])
        #expect(expired.bodyText == #"{"error":"invalid_client"}"#)
    }

    /// The DCR endpoints are how a client gets its token: a gated requestor named on them is not asked
    /// for one.
    @Test func theDCREndpointsAreNotGated() throws {
        var b = Browser(MockPass(world: rootServiceWorld(), seed: 81))
        let reg = b.send(
            HTTPRequest(
                method: "POST", url: spURL + "/o/client/register?requestor_id=DCR",
                headers: [("Content-Type", "application/json")],
                body: Array(#"{"software_statement": "statement-dcr"}"#.utf8)),
            withCookies: false)
        #expect(reg.status == 201)
        let client = try Value(jsonText: reg.bodyText)
        let token = b.engine(
            "/o/client/token",
            [
                ("grant_type", "client_credentials"), ("requestor_id", "DCR"),
                ("client_id", try #require(client["client_id"]?.stringValue)),
                ("client_secret", try #require(client["client_secret"]?.stringValue)),
            ])
        #expect(token.status == 201)
    }

    @Test func aRequestorWithAStatementNeedsALiveBearerAndARefusalChangesNothing() throws {
        var b = Browser(MockPass(world: rootServiceWorld(), seed: 73))
        let bare = b.engine("/reggie/v1/DCR/regcode", [("deviceId", "tv-1")])
        #expect(bare.status == 401)
        #expect(try errorBody(bare).message == "missing Authorization: Bearer access token")
        #expect(b.mock.sdk.registrationCodes.count == 0)
        #expect(b.get(spURL + "/config/DCR").status == 401)

        let token = try b.accessToken()
        var request = HTTPRequest.form(spURL + "/reggie/v1/DCR/regcode", [("deviceId", "tv-1")])
        request.headers.add("Authorization", "Bearer " + token)
        #expect(b.send(request, withCookies: false).status == 201)
        var config = HTTPRequest(method: "GET", url: spURL + "/config/DCR")
        config.headers.add("Authorization", "Bearer " + token)
        #expect(b.send(config, withCookies: false).status == 200)
        // The login page is a browser's: it carries no token and is not refused for it.
        #expect(b.get(loginURL(requestor: "DCR")).status == 200)

        var forged = config
        forged.headers = [("Authorization", "Bearer nope")]
        #expect(try errorBody(b.send(forged, withCookies: false)).message == "unknown or expired access token")
        // token-ttl 1h: past it, the same token is refused.
        b.now = b.now + .hours(1)
        #expect(try errorBody(b.send(config, withCookies: false)).message == "unknown or expired access token")
        // Requestors without a statement take requests with or without a token.
        #expect(b.get(spURL + "/config/REQ1").status == 200)
        #expect(
            b.send(
                HTTPRequest(method: "GET", url: spURL + "/config/REQ1", headers: [("Authorization", "Bearer nope")]),
                withCookies: false
            ).status == 200)
    }

    @Test func theTokenMayComeAsAnAccessTokenParameterAndTheWebFamilyTakesNone() throws {
        var b = Browser(MockPass(world: rootServiceWorld(), seed: 74))
        let token = try b.accessToken()
        // EPlusTV's NESN client sends the token as a form field to the regcode service.
        #expect(b.engine("/reggie/v1/DCR/regcode", [("deviceId", "tv-1"), ("access_token", token)]).status == 201)
        #expect(b.engine("/reggie/v1/DCR/regcode", [("deviceId", "tv-1"), ("access_token", "nope")]).status == 401)
        #expect(b.mock.sdk.registrationCodes.count == 1)
        // yt-dlp's cached calls carry no token: the web family's own endpoints do not ask for one
        // (here the answer is the endpoint's own refusal, a 401 for the missing login, not the gate's).
        let web = b.post(spURL + "/session", [("_method", "GET"), ("requestor_id", "DCR")])
        #expect(try errorBody(web).message == "Data not found")
        let device = b.post(
            spURL + "/sessionDevice", [("_method", "GET"), ("requestor_id", "DCR"), ("device_id", "d")])
        #expect(try errorBody(device).message == "missing Authorization: Bearer access token")
    }

    @Test func aTokenOfAnotherStatementIsRefused() throws {
        var w = rootServiceWorld()
        w.requestors.append(World.Requestor(id: "OTHER", softwareStatement: "statement-other"))
        var b = Browser(MockPass(world: w, seed: 74))
        let token = try b.accessToken(statement: "statement-other")
        let r = b.send(
            HTTPRequest(method: "GET", url: spURL + "/config/DCR", headers: [("Authorization", "Bearer " + token)]),
            withCookies: false)
        #expect(r.status == 401)
        #expect(try errorBody(r).message == "access token of a client registered for another requestor")
    }

    @Test func individualisationAnswersADeviceIdAndThePassSfpHeader() throws {
        var b = Browser(MockPass(world: rootServiceWorld(), seed: 75))
        let r = b.postJSON("/indiv/devices", #"{"fingerprint": "0123456789abcdef"}"#)
        #expect(r.status == 200)
        let id = try #require(try Value(jsonText: r.bodyText)["deviceId"]?.stringValue)
        #expect(id.count == 40)
        let sfp = try #require(r.headers["pass_sfp"])
        #expect(!sfp.isEmpty)
        // Stateless: the same fingerprint is the same device, another is another.
        let again = b.postJSON("/indiv/devices", #"{"fingerprint": "0123456789abcdef"}"#)
        #expect(try Value(jsonText: again.bodyText)["deviceId"]?.stringValue == id)
        #expect(
            try Value(jsonText: b.postJSON("/indiv/devices", #"{"fingerprint": "x"}"#).bodyText)["deviceId"]?
                .stringValue != id)
        let missing = b.postJSON("/indiv/devices", "{}")
        #expect(missing.status == 400)
        #expect(try Value(jsonText: missing.bodyText)["message"] == .string("missing fingerprint"))
        #expect(b.get(spURL + "/indiv/devices").status == 405)
    }

    /// yt-dlp calls `https://sp.auth.adobe.com/indiv/devices` while the SDK family lives under
    /// `/adobe-services`: an SP with a base path still serves the root services of its origin.
    @Test func rootServicesAreServedAtTheOriginOfAnSPWithABasePath() throws {
        var b = Browser(MockPass(world: rootServiceWorld(), seed: 78))
        let alt = "https://sp2.auth.test"
        let device = b.send(
            HTTPRequest(method: "POST", url: alt + "/indiv/devices", body: Array(#"{"fingerprint": "f"}"#.utf8)),
            withCookies: false)
        #expect(device.status == 200)
        #expect(b.mock.log.last?.host == .sp("alt"))
        #expect(b.engine("/reggie/v1/REQ3/regcode", [("deviceId", "tv-1")], sp: alt).status == 201)
        #expect(b.engine("/reggie/v1/REQ3/regcode", [("deviceId", "tv-1")], sp: alt + "/adobe-services").status == 201)
        #expect(b.engineGet("/api/v1/checkauthn?requestor=REQ3&deviceId=tv-1", sp: alt).status == 403)
        // Other root paths of that origin are still no host's.
        #expect(b.get(alt + "/config/REQ3").status == 404)
        #expect(b.mock.host(for: alt + "/config/REQ3") == nil)
    }

    @Test func hostileRegistrationBodiesAreRefusedNamingTheLimit() throws {
        var mock = MockPass(world: rootServiceWorld(), seed: 76)
        let deep = mock.handle(
            try PreparedRequestTests.hostileRequest("dcr-register-65-deep.txt"), at: .simulationStart)
        // The page's malformed request: the documented body, which has no room for the limit's name.
        #expect(deep.status == 400)
        #expect(deep.bodyText == #"{"error":"invalid_request"}"#)
        #expect(mock.clients.registeredClients.count == 0)
    }

    @Test func registrationsAndTokensAreCappedOldestFirst() throws {
        var limits = MockLimits.simulated
        limits.registeredClients = 2
        limits.accessTokens = 2
        var b = Browser(MockPass(world: rootServiceWorld(), seed: 77, limits: limits))
        let first = try b.accessToken()
        _ = try b.accessToken()
        _ = try b.accessToken()
        #expect(b.mock.clients.registeredClients.count == 2)
        #expect(b.mock.clients.accessTokens.count == 2)
        let r = b.send(
            HTTPRequest(method: "GET", url: spURL + "/config/DCR", headers: [("Authorization", "Bearer " + first)]),
            withCookies: false)
        #expect(r.status == 401)
    }
}
