import Testing
@testable import PassModel

/// The one definition of each endpoint: what the engine builds is what the others recognise.
@Suite struct RouteTests {
    static let bases = ["https://sp.auth.adobe.com/adobe-services", "https://sp.test", "https://sp.test/a/b"]

    @Test(arguments: Route.allCases)
    func aBuiltURLIsRecognisedAsItsRoute(_ route: Route) throws {
        for base in Self.bases {
            let url = route.url(base, "REQ 1", query: [("a", "b")])
            let path = try #require(URLParts(url)?.path)
            let found = try #require(Route.recognise(path: path), "\(url)")
            #expect(found.route == route, "\(url)")
            #expect(path.contains(route.pathEnding), "\(url)")
            #expect(found.parameter == (route.url(base, "x") == route.url(base) ? nil : "REQ%201"), "\(url)")
        }
    }

    /// An ASCII path is matched on its bytes, any other by Characters: the two agree on ASCII
    /// paths, those of every route and paths that are none of them.
    @Test(arguments: Route.allCases)
    func bytesAndCharactersAgree(_ route: Route) {
        let paths = [
            route.path("REQ1"), route.path(), "/x" + route.path("a/b"), route.path("") + "/", route.pathEnding,
            String(route.path("R").dropFirst(2)), "/", "",
        ]
        for path in paths {
            let bytes = Route.recognise(asciiPath: path), characters = Route.recognise(characters: path)
            #expect(bytes?.route == characters?.route, "\(path)")
            #expect(bytes?.parameter == characters?.parameter, "\(path)")
        }
        #expect(Route.recognise(path: "/é" + route.path("R"))?.route == route)
    }

    @Test func theLongerPathWins() {
        #expect(Route.recognise(path: "/adobe-services/api/v1/logout")?.route == .restLogout)
        #expect(Route.recognise(path: "/adobe-services/logout")?.route == .logout)
        #expect(Route.recognise(path: "/adobe-services/authenticate/freepreview")?.route == .freePreview)
    }

    @Test func pathsThatAreNoneOfThemAreNotRecognised() {
        for path in [
            "/", "/config/", "/reggie/v1//regcode", "/reggie/v1/a/b/regcode", "/api/v1/checkauthn/", "/sessionDevices",
            "/api/v2/REQ1/configuration",
        ] {
            #expect(Route.recognise(path: path) == nil, "\(path)")
        }
    }

    /// The mock's routing: exactly the path under the SP, the variable part as sent (not decoded).
    @Test func underAnSPThePathMustBeExact() {
        #expect(Route.route(atSPPath: "/sessionDevice")?.route == .sessionDevice)
        #expect(Route.route(atSPPath: "/x/sessionDevice") == nil)
        #expect(
            Route.route(atSPPath: "/reggie/v1/A%20B/regcode").map { [$0.route.method, $0.parameter ?? ""] } == [
                "POST", "A%20B",
            ])
        #expect(Route.route(atSPPath: "/x/reggie/v1/A/regcode") == nil)
        #expect(Route.route(atSPPath: "/api/v1/logout")?.route == .restLogout)
        #expect(Route.route(atSPPath: "/api/v1/checkauthn/C/D") == nil)
    }

    @Test func theURLsAreTheOnesTheEngineAlwaysSent() {
        #expect(Route.config.url("https://sp.test", "REQ1") == "https://sp.test/config/REQ1")
        #expect(Route.registrationCode.url("https://sp.test", "REQ1") == "https://sp.test/reggie/v1/REQ1/regcode")
        #expect(
            Route.checkAuthentication.url("https://sp.test", "C0DE", query: [("requestor", "R")])
                == "https://sp.test/api/v1/checkauthn/C0DE?requestor=R")
        #expect(Route.clientToken.url("https://sp.test") == "https://sp.test/o/client/token")
    }
}
