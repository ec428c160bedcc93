import Foundation
import Live
import MockPass
import PassModel
import Testing

/// `POST /admin/world`: a running server swaps the world it serves (what `passim run --live --server`
/// does before each scenario); an unusable world is refused and the served one stays.
@Suite(.serialized) struct AdminWorldTests {
    static let loader: MockPassServer.WorldLoader = { text in
        switch text {
        case "small":
            let sp = World.ServiceProvider(
                name: "solo", url: "https://solo.test", mvpds: [MVPD(id: "Dish", displayName: "DISH")])
            return .success(
                .init(
                    world: World(
                        serviceProviders: [sp], identityProviders: World.defaultIdentityProviders(for: [sp]),
                        users: [], requestors: [World.Requestor(id: "REQ9")]),
                    conditions: [.sp("solo"): HostConditions(latency: .zero)], seed: 3))
        default:
            return .failure(LiveError("line 1: not a world"))
        }
    }

    func post(_ curl: CurlTransport, _ server: MockPassServer, _ world: String, urls: String? = nil) throws
        -> HTTPResponse
    {
        try server.admin(curl, "POST", "/admin/world", [("world", world)] + (urls.map { [("urls", $0)] } ?? []))
    }

    @Test func aNewWorldReplacesTheServedOne() async throws {
        let server = try await MockPassServer.start(
            world: liveWorld(), options: .init(worldLoader: AdminWorldTests.loader))
        let curl = try CurlTransport()
        let oldConfig = try server.url(.sp("main")) + "/config/REQ1"
        #expect(try get(curl, oldConfig).status == 200)

        let refused = try post(curl, server, "nonsense")
        #expect(refused.status == 400 && refused.bodyText.contains("not a world"))
        #expect(try get(curl, oldConfig).status == 200, "a refused world leaves the served one alone")

        let loaded = try post(curl, server, "small", urls: "as-written")
        #expect(loaded.status == 200)
        #expect(loaded.bodyText.hasPrefix(#"{"host":"sp:solo","url":"https://solo.test","live":"http://127.0.0.1:"#))
        #expect(server.hosts.map(\.name) == ["sp:solo", "idp:Dish"])
        let solo = try response(
            curl.perform(
                HTTPRequest(method: "GET", url: try server.url(.sp("solo")) + "/config/REQ9"), timeout: .seconds(5)))
        #expect(solo.status == 200)
        // The old world is gone: its SP's port is closed (refused), or reused by a new host that does
        // not know REQ1 (404); either way no configuration comes from it.
        let old = curl.perform(HTTPRequest(method: "GET", url: oldConfig), timeout: .seconds(2))
        if case .response(let r) = old {
            #expect(r.status == 404)
        } else {
            #expect(old == .failure("connection refused"))
        }
        #expect(server.requestLog().map(\.path) == ["/config/REQ9"], "a new world starts a new log")
        #expect(try post(curl, server, "small", urls: "sideways").status == 400)
        try await server.shutdown()
    }

    @Test func withoutALoaderTheEndpointIsAbsentAndTheClockCanBeHeld() async throws {
        try await withServer { server in
            let curl = try CurlTransport()
            #expect(try post(curl, server, "small").status == 404)
            let held = try server.admin(curl, "POST", "/admin/clock", [("hold", "1767225660000")])
            #expect(held.status == 200 && held.bodyText.hasPrefix("1767225660000 "))
            #expect(server.now() == Instant(milliseconds: 1_767_225_660_000))
            #expect(try server.admin(curl, "POST", "/admin/clock", [("hold", "soon")]).status == 400)
        }
    }
}
