import Live
import MockPass
import PassModel
import Testing

/// Issue 13 over real HTTP: the root services and REST API v1 are routed on the SP host by path,
/// next to the SDK family, and a Bearer-guarded requestor is enforced by the server too.
@Suite struct RootServicesLiveTests {
    func world() -> World {
        var w = liveWorld()
        w.requestors.append(World.Requestor(id: "DCR", softwareStatement: "statement-live"))
        return w
    }

    func post(
        _ curl: CurlTransport, _ url: String, json: String? = nil, form: [(String, String)] = [],
        headers: HTTPHeaders = []
    ) throws -> HTTPResponse {
        var request: HTTPRequest
        if let json {
            request = HTTPRequest(
                method: "POST", url: url, headers: [("Content-Type", "application/json")], body: Array(json.utf8))
        } else {
            request = .form(url, form)
        }
        for h in headers.fields { request.headers.add(h.name, h.value) }
        return try response(curl.perform(request, timeout: .seconds(5)))
    }

    @Test func ytDlpsRegistrationStepsOverHTTP() async throws {
        try await withServer(world: world()) { server in
            let curl = try CurlTransport()
            let sp = try server.url(.sp("main"))
            let device = try post(curl, sp + "/indiv/devices", json: #"{"fingerprint": "abc"}"#)
            #expect(device.status == 200)
            #expect(device.headers["pass_sfp"]?.isEmpty == false)
            #expect(try Value(jsonText: device.bodyText)["deviceId"]?.stringValue?.isEmpty == false)

            let reg = try Value(
                jsonText: try post(curl, sp + "/o/client/register", json: #"{"software_statement": "statement-live"}"#)
                    .bodyText)
            let token = try Value(
                jsonText: try post(
                    curl, sp + "/o/client/token",
                    form: [
                        ("grant_type", "client_credentials"),
                        ("client_id", try #require(reg["client_id"]?.stringValue)),
                        ("client_secret", try #require(reg["client_secret"]?.stringValue)),
                    ]
                ).bodyText)
            let bearer = "Bearer " + (try #require(token["access_token"]?.stringValue))
            #expect(try get(curl, sp + "/config/DCR").status == 401)
            #expect(try get(curl, sp + "/config/DCR", headers: [("Authorization", bearer)]).status == 200)
            let code = try post(
                curl, sp + "/reggie/v1/DCR/regcode",
                form: [("requestor", "DCR"), ("deviceId", "d1"), ("format", "json")],
                headers: [("Authorization", bearer)])
            #expect(code.status == 201)
            #expect(try Value(jsonText: code.bodyText)["mvpd"] == .null)

            let authn = try get(curl, sp + "/api/v1/tokens/authn?requestor=REQ1&deviceId=d1&format=json")
            #expect(authn.status == 404)
            #expect(try Value(jsonText: authn.bodyText)["message"] == .string("Not found"))
            let logout = try response(
                curl.perform(
                    HTTPRequest(method: "DELETE", url: sp + "/api/v1/logout?requestor=REQ1&deviceId=d1"),
                    timeout: .seconds(5)))
            #expect(logout.status == 204)
        }
    }
}
