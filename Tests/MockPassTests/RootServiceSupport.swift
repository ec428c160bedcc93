import PassModel
import PassXML
import Testing
@testable import MockPass

let signedKey = World.KeyPair(publicKey: "pub-kodi", secret: "s3cret-kodi")

/// `deviceWorld()` plus a requestor that needs registered clients and one that needs signatures.
func rootServiceWorld() -> World {
    var w = deviceWorld()
    w.requestors.append(World.Requestor(id: "DCR", softwareStatement: "statement-dcr", tokenTTL: .hours(1)))
    w.requestors.append(World.Requestor(id: "SIGNED", key: signedKey))
    return w
}

extension Browser {
    mutating func postJSON(_ path: String, _ json: String) -> HTTPResponse {
        send(
            HTTPRequest(
                method: "POST", url: spURL + path, headers: [("Content-Type", "application/json; charset=UTF-8")],
                body: Array(json.utf8)), withCookies: false)
    }

    /// DCR as yt-dlp does it: register with the statement, then a client-credentials token.
    mutating func accessToken(statement: String = "statement-dcr") throws -> String {
        let reg = postJSON("/o/client/register", #"{"software_statement": "\#(statement)"}"#)
        guard reg.status == 201 else { throw TestFailure("register: \(reg.status) \(reg.bodyText)") }
        let client = try Value(jsonText: reg.bodyText)
        let token = engine(
            "/o/client/token",
            [
                ("grant_type", "client_credentials"), ("client_id", try #require(client["client_id"]?.stringValue)),
                ("client_secret", try #require(client["client_secret"]?.stringValue)),
            ])
        guard token.status == 201 else { throw TestFailure("token: \(token.status) \(token.bodyText)") }
        return try #require(try Value(jsonText: token.bodyText)["access_token"]?.stringValue)
    }

    /// A REST call signed as Kodi's add-on signs it (`request_uri` is the path without the query).
    mutating func signed(
        _ method: String, _ path: String, query: String = "", nonce: String, key: World.KeyPair = signedKey,
        requestor: String = "SIGNED", time: Int64? = nil, body: [(String, String)] = []
    ) -> HTTPResponse {
        let header = RequestSignature.header(
            method: method, requestorID: requestor, nonce: nonce,
            requestTime: time ?? now.milliseconds, requestURI: path, key: key)
        var request =
            body.isEmpty
            ? HTTPRequest(method: method, url: spURL + path + query)
            : HTTPRequest.form(spURL + path + query, body)
        request.method = method
        request.headers.add("Authorization", header)
        return send(request, withCookies: false)
    }

    /// A tvOS-style login: a code for `device`, then alice (or `user`) on a second screen.
    mutating func codeLogin(
        requestor: String = "REQ1", device: String = "tv-1", user: String = "alice",
        password: String = "secret", mvpd: String = "Comcast",
        headers: HTTPHeaders = []
    ) throws {
        var request = HTTPRequest.form(
            spURL + "/reggie/v1/\(requestor)/regcode", [("deviceId", device), ("format", "json")])
        for h in headers.fields { request.headers.add(h.name, h.value) }
        let made = send(request, withCookies: false)
        guard made.status == 201 else { throw TestFailure("regcode: \(made.status) \(made.bodyText)") }
        let code = try #require(try Value(jsonText: made.bodyText)["code"]?.stringValue)
        let start = get(RegistrationCodeTests.secondScreenURL(code, requestor: requestor, mvpd: mvpd))
        let login = submit(try onlyForm(submit(try onlyForm(start))), ["username": user, "password": password])
        let done = submit(try onlyForm(login))
        guard done.status == 302 else { throw TestFailure("second screen: \(done.status) \(done.bodyText)") }
    }
}
