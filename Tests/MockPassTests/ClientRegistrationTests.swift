import PassModel
import PassXML
import Testing
@testable import MockPass

/// Dynamic Client Registration, device individualisation and the Bearer gate (issue 13, root services).
@Suite struct ClientRegistrationTests {
    @Test func registrationAndTokenAnswerTheDCRFields() throws {
        var b = Browser(MockPass(world: rootServiceWorld(), seed: 71))
        let reg = b.postJSON(
            "/o/client/register", #"{"software_statement": "statement-dcr", "redirect_uri": "adobepass://ios.app"}"#)
        #expect(reg.status == 201)
        #expect(reg.headers["Content-Type"] == "application/json")
        let client = try Value(jsonText: reg.bodyText)
        guard case .dict(let entries) = client else { Issue.record("not an object"); return }
        #expect(
            entries.map(\.key) == ["client_id", "client_secret", "client_id_issued_at", "redirect_uris", "grant_types"])
        #expect(client["redirect_uris"] == .list([.string("adobepass://ios.app")]))
        #expect(client["grant_types"] == .list([.string("client_credentials")]))
        let token = b.engine(
            "/o/client/token",
            [
                ("grant_type", "client_credentials"),
                ("client_id", try #require(client["client_id"]?.stringValue)),
                ("client_secret", try #require(client["client_secret"]?.stringValue)),
            ])
        #expect(token.status == 200)
        let json = try Value(jsonText: token.bodyText)
        #expect(json["expires_in"] == .int(3600))
        #expect(json["token_type"] == .string("bearer"))
        #expect(json["created_at"] == .int(Int(b.now.milliseconds)))
        #expect(json["access_token"]?.stringValue?.isEmpty == false)
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

    @Test func registrationRefusals() throws {
        var b = Browser(MockPass(world: rootServiceWorld(), seed: 72))
        let unknown = b.postJSON("/o/client/register", #"{"software_statement": "forged"}"#)
        #expect(unknown.status == 400)
        #expect(try Value(jsonText: unknown.bodyText)["error"] == .string("invalid_software_statement"))
        #expect(
            try Value(jsonText: b.postJSON("/o/client/register", "{}").bodyText)["error_description"]
                == .string("missing software_statement"))
        let notJSON = b.postJSON("/o/client/register", "software_statement=x")
        #expect(notJSON.status == 400)
        #expect(notJSON.bodyText.contains("malformed JSON body"))
        #expect(b.get(spURL + "/o/client/register").status == 405)
        #expect(b.mock.clients.registeredClients.count == 0)

        let missing = b.engine("/o/client/token", [("client_id", "x"), ("client_secret", "y")])
        #expect(missing.status == 400)
        #expect(try Value(jsonText: missing.bodyText)["error_description"] == .string("missing parameter grant_type"))
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
        #expect(wrong.status == 401)
        #expect(try Value(jsonText: wrong.bodyText)["error"] == .string("invalid_client"))
        #expect(b.mock.clients.accessTokens.count == 0)
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
        #expect(deep.status == 400)
        #expect(deep.bodyText.contains("limit: json-depth"))
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
