import Foundation
import Live
import MockPass
import PassModel
import PassXML
import Testing

/// REST API v2 served by `passim serve`'s server: direct on an SP's live port, and through the proxy
/// on Adobe's own host name with curl. Adobe's throttling table against the server, its
/// clock held at each row's instant.
@Suite(.serialized) struct RESTv2LiveTests {
    static let statement = "statement-v2-live"

    static func world(throttling: Bool) -> World {
        var w = adobeWorld()
        w.serviceProviders[0].mvpds.append(MVPD(id: "TempPass_TEST40", displayName: "TempPass", tempPass: true))
        w.tempPasses = [World.TempPass(mvpdID: "TempPass_TEST40", ttl: .minutes(3))]
        w.requestors.append(World.Requestor(id: "passimv2", softwareStatement: statement))
        w.restV2.throttling = throttling
        return w
    }

    static let deviceInfo = Data(
        #"{"model":"Box","version":"1.0","osName":"Linux","osVersion":"6.1","connectionType":"LAN","primaryHardwareType":"SetTopBox"}"#
            .utf8
    ).base64EncodedString()

    static func json(_ r: HTTPResponse?) -> [String: Any] {
        guard let r else { return [:] }
        return (try? JSONSerialization.jsonObject(with: Data(r.body))) as? [String: Any] ?? [:]
    }

    @Test func aTempPassAuthorizationThroughTheProxyOnAdobesHost() async throws {
        try await withProxy(world: Self.world(throttling: false)) { server, dir, _ in
            let curl = ProxyCurl(proxy: try #require(server.proxyURL), caFile: dir + "/ca.pem")
            let base = "https://sp.auth.adobe.com"
            let (_, reg) = try curl.send(
                "POST", base + "/o/client/register", headers: [("Content-Type", "application/json")],
                body: #"{"software_statement":"\#(Self.statement)"}"#)
            #expect(reg?.status == 201)
            let client = Self.json(reg)
            let id = try #require(client["client_id"] as? String),
                secret = try #require(client["client_secret"] as? String)
            let (_, tok) = try curl.send(
                "POST", base + "/o/client/token?client_id=\(id)&client_secret=\(secret)&grant_type=client_credentials")
            let token = try #require(Self.json(tok)["access_token"] as? String)
            let headers = [
                ("Authorization", "Bearer " + token), ("AP-Device-Identifier", "fingerprint ZmFzdGNoYW5uZWxz"),
                ("X-Device-Info", Self.deviceInfo),
            ]
            let (_, session) = try curl.send(
                "POST", base + "/api/v2/passimv2/sessions",
                headers: headers + [("Content-Type", "application/x-www-form-urlencoded")],
                body: "redirectUrl=https%3A%2F%2Fapp.test&domainName=app.test&mvpd=TempPass_TEST40")
            #expect(session?.status == 200)
            #expect(Self.json(session)["actionName"] as? String == "authorize")
            let (_, profiles) = try curl.send(
                "GET", base + "/api/v2/passimv2/profiles/TempPass_TEST40", headers: headers)
            #expect(profiles?.status == 200)
            #expect(((Self.json(profiles)["profiles"] as? [String: Any])?["TempPass_TEST40"]) != nil)
            let (_, decision) = try curl.send(
                "POST", base + "/api/v2/passimv2/decisions/authorize/TempPass_TEST40",
                headers: headers + [("Content-Type", "application/json")],
                body: #"{"resources":["<rss><channel><title>passimtv</title></channel></rss>"]}"#)
            #expect(decision?.status == 200)
            let first = try #require((Self.json(decision)["decisions"] as? [[String: Any]])?.first)
            #expect(first["authorized"] as? Bool == true)
            #expect(first["source"] as? String == "temppass")
            let serialized = try #require((first["token"] as? [String: Any])?["serializedToken"] as? String)
            let media = try ShortMediaTokenXML.deserialize(serialized)
            #expect(media.mvpdID == "TempPass_TEST40")
            // The same world's REST v1 knows nothing of this device's TempPass.
            let (_, v1) = try curl.send(
                "GET", base + "/api/v1/checkauthn?requestor=passimv2&deviceId=ZmFzdGNoYW5uZWxz&format=json",
                headers: [("Authorization", "Bearer " + token)])
            #expect(v1?.status == 403)
        }
    }

    @Test func directOnTheSPsLivePort() async throws {
        try await withServer(world: Self.world(throttling: false)) { server in
            let transport = try CurlTransport()
            let sp = try server.url(.sp("api"))
            let r = try get(transport, sp + "/api/v2/passimtv/configuration")
            #expect(r.status == 200)
            #expect(r.bodyText.contains(#""id":"PassimCable""#))
            let bad = try get(transport, sp + "/api/v2/passimv2/configuration")
            #expect(bad.status == 401)
            #expect(bad.bodyText.contains("invalid_access_token_client_application"))
        }
    }

    @Test func adobesThrottlingTableAgainstTheServer() async throws {
        let start = Instant(milliseconds: 1_800_000_000_000)
        let clock = LiveClock(heldAt: start)
        try await withServer(clock: clock, world: Self.world(throttling: true)) { server in
            let transport = try CurlTransport()
            let url = try server.url(.sp("api")) + "/api/v2/passimtv/configuration"
            let table: [(Int64, Int)] = [
                (0, 200), (300, 200), (600, 200), (900, 200), (1200, 200), (1300, 200), (1400, 200), (1500, 200),
                (1600, 200),
                (1700, 200), (1800, 200), (2100, 200), (2200, 200), (2400, 429), (2600, 429), (2800, 429), (3100, 200),
            ]
            var answers: [Int] = []
            for (t, _) in table {
                clock.hold(at: start + Millis(t))
                answers.append(try get(transport, url, headers: [("X-Forwarded-For", "192.0.2.44")]).status)
            }
            #expect(answers == table.map(\.1))
        }
    }
}
