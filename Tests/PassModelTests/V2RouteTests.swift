import Testing
@testable import PassModel

/// REST v2's one definition: what a client builds is what the mock and the lint recognise.
@Suite struct V2RouteTests {
    static let all: [V2Route] = [
        .configuration(serviceProvider: "REQ 1"), .createSession(serviceProvider: "REQ1"),
        .resumeSession(serviceProvider: "REQ1", code: "C0DE"), .sessionStatus(serviceProvider: "REQ1", code: "C0DE"),
        .authenticate(serviceProvider: "REQ1", code: "C0DE"), .profiles(serviceProvider: "REQ1"),
        .profile(serviceProvider: "REQ1", mvpd: "Cable/Co"), .profileForCode(serviceProvider: "REQ1", code: "C0DE"),
        .authorize(serviceProvider: "REQ1", mvpd: "M1"), .preauthorize(serviceProvider: "REQ1", mvpd: "M1"),
        .logout(serviceProvider: "REQ1", mvpd: "M1"), .partnerSession(serviceProvider: "REQ1", partner: "Apple"),
        .partnerProfile(serviceProvider: "REQ1", partner: "Apple"), .oauthCallback,
    ]

    /// Built, then read back from the URL's path: the same operation, its parameters as sent (escaped,
    /// not decoded: the mock compares them as they came).
    @Test(arguments: all)
    func aBuiltURLIsRecognisedAsItsOperation(_ route: V2Route) throws {
        let url = route.url("https://sp.test", query: [("a", "b")])
        let path = try #require(URLParts(url)?.path)
        let found = try #require(V2Route(method: route.method, path: path), "\(url)")
        #expect(route.allowed.contains(route.method))
        switch route {
        case .configuration:
            #expect(found == .configuration(serviceProvider: "REQ%201"))
        case .profile:
            #expect(found == .profile(serviceProvider: "REQ1", mvpd: "Cable%2FCo"))
        default:
            #expect(found == route)
        }
    }

    @Test func thePathsAreAdobes() {
        #expect(V2Route.configuration(serviceProvider: "R").path == "/api/v2/R/configuration")
        #expect(V2Route.authenticate(serviceProvider: "R", code: "C").path == "/api/v2/authenticate/R/C")
        #expect(V2Route.profileForCode(serviceProvider: "R", code: "C").path == "/api/v2/R/profiles/code/C")
        #expect(V2Route.preauthorize(serviceProvider: "R", mvpd: "M").path == "/api/v2/R/decisions/preauthorize/M")
        #expect(V2Route.partnerSession(serviceProvider: "R", partner: "P").path == "/api/v2/R/sessions/sso/P")
        #expect(V2Route.oauthCallback.url("https://sp.test") == "https://sp.test/api/v2/oauth2/callback")
        #expect(V2Route.sessionStatus(serviceProvider: "R", code: "C").method == "GET")
        #expect(V2Route.resumeSession(serviceProvider: "R", code: "C").method == "POST")
    }

    /// REST v2 is at the SP's origin's root, whatever the SP's base path.
    @Test func theEngineBuildsAtTheSPsOrigin() {
        #expect(
            V2Route.configuration(serviceProvider: "R").url(atSP: "https://sp.auth.adobe.com/adobe-services/")
                == "https://sp.auth.adobe.com/api/v2/R/configuration")
        #expect(
            V2Route.createSession(serviceProvider: "R").url(atSP: "http://127.0.0.1:8080", query: [("a", "b c")])
                == "http://127.0.0.1:8080/api/v2/R/sessions?a=b%20c")
    }

    @Test func aSessionCodesPathIsReadByItsMethod() {
        #expect(V2Route(method: "GET", path: "/api/v2/R/sessions/C") == .sessionStatus(serviceProvider: "R", code: "C"))
        #expect(
            V2Route(method: "POST", path: "/api/v2/R/sessions/C") == .resumeSession(serviceProvider: "R", code: "C"))
    }

    /// An ASCII path is split by bytes, any other by Characters: the same pieces.
    @Test func aPathThatIsNotASCIIIsReadAlike() {
        #expect(V2Route(method: "GET", path: "/api/v2/Ré/configuration") == .configuration(serviceProvider: "Ré"))
        #expect(
            V2Route(method: "POST", path: "/api/v2/R/decisions/authorize/Cé")
                == .authorize(serviceProvider: "R", mvpd: "Cé"))
        #expect(V2Route(method: "GET", path: "/api/v2/é//configuration") == nil)
        #expect(V2Route(method: "GET", path: "/api/v2/R/profiles/code/") == nil)
    }

    @Test func pathsThatAreNoOperationAreNotRecognised() {
        for path in [
            "/api/v2/", "/api/v2/R", "/api/v2/R/", "/api/v2/R//configuration", "/api/v2/R/configurations",
            "/api/v2/R/decisions/x/M", "/api/v2/R/a/b/c/d", "/api/v1/R/configuration", "/x/api/v2/R/configuration",
        ] {
            #expect(V2Route(method: "GET", path: path) == nil, "\(path)")
        }
    }
}
