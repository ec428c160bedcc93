import Entitlement
import PassModel
import Testing
@testable import Simulation

@Suite struct InvariantMonitorTests {
    let now = Instant.simulationStart
    /// A configured engine with no token, so only the invariant under test can fire.
    let engine: Engine = {
        var e = Engine(configuration: EngineConfiguration())
        for case .send(let id, _) in e.handle(.setRequestor(requestorID: "R", serviceProviders: nil), at: .simulationStart) {
            let xml = "<config><requestor><id>R</id><name>R</name><mvpds/></requestor></config>"
            _ = e.receive(.response(HTTPResponse(status: 200, contentType: "application/xml", text: xml)), for: id, at: .simulationStart)
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
        m.called(.checkAuthorization(resource: "CNN", data: nil))
        m.delivered(.setToken(token: "t", resource: "CNN"), engine: engine, at: now)
        #expect(m.violations.map(\.number) == [6])
    }

    @Test func preauthorizationMustBeASubsetInRequestOrder() {
        var m = InvariantMonitor(app: "app")
        m.called(.checkPreauthorizedResources(["A", "B", "C"], cache: true))
        m.called(.checkPreauthorizedResources(["A", "B"], cache: true))
        m.delivered(.preauthorizedResources(["A", "C"]), engine: engine, at: now)
        #expect(m.violations.isEmpty)
        m.delivered(.preauthorizedResources(["B", "A"]), engine: engine, at: now)
        #expect(m.violations.map(\.number) == [4])
    }

    @Test func metadataMustEchoItsDictionary() {
        var m = InvariantMonitor(app: "app")
        let d = Value.dict([Value.Entry("opCode", .int(0))])
        m.called(.getMetadata(d))
        m.delivered(.setMetadataStatus(value: .null, encrypted: false, opcode: 0, arguments: .dict([])), engine: engine, at: now)
        #expect(m.violations.map(\.number) == [4])
        m.delivered(.setMetadataStatus(value: .null, encrypted: false, opcode: 0, arguments: d), engine: engine, at: now)
        #expect(m.violations.count == 1)
    }

    @Test func nothingAnswersAQueuedCallBeforeConfiguration() {
        var m = InvariantMonitor(app: "app")
        let unconfigured = Engine(configuration: EngineConfiguration())
        m.called(.checkPreauthorizedResources(["A"], cache: true))
        m.delivered(.preauthorizedResources([]), engine: unconfigured, at: now)
        m.delivered(.displayProviderDialog([]), engine: unconfigured, at: now)
        #expect(m.violations.map(\.number) == [5, 5])
    }

    @Test func everySetRequestorMustComplete() {
        var m = InvariantMonitor(app: "app")
        m.called(.setRequestor(requestorID: "R", serviceProviders: nil))
        m.called(.setRequestor(requestorID: "R", serviceProviders: nil))
        m.delivered(.setRequestorComplete(status: 0), engine: engine, at: now)
        m.settled()
        #expect(m.violations.map(\.number) == [1])
        #expect(m.violations.first?.description.contains("never completed") == true)
    }
}
