import Foundation
import Live
import MockPass
import PassModel
import Testing

/// Issue 44 row 2: a server started without a seed (`passim serve` without `--seed`) draws every
/// token, secret, code and trace from the system's secure random source, so two servers never give
/// the same and one value tells nothing of another; with a seed they stay reproducible.
@Suite(.serialized) struct UnseededServerTests {
    static func world() -> World {
        var w = liveWorld()
        w.requestors.append(World.Requestor(id: "DCR", softwareStatement: "statement-unseeded"))
        return w
    }

    /// The first client's id and secret and the first REST API v2 error's trace of a new server.
    static func firstValues(seed: UInt64?) async throws -> [String] {
        try await withServer(world: world(), seed: seed) { server in
            let curl = try CurlTransport()
            let base = try server.url(.sp("main"))
            let registered = try response(
                curl.perform(
                    HTTPRequest(
                        method: "POST", url: base + "/o/client/register",
                        headers: [("Content-Type", "application/json")],
                        body: Array(#"{"software_statement":"statement-unseeded"}"#.utf8)),
                    timeout: .seconds(5)))
            #expect(registered.status == 201, "\(registered.bodyText)")
            let refused = try get(curl, base + "/api/v2/NOSUCH/configuration")
            // The drawn values only: `client_id_issued_at` is the live clock's.
            func field(_ r: HTTPResponse, _ name: String) throws -> String {
                let object = try JSONSerialization.jsonObject(with: Data(r.body)) as? [String: Any]
                return try #require(object?[name] as? String, "\(r.status) \(r.bodyText)")
            }
            return [
                try field(registered, "client_id"), try field(registered, "client_secret"), try field(refused, "trace"),
            ]
        }
    }

    @Test func withoutASeedTwoServersDrawDifferentSecrets() async throws {
        let first = try await Self.firstValues(seed: nil)
        let second = try await Self.firstValues(seed: nil)
        #expect(first[0] != second[0], "the first client_id differs")
        #expect(first[1] != second[1], "the first client_secret differs")
        #expect(first[2] != second[2], "the first error trace differs")
    }

    @Test func withASeedTwoServersDrawTheSame() async throws {
        let first = try await Self.firstValues(seed: 7)
        let second = try await Self.firstValues(seed: 7)
        #expect(first == second)
    }
}
