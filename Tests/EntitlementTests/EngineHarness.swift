import PassModel
import PassXML
@testable import Entitlement

/// Drives the engine by hand: the test plays the network and the clock.
struct EngineHarness {
    var engine = Engine(configuration: EngineConfiguration(defaultServiceProvider: "https://sp.test"))
    var now = Instant.simulationStart
    var callbacks: [Callback] = []
    var sent: [(RequestID, HTTPRequest)] = []
    var timers: [TimerID: Instant] = [:]
    var sharedStore: SharedAuthentication?
    /// Pages the SDK presented itself (SFSafariViewController, no callback).
    var presented: [String] = []

    mutating func absorb(_ actions: [EngineAction]) {
        for a in actions {
            switch a {
            case .deliver(let c): callbacks.append(c)
            case .send(let id, let r): sent.append((id, r))
            case .startTimer(let id, let at): timers[id] = at
            case .cancelTimer(let id): timers[id] = nil
            case .writeSharedStore(let shared): sharedStore = shared
            case .presentBrowser(let url): presented.append(url)
            }
        }
    }

    /// The app calls the API; the harness plays the device's shared store, as a runtime does.
    mutating func call(_ c: Call) { absorb(engine.step(.call(c, sharedStore: sharedStore), at: now)) }

    mutating func answer(_ id: RequestID, _ result: HTTPResult) { absorb(engine.step(.response(id, result), at: now)) }

    mutating func takeCallbacks() -> [String] {
        defer { callbacks = [] }
        return callbacks.map(\.description)
    }

    /// Moves the clock, firing due timers in time order.
    mutating func advance(_ d: Millis) {
        let target = now + d
        while let (id, at) = timers.filter({ $0.value <= target }).min(by: { ($0.value, $0.key) < ($1.value, $1.key) })
        {
            timers[id] = nil
            now = at
            absorb(engine.step(.timer(id), at: now))
        }
        now = target
    }

    static func config(_ requestor: String, _ mvpds: [(String, String)]) -> HTTPResult {
        let c = SPConfiguration(
            requestorID: requestor, requestorName: requestor,
            mvpds: mvpds.map { MVPD(id: $0.0, displayName: $0.1) })
        return .response(HTTPResponse(status: 200, contentType: "application/xml", text: ConfigurationXML.build(c)))
    }

    static func token(mvpd: String, guid: String = "guid-1", expires: Instant) -> HTTPResult {
        let t = AuthnToken(
            guid: guid, requestorID: "REQ1", domainName: "adobe.com", expires: expires, mvpdID: mvpd,
            deviceID: "d", nameID: "n", sessionIndex: "s")
        return .response(
            HTTPResponse(status: 200, contentType: "application/xml", text: SessionDeviceXML.build(.token(t))))
    }
}
