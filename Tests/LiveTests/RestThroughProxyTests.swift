import Crypto
import Foundation
import Live
import MockPass
import PassModel
import PassXML
import Testing

/// The clientless REST API v1 as a signed client sends it (real-clients.md, "Signed clientless
/// calls"), with the curl binary through the proxy to Adobe's own host names: the second-screen login
/// in a browser's steps, then each answer checked field by field.
@Suite(.serialized) struct RestThroughProxyTests {
    static let requestor = "signedreq"
    static let key = World.KeyPair(publicKey: "pk-passim", secret: "sk-passim")
    static let device = "b5e3f7d0-0000-11eb-8000-00000000beef"

    static func authorization(_ method: String, path: String, secret: String = key.secret) -> String {
        let nonce = UUID().uuidString
        let time = Int64(Date().timeIntervalSince1970 * 1000)
        let signed =
            "\(method) requestor_id=\(requestor), nonce=\(nonce), signature_method=HMAC-SHA1, "
            + "request_time=\(time), request_uri=\(path)"
        let mac = HMAC<Insecure.SHA1>.authenticationCode(
            for: Array(signed.utf8), using: SymmetricKey(data: Array(secret.utf8)))
        return signed + ", public_key=\(key.publicKey), signature=\(Data(mac).base64EncodedString())"
    }

    func signed(
        _ curl: ProxyCurl, _ method: String, _ url: String, body: String? = nil,
        secret: String = RestThroughProxyTests.key.secret
    ) throws -> (status: Int, json: [String: Any]) {
        let path = URLParts(url)?.path ?? "/"
        var headers = [("Authorization", RestThroughProxyTests.authorization(method, path: path, secret: secret))]
        if body != nil { headers.append(("Content-Type", "application/x-www-form-urlencoded")) }
        let (run, r) = try curl.send(method, url, headers: headers, body: body)
        guard let r else { throw TestFailure("\(method) \(url): no answer: \(run.error)") }
        let json = (try? JSONSerialization.jsonObject(with: Data(r.body))) as? [String: Any] ?? [:]
        return (r.status, json)
    }

    /// A person on a second screen: redirects followed and each page's form posted (the one with a
    /// password gets the credentials) until the SP sends the browser to the programmer's page.
    func login(_ curl: ProxyCurl, code: String) throws {
        var url =
            "https://sp.auth.adobe.com/api/v1/authenticate?"
            + FormCoding.encode([
                ("reg_code", code), ("requestor_id", Self.requestor), ("mso_id", "PassimCable"),
                ("domain_name", "adobe.com"),
                ("noflash", "true"), ("no_iframe", "false"), ("redirect_url", "https://programmer.example/activated"),
            ])
        var method = "GET"
        var body: String?
        for _ in 0..<12 {
            let headers = body == nil ? [] : [("Content-Type", "application/x-www-form-urlencoded")]
            let (run, answer) = try curl.send(method, url, headers: headers, body: body)
            guard let r = answer else { throw TestFailure("\(method) \(url): \(run.error)") }
            if (300..<400).contains(r.status), let location = r.headers["location"], let here = URLParts(url) {
                url = here.resolve(location)
                if url.hasPrefix("https://programmer.example/") { return }
                method = "GET"
                body = nil
                continue
            }
            let form = try onlyForm(r)
            var fields = form.fields.map { ($0.name, $0.value) }
            if fields.contains(where: { $0.0 == "password" }) {
                fields = fields.map {
                    $0.0 == "username" ? ("username", "viewer") : $0.0 == "password" ? ("password", "s3cret") : $0
                }
            }
            url = URLParts(url)?.resolve(form.action) ?? form.action
            method = form.method.uppercased()
            body = FormCoding.encode(fields)
        }
        throw TestFailure("the login did not reach the programmer's page")
    }

    @Test func signedRestCallsThroughTheProxyCheckedFieldByField() async throws {
        try await withProxy { server, dir, _ in
            let jar = dir + "/cookies.txt"
            let api = ProxyCurl(proxy: try #require(server.proxyURL), caFile: dir + "/ca.pem")
            let browser = ProxyCurl(proxy: try #require(server.proxyURL), caFile: dir + "/ca.pem", cookieJar: jar)
            let base = "https://api.auth.adobe.com"
            let r = Self.requestor, d = Self.device

            let regcode = try signed(
                api, "POST", "\(base)/reggie/v1/\(r)/regcode",
                body: "deviceId=\(d)&ttl=3600&format=json")
            #expect([200, 201].contains(regcode.status))
            let code = try #require(regcode.json["code"] as? String)
            #expect(!code.isEmpty)
            #expect(regcode.json["requestor"] as? String == r)

            let before = try signed(api, "GET", "\(base)/api/v1/checkauthn?deviceId=\(d)&format=json")
            #expect([401, 403].contains(before.status), "no login yet")

            try login(browser, code: code)

            #expect(try signed(api, "GET", "\(base)/api/v1/checkauthn?deviceId=\(d)&format=json").status == 200)
            let authn = try signed(api, "GET", "\(base)/api/v1/tokens/authn?deviceId=\(d)&requestor=\(r)&format=json")
            #expect(authn.status == 200)
            #expect(authn.json["mvpd"] as? String == "PassimCable")
            #expect(authn.json["requestor"] as? String == r)
            #expect((authn.json["userId"] as? String)?.isEmpty == false)
            #expect(authn.json["expires"] != nil)

            let authorize = try signed(
                api, "GET", "\(base)/api/v1/authorize?deviceId=\(d)&requestor=\(r)&resource=passimtv&format=json")
            #expect(authorize.status == 200)
            #expect(authorize.json["resource"] as? String == "passimtv")
            #expect(authorize.json["mvpd"] as? String == "PassimCable")
            #expect(authorize.json["expires"] != nil)

            let media = try signed(
                api, "GET", "\(base)/api/v1/tokens/media?deviceId=\(d)&requestor=\(r)&resource=passimtv&format=json")
            #expect(media.status == 200)
            #expect((media.json["serializedToken"] as? String)?.isEmpty == false)
            #expect(media.json["resource"] as? String == "passimtv")

            let denied = try signed(
                api, "GET", "\(base)/api/v1/authorize?deviceId=\(d)&requestor=\(r)&resource=passimtv-ppv&format=json")
            #expect(denied.status == 403)
            #expect(
                denied.json["details"] as? String == "Passim PPV is not in your package."
                    || denied.json["message"] as? String == "Passim PPV is not in your package.", "\(denied.json)")

            let forged = try signed(
                api, "GET", "\(base)/api/v1/authorize?deviceId=\(d)&requestor=\(r)&resource=passimtv&format=json",
                secret: "not-the-secret")
            #expect(forged.status == 401)

            #expect(
                try signed(api, "DELETE", "\(base)/api/v1/logout?deviceId=\(d)&requestor=\(r)&format=json").status
                    == 204)
            #expect(try signed(api, "GET", "\(base)/api/v1/checkauthn?deviceId=\(d)&format=json").status == 403)
        }
    }
}
