import Testing
@testable import PassModel

/// The mock's other endpoints, defined once beside `Route`.
@Suite struct ServiceRouteTests {
    @Test(arguments: ServiceRoute.allCases)
    func aBuiltPathIsRecognisedAsItsRoute(_ route: ServiceRoute) throws {
        let path = route.path("REQ1")
        let found = try #require(ServiceRoute.route(atSPPath: path), "\(path)")
        #expect(found.route == route)
        #expect(found.parameter == (route == .restConfig ? "REQ1" : nil))
        #expect(route.url("https://sp.test", "REQ1") == "https://sp.test" + path)
    }

    /// The families' paths are disjoint: the mock may look them up in any order.
    @Test func noPathIsTwoEndpoints() {
        for route in ServiceRoute.allCases {
            let path = route.path("REQ1")
            #expect(Route.route(atSPPath: path) == nil, "\(path)")
            #expect(!path.hasPrefix(V2Route.prefix), "\(path)")
            #expect(IdPRoute(path: path) == nil, "\(path)")
        }
        for route in Route.allCases {
            #expect(ServiceRoute.route(atSPPath: route.path("REQ1")) == nil, "\(route)")
        }
    }

    @Test func underAnSPThePathMustBeExact() {
        #expect(ServiceRoute.route(atSPPath: "/session")?.route == .webSession)
        #expect(ServiceRoute.route(atSPPath: "/session/") == nil)
        #expect(ServiceRoute.route(atSPPath: "/api/v1/config/") == nil)
        #expect(ServiceRoute.route(atSPPath: "/api/v1/config/A/B") == nil)
        #expect(ServiceRoute.route(atSPPath: "/api/v1/config/A%20B")?.parameter == "A%20B")
        #expect(ServiceRoute.webSession.methods == ["POST", "GET"])
    }

    @Test func theIdPsPages() {
        #expect(IdPRoute(path: "/sso") == .sso)
        #expect(IdPRoute(path: "/oauth2/token")?.isOAuth2 == true)
        #expect(IdPRoute.sso.isOAuth2 == false)
        #expect(IdPRoute.platformSSO.url("https://idp.test") == "https://idp.test/platform-sso")
        #expect(IdPRoute(path: "/sso/") == nil)
    }

    @Test func theOriginRootFamilies() {
        #expect(Route.clientRegister.path().hasPrefix(RoutePrefix.clientRegistration))
        #expect(Route.registrationCode.path("R").hasPrefix(RoutePrefix.registrationServiceV1))
        #expect(ServiceRoute.individualisation.path().hasPrefix(RoutePrefix.individualisation))
        #expect(RoutePrefix.originRoot.contains(RoutePrefix.restV2))
    }
}

/// passim serve's admin endpoint, defined once beside the wire.
@Suite struct AdminRouteTests {
    @Test func theAdminPaths() {
        #expect(
            AdminRoute.allCases.map(\.path).joined(separator: ", ")
                == "/admin/clock, /admin/net, /admin/log, /admin/lint, /admin/hosts, /admin/world, /admin/login, /admin/stores"
        )
        #expect(AdminRoute(path: "/admin/log") == .log)
        #expect(AdminRoute(path: "/admin/log/") == nil)
        #expect(
            AdminRoute.log.url("http://127.0.0.1:9", query: [("after", "3"), ("limit", "10")])
                == "http://127.0.0.1:9/admin/log?after=3&limit=10")
    }
}
