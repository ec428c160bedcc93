import Foundation
import Live
import MockPass
import PassModel
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the admin endpoint lets through (its refusals are the `admin-*` files of
/// `Fixtures/hostile/http/`), where it listens, and the name the hosts write into their URLs.
@Suite(.serialized) struct AdminSecurityTests {
    @Test func eachServerHasItsOwnRandomToken() async throws {
        let tokens = try await (0..<2).asyncMap { _ in try await withServer { $0.adminToken } }
        #expect(tokens.allSatisfy { $0.count == 64 && $0.allSatisfy(\.isHexDigit) })
        #expect(tokens[0] != tokens[1])
        await #expect(throws: LiveError.self) {
            try await MockPassServer.start(world: liveWorld(), options: .init(adminToken: "two words"))
        }
    }

    @Test func itsOwnNamesAndOriginsAndTheLogsPagingAreAccepted() async throws {
        try await withServer { server in
            let curl = try CurlTransport()
            let bearer = ("Authorization", "Bearer " + server.adminToken)
            for host in ["localhost:\(server.adminPort)", "127.0.0.1:\(server.adminPort)"] {
                let r = try response(
                    curl.perform(
                        HTTPRequest(
                            method: "GET", url: server.adminURL + "/admin/clock",
                            headers: [bearer, ("Host", host), ("Origin", "http://" + host)]),
                        timeout: .seconds(5)))
                #expect(r.status == 200, "\(host): \(r.bodyText)")
            }
            let paged = try response(
                curl.perform(
                    HTTPRequest(
                        method: "GET", url: server.adminURL + "/admin/log?after=0&limit=5",
                        headers: [bearer]), timeout: .seconds(5)))
            #expect(paged.status == 200)
            let unknown = try server.admin(curl, "POST", "/admin/clock", [("advance", "1h"), ("speed", "2")])
            #expect(unknown.status == 400 && unknown.bodyText.contains("unknown parameter speed"))
            let net = try server.admin(
                curl, "POST", "/admin/net", [("host", "sp:alt"), ("fail", "1"), ("status", "502")])
            #expect(net.status == 200)
            #expect(try get(curl, try server.url(.sp("alt")) + "/config/REQ1").status == 502)
        }
    }

    @Test func onAWildcardAddressTheAdminStaysOnLoopbackAndURLsNameTheMachine() async throws {
        let wildcard = try await MockPassServer.start(world: liveWorld(), options: .init(host: "0.0.0.0"))
        var buffer = [CChar](repeating: 0, count: 256)
        #expect(gethostname(&buffer, 255) == 0)
        let hostname = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #expect(wildcard.adminURL.hasPrefix("http://127.0.0.1:"))
        #expect(wildcard.hosts.allSatisfy { $0.liveURL.hasPrefix("http://\(hostname):") }, "\(wildcard.hosts)")
        try await wildcard.shutdown()

        let named = try await MockPassServer.start(world: liveWorld(), options: .init(publicHost: "passim.example"))
        let config = try get(try CurlTransport(), "http://127.0.0.1:\(try named.port(.sp("main")))/config/REQ1")
        #expect(config.status == 200)
        #expect(try named.url(.sp("alt")) == "http://passim.example:\(try named.port(.sp("alt")))/adobe-services")
        try await named.shutdown()
    }
}

extension Sequence {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var out: [T] = []
        for element in self { out.append(try await transform(element)) }
        return out
    }
}
