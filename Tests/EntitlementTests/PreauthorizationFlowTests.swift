import PassModel
import PassXML
import Testing
@testable import Entitlement

/// The preauthorization flows alone, with a core and no engine: one request for the
/// resources the cache does not know, each named once; the cache kept only for the asking token.
@Suite struct PreauthorizationFlowTests {
    typealias F = FlowFixtures

    static func decisions(_ d: [(String, Bool)]) -> HTTPResult {
        F.xml(200, PreauthorizeXML.build(d.map { .init(resourceID: $0.0, authorized: $0.1) }))
    }

    @Test func aRepeatedResourceIsAskedOnceAndAnsweredInTheCallersOrder() {
        var core = F.core(token: F.token())
        var flows = PreauthorizationFlows()
        let sent = F.sent(flows.start(["B", "A", "B"], cache: true, &core, at: F.now))
        #expect(sent.map(\.1.url) == ["https://sp.test/preauthorize"])
        #expect(sent[0].1.parameters.filter { $0.0 == "resource_id" }.map(\.1) == ["B", "A"])
        let done = flows.answered(FlowID(value: 1), Self.decisions([("A", true), ("B", true)]), &core, at: F.now)
        #expect(done == [.deliver(.preauthorizedResources(["B", "A", "B"]))])
        // Both now cached: answered at once, with no request.
        #expect(flows.start(["A"], cache: true, &core, at: F.now) == [.deliver(.preauthorizedResources(["A"]))])
    }

    /// A failed request answers what the cache allowed, and only while the asking token is held.
    @Test func aFailureAnswersFromTheCacheOfTheAskingTokenOnly() {
        var core = F.core(token: F.token("guid-1"))
        var flows = PreauthorizationFlows()
        _ = flows.start(["A"], cache: true, &core, at: F.now)
        _ = flows.answered(FlowID(value: 1), Self.decisions([("A", true)]), &core, at: F.now)
        _ = flows.start(["A", "B"], cache: true, &core, at: F.now)
        #expect(
            flows.answered(FlowID(value: 2), .timeout, &core, at: F.now) == [.deliver(.preauthorizedResources(["A"]))])

        _ = flows.start(["A", "B"], cache: true, &core, at: F.now)
        core.store.store(F.token("guid-2"), userMeta: nil, fromPlatformSSO: false)
        #expect(flows.answered(FlowID(value: 3), .timeout, &core, at: F.now) == [.deliver(.preauthorizedResources([]))])
    }

    /// After a logout, nothing, whatever the answer (BEHAVIOR.md, Overlapping calls).
    @Test func answeredAfterLogoutIsEmpty() {
        var core = F.core(token: F.token())
        var flows = PreauthorizationFlows()
        _ = flows.start(["A"], cache: false, &core, at: F.now)
        core.store.clearTokens()
        let done = flows.answered(FlowID(value: 1), Self.decisions([("A", true)]), &core, at: F.now)
        #expect(done == [.deliver(.preauthorizedResources([]))])
    }
}
