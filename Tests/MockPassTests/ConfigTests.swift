import PassModel
import PassXML
import Testing
@testable import MockPass

@Suite struct ConfigTests {
    func mvpdIDs(_ mock: inout MockPass, _ url: String) throws -> [String]? {
        let r = mock.handle(HTTPRequest(method: "GET", url: url), at: .simulationStart)
        guard r.status == 200 else {
            #expect(r.status == 404)
            return nil
        }
        #expect(r.headers["Content-Type"] == "application/xml")
        let c = try ConfigurationXML.parse(r.body)
        #expect(c.requestorID == String(url.split(separator: "/").last ?? ""))
        return c.mvpds.map(\.id)
    }

    @Test func filteredByRequestorAndSP() throws {
        var m = MockPass(world: sampleWorld(), seed: 1)
        #expect(try mvpdIDs(&m, "https://sp.auth.test/config/REQ1") == ["Comcast", "Dish", "TempPass"])
        // REQ2 lists Dish before Comcast: the SP's order wins.
        #expect(try mvpdIDs(&m, "https://sp.auth.test/config/REQ2") == ["Comcast", "Dish"])
        #expect(try mvpdIDs(&m, "https://sp2.auth.test/adobe-services/config/REQ1") == ["Verizon", "Comcast"])
        #expect(try mvpdIDs(&m, "https://sp2.auth.test/adobe-services/config/REQ3") == ["Verizon", "Comcast"])
        #expect(try mvpdIDs(&m, "https://sp2.auth.test/adobe-services/config/REQ2") == nil)
        #expect(try mvpdIDs(&m, "https://sp.auth.test/config/REQ3") == nil)
        #expect(try mvpdIDs(&m, "https://sp.auth.test/config/NOPE") == nil)
        #expect(try mvpdIDs(&m, "https://sp.auth.test/config/") == nil)
        #expect(try mvpdIDs(&m, "https://sp.auth.test/config/REQ1/extra") == nil)
    }

    @Test func theMVPDFlagsSurviveTheConfiguration() throws {
        var m = MockPass(world: sampleWorld(), seed: 1)
        let r = m.handle(HTTPRequest(method: "GET", url: "https://sp.auth.test/config/REQ1"), at: .simulationStart)
        let c = try ConfigurationXML.parse(r.body)
        #expect(c.mvpds.last?.tempPass == true)
        #expect(c.mvpds.first?.displayName == "Comcast XFINITY")
    }

    @Test func hostMatchingUsesTheLongestBaseURL() {
        let world = World(
            serviceProviders: [
                World.ServiceProvider(name: "root", url: "https://shared.test"),
                World.ServiceProvider(name: "deep", url: "https://shared.test/deep"),
            ],
            identityProviders: [World.IdentityProvider(mvpdID: "Cox")])
        let m = MockPass(world: world, seed: 0)
        #expect(m.host(for: "https://shared.test/deep/config/x") == .sp("deep"))
        #expect(m.host(for: "https://shared.test/deep") == .sp("deep"))
        #expect(m.host(for: "https://SHARED.test/deeper/config/x") == .sp("root"))
        #expect(m.host(for: "https://shared.test") == .sp("root"))
        #expect(m.host(for: "http://shared.test/deep") == nil)
        #expect(m.host(for: "https://cox.idp.test/sso?x=1") == .idp("Cox"))
        #expect(m.host(for: "https://other.test/") == nil)
        #expect(m.host(for: "not a url") == nil)
        #expect(World.defaultIdPURL(for: "Cox") == "https://cox.idp.test")
    }
}
