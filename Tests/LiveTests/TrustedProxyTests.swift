import Foundation
import Live
import MockPass
import PassModel
import Testing

/// `X-Forwarded-For` reaches the mock (its throttle's key, a session's connectionIp, the journal)
/// only from a trusted proxy (`passim serve --trusted-proxy`); from any other peer it is dropped, so a
/// client cannot pick a new throttle bucket for each call (docs/CONFORMANCE.md, choice 94).
@Suite(.serialized) struct TrustedProxyTests {
    static func calls(_ server: MockPassServer, addresses: Int) throws -> [Int] {
        let curl = try CurlTransport()
        let url = try server.url(.sp("main")) + "/api/v2/REQ1/configuration"
        return try (1...addresses).map { i in
            try get(
                curl, url,
                headers: [("AP-Device-Identifier", "fingerprint cGFzc2ltLXR2"), ("X-Forwarded-For", "198.51.100.\(i)")]
            ).status
        }
    }

    static func withProxies(_ trusted: TrustedProxies, _ body: (MockPassServer) throws -> Void) async throws {
        var conditions: [LoggedRequest.Host: HostConditions] = [:]
        for sp in liveWorld().serviceProviders { conditions[.sp(sp.name)] = HostConditions(latency: .zero) }
        // A held clock: every call falls in the device's first second, however slow the machine.
        var options = MockPassServer.Options(
            seed: 7, conditions: conditions, clock: LiveClock(heldAt: .simulationStart))
        options.trustedProxies = trusted
        let server = try await MockPassServer.start(world: liveWorld(), options: options)
        do {
            try body(server)
            try await server.shutdown()
        } catch {
            try? await server.shutdown()
            throw error
        }
    }

    @Test func fromAnUntrustedPeerTheHeaderIsDropped() async throws {
        try await Self.withProxies(.none) { server in
            let statuses = try Self.calls(server, addresses: 12)
            #expect(statuses == Array(repeating: 200, count: 11) + [429])
            #expect(server.requestLog().allSatisfy { $0.headers["X-Forwarded-For"] == nil })
        }
    }

    @Test func fromATrustedProxyEachAddressIsItsOwnBucket() async throws {
        try await Self.withProxies(.loopback) { server in
            let statuses = try Self.calls(server, addresses: 12)
            #expect(statuses == Array(repeating: 200, count: 12))
            #expect(server.requestLog().last?.headers["X-Forwarded-For"] == "198.51.100.12")
        }
    }

    @Test func addressesAreReadInOneSpelling() {
        #expect(TrustedProxies.canonical("127.0.0.1") == "127.0.0.1")
        #expect(TrustedProxies.canonical("::ffff:127.0.0.1") == "127.0.0.1")
        #expect(TrustedProxies.canonical("0:0:0:0:0:0:0:1") == "::1")
        #expect(TrustedProxies.canonical("localhost") == nil)
        #expect(TrustedProxies.canonical("10.0.0.0/8") == nil)
        #expect(TrustedProxies(["192.0.2.1", "nope"]) == nil)
        #expect(TrustedProxies(["192.0.2.1"])?.addresses == ["192.0.2.1"])
    }
}
