import Foundation
import MockPass
import PassModel
import Scenario
import ScenarioSyntax
import Testing

/// `passim serve --adobe` serves `StarterWorld.adobe`; docs/SERVE.md points users at the same text in
/// `Fixtures/worlds/adobe.scenario`. The two must not drift apart, and the world must be Adobe's layout.
@Suite struct StarterWorldTests {
    @Test func theAdobeWorldIsTheFixtureFileAndAdobesHostLayout() throws {
        let file = try String(contentsOfFile: packageRoot + "/Fixtures/worlds/adobe.scenario", encoding: .utf8)
        #expect(file == StarterWorld.adobe + "\n")
        let parsed = try ScenarioParser.parseWorld(StarterWorld.adobe, path: "adobe.scenario")
        let world = WorldBuilder.setup(for: parsed).world
        #expect(
            world.serviceProviders.map(\.url) == [
                "https://sp.auth.adobe.com/adobe-services", "https://api.auth.adobe.com",
            ])
        #expect(world.serviceProviders.allSatisfy { $0.mvpds.map(\.id) == ["PassimCable"] })
        #expect(world.identityProviders.map(\.url) == ["https://passimcable.idp.test"])
    }
}
