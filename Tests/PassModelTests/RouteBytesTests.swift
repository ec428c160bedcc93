import Testing

@testable import PassModel

/// `Route.route(atSPPath:)` matches an ASCII path over its bytes: the same answers as by String
/// comparison (`route(characters:)`), on paths that are routes and paths that nearly are.
@Suite struct RouteBytesTests {
    @Test func theStaticTemplatesAreTheTemplates() {
        #expect(Route.fixedTemplates.map(\.0) == Route.allCases.filter { r in !r.pathTemplate.contains { $0 == "{" } })
        for (route, head) in Route.fixedTemplates { #expect(route.pathTemplate == head.description) }
        #expect(
            Route.variableTemplates.map(\.0) == Route.allCases.filter { r in r.pathTemplate.contains { $0 == "{" } })
        for (route, head, tail) in Route.variableTemplates {
            #expect(route.pathTemplate == head.description + "{…}" + tail.description)
        }
    }

    static let paths: [String] = {
        var paths = [
            "", "/", "/config", "/config/", "/config/R", "/config/R/", "/config/R/x", "/config//", "/reggie/v1/",
            "/reggie/v1/regcode", "/reggie/v1//regcode", "/reggie/v1/R/regcode", "/reggie/v1/R/x/regcode",
            "/reggie/v1/R/regcodex", "/api/v1/checkauthn/", "/api/v1/checkauthn/C", "/api/v1/checkauthn/C/",
            "/api/v1/logout", "/api/v1/logou", "/api/v1/logoutx", "/logout", "/logout/", "x/logout", "/LOGOUT",
            "/o/client/token", "/o/client/register", "/sessionDevice\r\n", "/config/\r\n", "/config/é",
            "/config/e\u{301}", "/\u{212A}", "/config/R%2F", "/api/v1/checkauthn/a b",
        ]
        for route in Route.allCases {
            paths.append(route.path())
            paths.append(route.path("P"))
            paths.append(route.path("a/b"))
            paths.append(route.path() + "/")
            paths.append(String(route.path("Q").dropLast()))
            paths.append(String(route.path("Q").dropFirst()))
        }
        return paths
    }()

    @Test func theByteMatchIsTheStringMatch() {
        for path in Self.paths {
            let bytes = Route.route(atSPPath: path), characters = Route.route(characters: path)
            #expect(bytes?.route == characters?.route && bytes?.parameter == characters?.parameter, "\(path)")
        }
    }
}
