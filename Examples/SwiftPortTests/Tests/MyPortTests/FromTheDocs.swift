// The Swift blocks of Sources/Passim/Passim.docc/TestingYourPort.md, verbatim and in order
// (scripts/check-doc-snippets.py): what a port team copies from the docs must build and pass.

import PassimConformance
import XCTest

final class Adapter: AccessEnablerPort, AccessEnablerHost, EntitlementDelegate {
    var now = Instant.simulationStart
    var world: PortWorld?, keychains: [EngineWire: DeviceKeychain] = [:]  // one shared store per wire
    var apps: [String: AccessEnabler] = [:], out: [PortAction] = []

    func start(_ world: PortWorld) { self.world = world }
    func handle(_ input: PortInput) -> [PortAction] {
        now = input.now; out = []
        var config = world?.configuration ?? EngineConfiguration()
        config.wire = world?.appWires[input.app] ?? config.wire  // a world with both faces
        let keychain = keychains[config.wire] ?? DeviceKeychain()
        keychains[config.wire] = keychain
        let sdk = apps[input.app] ?? AccessEnabler(configuration: config, host: self, keychain: keychain)
        sdk.delegate = self; apps[input.app] = sdk
        switch input.event {
        case .call(let call): sdk.perform(call)
        case .response(let id, let result): sdk.receive(result, for: id)
        case .timer(let id): sdk.timerFired(id)
        case .picker(let choice): sdk.tvProviderPicker(choice)
        }
        return out
    }
    func deliver(_ callback: Callback) { out.append(.callback(callback)) }
    func send(_ request: HTTPRequest, id: RequestID) { out.append(.request(id, request)) }
    func startTimer(_ id: TimerID, at: Instant) { out.append(.startTimer(id, at: at)) }
    func cancelTimer(_ id: TimerID) { out.append(.cancelTimer(id)) }
    func presentBrowser(url: String) { out.append(.presentBrowser(url: url)) }
}

final class ConformanceTests: XCTestCase {
    func testConformance() { XCTAssertConformance { Adapter() } }
}

import PassimConformance
import Testing

@Test func conformance() {
    ConformanceSuite.bundled.expectConformance { Adapter() }
}

extension ConformanceTests {
    func testConformanceOverHTTP() {
        XCTAssertConformance(ConformanceSuite.bundled.network(.live), jobs: 2) { Adapter() }
    }
}

extension ConformanceTests {
    func testConformanceOnRESTv2() {
        XCTAssertConformance(ConformanceSuite.bundled.wire(.restV2), jobs: 2) { Adapter() }
    }
}
