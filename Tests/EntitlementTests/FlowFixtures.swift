import PassModel
import PassXML
@testable import Entitlement

/// What the per-flow tests build a flow's world from, without an `Engine`: a core that
/// knows a requestor and, when asked, holds an authN token; answers as the SP writes them.
enum FlowFixtures {
    static let now = Instant.simulationStart
    static let sp = "https://sp.test"
    static let mvpd = MVPD(id: "X", displayName: "X", spURL: sp)

    static func core(platform: Platform = .ios, token: AuthnToken? = nil) -> EngineCore {
        var core = EngineCore(
            configuration: EngineConfiguration(platform: platform, defaultServiceProvider: sp))
        core.requestor = Configuration(requestorID: "REQ", mvpds: [mvpd])
        if let token { core.store.store(token, userMeta: nil, fromPlatformSSO: false) }
        return core
    }

    static func token(_ guid: String = "guid-1") -> AuthnToken {
        AuthnToken(
            guid: guid, requestorID: "REQ", domainName: "adobe.com", expires: now + .seconds(3600), mvpdID: "X",
            deviceID: "d", nameID: "n", sessionIndex: "s")
    }

    static func authz(_ resource: String, for token: AuthnToken) -> AuthzToken {
        AuthzToken(
            sessionGUID: token.guid, requestorID: "REQ", resourceID: resource, mvpdID: "X", deviceID: "d",
            expires: now + .seconds(600))
    }

    static func xml(_ status: Int, _ text: String) -> HTTPResult {
        .response(HTTPResponse(status: status, contentType: "application/xml", text: text))
    }

    /// The requests among `actions`, in order.
    static func sent(_ actions: [EngineAction]) -> [(RequestID, HTTPRequest)] {
        actions.compactMap { if case .send(let id, let r) = $0 { (id, r) } else { nil } }
    }

    static func callbacks(_ actions: [EngineAction]) -> [String] {
        actions.compactMap { if case .deliver(let c) = $0 { c.description } else { nil } }
    }
}
