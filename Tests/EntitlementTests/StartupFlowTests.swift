import PassModel
import PassXML
import Testing
@testable import Entitlement

/// The startup flow alone, with a core and no engine: the fetch from every SP, the merge in
/// order of arrival, the superseded fetch, the deadline, and the queue it hands back.
@Suite struct StartupFlowTests {
    typealias F = FlowFixtures

    static func config(_ mvpds: [String]) -> HTTPResult {
        F.xml(
            200,
            ConfigurationXML.build(
                SPConfiguration(
                    requestorID: "REQ", requestorName: "REQ", mvpds: mvpds.map { MVPD(id: $0, displayName: $0) })))
    }

    /// BEHAVIOR.md, Startup: first responder's list in its order, then each later one's new MVPDs,
    /// each MVPD keeping the SP it came from; the calls that waited start after `setRequestorComplete(1)`.
    @Test func mergesInOrderOfArrivalAndHandsBackTheQueue() {
        var core = F.core()
        var flow = StartupFlow()
        let queued = flow.enqueue(.checkAuthentication)
        #expect(queued)
        let actions = flow.fetch("REQ", serviceProviders: ["a.test", "https://b.test/"], &core, at: F.now)
        let sent = F.sent(actions)
        #expect(sent.map(\.1.url) == ["https://a.test/config/REQ", "https://b.test/config/REQ"])
        #expect(core.requestor == nil, "no configuration while a fetch is out")
        #expect(flow.ownTimers.count == 1 && flow.outstanding.allSatisfy { $0.deadline == nil })

        // b answers first: its list leads.
        let first = flow.answered(sent[1].0, Self.config(["B", "SHARED"]), &core)
        #expect(first.actions.isEmpty && first.queue.isEmpty)
        let last = flow.answered(sent[0].0, Self.config(["SHARED", "A"]), &core)
        #expect(F.callbacks(last.actions) == ["setRequestorComplete(1)"])
        #expect(last.queue == [.checkAuthentication])
        #expect(core.requestor?.mvpds.map(\.id) == ["B", "SHARED", "A"])
        #expect(core.requestor?.mvpds.map(\.spURL) == ["https://b.test", "https://b.test", "https://a.test"])
        let queuedOnceConfigured = flow.enqueue(.checkAuthentication)
        #expect(!queuedOnceConfigured, "configured: calls run at once")
        #expect(flow.outstanding.isEmpty && flow.ownTimers.isEmpty)
    }

    /// A new `setRequestor` while a fetch is out ends the old one with 0 (invariant 1); its late
    /// answer is no longer the flow's.
    @Test func aSecondFetchSupersedesTheFirst() {
        var core = F.core()
        var flow = StartupFlow()
        let old = F.sent(flow.fetch("REQ", serviceProviders: nil, &core, at: F.now))
        let oldDeadline = flow.ownTimers[0].0
        let again = flow.fetch("REQ", serviceProviders: nil, &core, at: F.now)
        #expect(again.first == .cancelTimer(oldDeadline))
        #expect(F.callbacks(again) == ["setRequestorComplete(0)"])
        #expect(flow.claim { $0.id == old[0].0 } == nil)
        #expect(flow.answered(old[0].0, Self.config(["A"]), &core).actions.isEmpty)
    }

    /// The deadline with no usable answer fails the fetch; the queue stays for the next `setRequestor`.
    @Test func theDeadlineWithNothingUsableFailsAndKeepsTheQueue() {
        var core = F.core()
        var flow = StartupFlow()
        _ = flow.fetch("REQ", serviceProviders: nil, &core, at: F.now)
        let queued = flow.enqueue(.getAuthentication(forceAuthn: false, data: nil, filter: nil))
        #expect(queued)
        let settled = flow.deadlinePassed(&core)
        #expect(F.callbacks(settled.actions) == ["setRequestorComplete(0)"])
        #expect(settled.queue.isEmpty && flow.queue.count == 1 && core.requestor == nil)
    }

    /// A 429 says `CFG429` as it arrives (BEHAVIOR.md, Throttling), before the fetch settles.
    @Test func aThrottledAnswerSaysSoFirst() {
        var core = F.core()
        var flow = StartupFlow()
        let sent = F.sent(flow.fetch("REQ", serviceProviders: nil, &core, at: F.now))
        let settled = flow.answered(sent[0].0, F.xml(429, ""), &core)
        #expect(F.callbacks(settled.actions) == ["status(CFG429)", "setRequestorComplete(0)"])
    }
}
