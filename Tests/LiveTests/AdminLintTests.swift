import Foundation
import Live
import MockPass
import PassModel
import Testing

/// `GET /admin/lint` and the answer each log line records.
@Suite(.serialized) struct AdminLintTests {
    @Test func lintAnswersTheReportOnTheLogAndTheLogRecordsAnswers() async throws {
        var conditions: [LoggedRequest.Host: HostConditions] = [:]
        let world = liveWorld()
        for sp in world.serviceProviders { conditions[.sp(sp.name)] = HostConditions(latency: .zero) }
        var options = MockPassServer.Options(seed: 7, conditions: conditions)
        options.lintReport = { log, dropped, json in
            "\(log.count) \(log.map { String($0.status ?? 0) }.joined(separator: ",")) \(dropped) \(json)\n"
        }
        let server = try await MockPassServer.start(world: world, options: options)
        do {
            let curl = try CurlTransport()
            _ = try get(curl, try server.url(.sp("main")) + "/config/REQ1")
            _ = try get(curl, try server.url(.sp("main")) + "/no-such-path")
            #expect(try server.admin(curl, "GET", "/admin/lint").bodyText == "2 200,404 0 false\n")
            #expect(try server.admin(curl, "GET", "/admin/lint?format=json").bodyText.hasSuffix(" true\n"))
            #expect(try server.admin(curl, "POST", "/admin/lint").status == 405)
            let log = try server.admin(curl, "GET", "/admin/log")
            let lines = log.bodyText.split(separator: "\n")
            let first = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
            #expect(first["status"] as? Int == 200)
            try await server.shutdown()
        } catch {
            try? await server.shutdown()
            throw error
        }
    }

    @Test func withoutLintThePathIsNotFound() async throws {
        try await withServer { server in
            let curl = try CurlTransport()
            #expect(try server.admin(curl, "GET", "/admin/lint").status == 404)
        }
    }
}
