import Entitlement
import PassModel
import Testing
@testable import Simulation

@Suite struct InvariantMonitorTests {
    let now = Instant.simulationStart
    /// A configured engine with no token, so only the invariant under test can fire.
    let engine: Engine = {
        var e = Engine(configuration: EngineConfiguration())
        for case .send(let id, _) in e.step(.call(.setRequestor(requestorID: "R", serviceProviders: nil), sharedStore: nil), at: .simulationStart) {
            let xml = "<config><requestor><id>R</id><name>R</name><mvpds/></requestor></config>"
            _ = e.step(.response(id, .response(HTTPResponse(status: 200, contentType: "application/xml", text: xml))), at: .simulationStart)
        }
        return e
    }()

    @Test func theTestEngineIsConfigured() {
        #expect(engine.currentConfiguration != nil)
    }

    @Test func unaskedCallbacksViolateTheirInvariant() {
        var m = InvariantMonitor(app: "app")
        m.delivered(.setRequestorComplete(status: 1), engine: engine, at: now)
        m.delivered(.tokenRequestFailed(resource: "CNN", errorCode: "x", details: ""), engine: engine, at: now)
        m.delivered(.selectedProvider(nil), engine: engine, at: now)
        #expect(m.violations.map(\.number) == [1, 3, 4])
    }

    @Test func setTokenWithoutAValidTokenViolatesSix() {
        var m = InvariantMonitor(app: "app")
        m.called(.checkAuthorization(resource: "CNN", data: nil), engine: engine)
        m.delivered(.setToken(token: "t", resource: "CNN"), engine: engine, at: now)
        #expect(m.violations.map(\.number) == [6])
    }

    @Test func preauthorizationMustBeASubsetInRequestOrder() {
        var m = InvariantMonitor(app: "app")
        m.called(.checkPreauthorizedResources(["A", "B", "C"], cache: true), engine: engine)
        m.called(.checkPreauthorizedResources(["A", "B"], cache: true), engine: engine)
        m.delivered(.preauthorizedResources(["A", "C"]), engine: engine, at: now)
        #expect(m.violations.isEmpty)
        m.delivered(.preauthorizedResources(["B", "A"]), engine: engine, at: now)
        #expect(m.violations.map(\.number) == [4])
    }

    @Test func preauthorizationAnswersMayComeOutOfCallOrder() {
        var m = InvariantMonitor(app: "app")
        m.called(.checkPreauthorizedResources(["R1", "R2"], cache: true), engine: engine)
        m.called(.checkPreauthorizedResources(["R4"], cache: true), engine: engine)
        m.delivered(.preauthorizedResources([]), engine: engine, at: now)
        m.delivered(.preauthorizedResources(["R2"]), engine: engine, at: now)
        #expect(m.violations.isEmpty)
        m.delivered(.preauthorizedResources([]), engine: engine, at: now)
        #expect(m.violations.map(\.number) == [4], "a third answer for two requests")
    }

    @Test func metadataMustEchoItsDictionary() {
        var m = InvariantMonitor(app: "app")
        let d = Value.dict([Value.Entry("opCode", .int(0))])
        m.called(.getMetadata(d), engine: engine)
        m.delivered(.setMetadataStatus(value: .null, encrypted: false, opcode: 0, arguments: .dict([])), engine: engine, at: now)
        #expect(m.violations.map(\.number) == [4])
        m.delivered(.setMetadataStatus(value: .null, encrypted: false, opcode: 0, arguments: d), engine: engine, at: now)
        #expect(m.violations.count == 1)
    }

    @Test func anAnswerToACallMadeWhileConfiguredMayComeDuringReconfiguration() {
        var m = InvariantMonitor(app: "app")
        let d = Value.dict([Value.Entry("opCode", .int(2))])
        m.called(.getMetadata(d), engine: engine)
        let unconfigured = Engine(configuration: EngineConfiguration())
        m.delivered(.setMetadataStatus(value: .null, encrypted: false, opcode: 2, arguments: d), engine: unconfigured, at: now)
        #expect(m.violations.isEmpty)
    }

    @Test func aLoginEndsWithItsStatusUnlessSuperseded() {
        var m = InvariantMonitor(app: "app")
        m.input(call: .getAuthentication(forceAuthn: false, data: nil, filter: nil), loginBefore: 1, loginAfter: 2, delivered: [])
        #expect(m.violations.isEmpty, "superseded by a new getAuthentication")
        m.input(call: nil, loginBefore: 2, loginAfter: nil, delivered: [.setAuthenticationStatus(status: 1, errorCode: "")])
        #expect(m.violations.isEmpty)
        m.input(call: nil, loginBefore: 3, loginAfter: nil, delivered: [])
        #expect(m.violations.map(\.number) == [2], "a response ended login 3 silently")
        m.input(call: .checkAuthentication, loginBefore: nil, loginAfter: nil,
                delivered: [.setAuthenticationStatus(status: 0, errorCode: ""), .setAuthenticationStatus(status: 0, errorCode: "")])
        #expect(m.violations.map(\.number) == [2, 2])
    }

    @Test func nothingOfALoginAfterItEnded() {
        var m = InvariantMonitor(app: "app")
        m.input(call: nil, loginBefore: nil, loginAfter: nil, delivered: [.setAuthenticationStatus(status: 0, errorCode: "")])
        #expect(m.violations.isEmpty, "a tvOS logout's answer")
        m.input(call: nil, loginBefore: nil, loginAfter: nil, delivered: [.setAuthenticationStatus(status: 1, errorCode: "")])
        #expect(m.violations.map(\.number) == [7])
    }

    @Test func everySetRequestorMustComplete() {
        var m = InvariantMonitor(app: "app")
        m.called(.setRequestor(requestorID: "R", serviceProviders: nil), engine: engine)
        m.called(.setRequestor(requestorID: "R", serviceProviders: nil), engine: engine)
        m.delivered(.setRequestorComplete(status: 0), engine: engine, at: now)
        m.settled()
        #expect(m.violations.map(\.number) == [1])
        #expect(m.violations.first?.description.contains("never completed") == true)
    }
}
