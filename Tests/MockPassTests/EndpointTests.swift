import PassModel
import Testing
@testable import MockPass

/// The mock recognises a path once, through PassModel's routes, and answers what it
/// always answered, the odd paths included.
@Suite struct EndpointTests {
    @Test func eachPathIsItsEndpoint() {
        let sp = LoggedRequest.Host.sp("SP")
        #expect(Endpoint(host: sp, method: "GET", path: "/sessionDevice") == .route(.sessionDevice, parameter: nil))
        #expect(Endpoint(host: sp, method: "GET", path: "/config/REQ1") == .route(.config, parameter: "REQ1"))
        #expect(Endpoint(host: sp, method: "GET", path: "/session") == .service(.webSession, parameter: nil))
        #expect(Endpoint(host: sp, method: "GET", path: "/api/v1/config/R") == .service(.restConfig, parameter: "R"))
        #expect(
            Endpoint(host: sp, method: "GET", path: "/api/v2/R/configuration")
                == .restV2(.configuration(serviceProvider: "R")))
        #expect(
            Endpoint(host: sp, method: "POST", path: "/api/v2/R/sessions/C")
                == .restV2(.resumeSession(serviceProvider: "R", code: "C")))
        #expect(Endpoint(host: sp, method: "GET", path: "/api/v2/nothing") == .restV2(nil))
        #expect(Endpoint(host: sp, method: "GET", path: "/config/") == .configFamily)
        #expect(Endpoint(host: sp, method: "GET", path: "/config/a/b") == .configFamily)
        #expect(Endpoint(host: sp, method: "GET", path: "/sso") == .unknown)
        #expect(Endpoint(host: .idp("Comcast"), method: "GET", path: "/sso") == .idp(.sso))
        #expect(Endpoint(host: .idp("Comcast"), method: "GET", path: "/sessionDevice") == .unknown)
        #expect(Endpoint(host: sp, method: "GET", path: "/logout").isBrowserPage)
        #expect(Endpoint(host: sp, method: "GET", path: "/api/v1/authenticate").isBrowserPage)
        #expect(!Endpoint(host: sp, method: "GET", path: "/api/v1/logout").isBrowserPage)
        #expect(Endpoint(host: sp, method: "GET", path: "/getMetadata").isWebOnly)
        #expect(!Endpoint(host: sp, method: "GET", path: "/getMetadataDevice").isWebOnly)
    }

    @Test func theOddPathsKeepTheirAnswers() {
        var b = Browser(MockPass(world: sampleWorld(), seed: 29))
        let sp = "https://sp.auth.test"
        // Under /config/ without a requestor: the configuration's plain 404, and its method first.
        #expect(b.get(sp + "/config/").status == 404)
        #expect(b.get(sp + "/config/").bodyText.contains("no such resource"))
        #expect(b.post(sp + "/config/a/b", []).status == 405)
        // Anything else unknown: the SP's 404 that lists what it serves.
        let unknown = b.get(sp + "/nothing")
        #expect(unknown.status == 404)
        #expect(unknown.bodyText.contains("This SP serves"))
        #expect(b.get(sp + "/api/v1/nothing").bodyText.contains("This SP serves"))
        // A known path, wrong method: 405 naming the right one.
        #expect(b.get(sp + "/sessionDevice").status == 405)
        #expect(b.get(sp + "/sessionDevice").headers["Allow"] == "POST")
        #expect(b.send(HTTPRequest(method: "PUT", url: sp + "/session")).headers["Allow"] == "POST, GET")
        // An IdP's unknown page and an OAuth2 page of a SAML IdP: 404.
        #expect(b.get(World.defaultIdPURL(for: "Comcast") + "/nothing").status == 404)
        #expect(b.get(World.defaultIdPURL(for: "Comcast") + "/oauth2/authorize").status == 404)
    }
}
