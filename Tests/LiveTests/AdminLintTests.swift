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
        options.lintReport = { log, dropped, json, _ in
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

    /// The report is judged on a thread of its own: while it takes its time another host answers at
    /// once, and a shutdown does not wait for it (the report gives up and the request gets 503 or a
    /// closed connection). Before, judging 10,000 requests of one device held every host for 38 s and
    /// an exit for 33.
    @Test func aLongReportBlocksNoHostAndNoShutdown() async throws {
        let world = liveWorld()
        var conditions: [LoggedRequest.Host: HostConditions] = [:]
        for sp in world.serviceProviders { conditions[.sp(sp.name)] = HostConditions(latency: .zero) }
        var options = MockPassServer.Options(seed: 7, conditions: conditions)
        let started = LockedFlag()
        options.lintReport = { _, _, _, stopping in
            started.set()
            // As long as a judge of a huge log, unless the server stops it.
            let clock = ContinuousClock()
            let end = clock.now + .seconds(60)
            while clock.now < end {
                if stopping() { return nil }
                Thread.sleep(forTimeInterval: 0.01)
            }
            return "done\n"
        }
        let server = try await MockPassServer.start(world: world, options: options)
        let adminURL = server.adminURL, token = server.adminToken
        let lint = Thread {
            let curl = try? CurlTransport()
            _ = curl?.perform(
                HTTPRequest(
                    method: "GET", url: adminURL + "/admin/lint", headers: [("Authorization", "Bearer " + token)]),
                timeout: .seconds(90))
        }
        lint.start()
        for _ in 0..<200 where !started.isSet { try await Task.sleep(for: .milliseconds(10)) }
        #expect(started.isSet)
        let curl = try CurlTransport()
        let other = try server.url(.sp("alt")) + "/config/REQ1"
        var answer: HTTPResponse?
        let took = try elapsed { answer = try get(curl, other) }
        #expect(answer?.status == 200)
        // Blocked, it would answer after the report's 60 s; the bounds leave a loaded machine room.
        #expect(took < .seconds(10), "another host answered after \(took)")
        let stop = ContinuousClock().now
        try await server.shutdown()
        #expect(ContinuousClock().now - stop < .seconds(30), "the shutdown waited for the report")
    }

    @Test func withoutLintThePathIsNotFound() async throws {
        try await withServer { server in
            let curl = try CurlTransport()
            #expect(try server.admin(curl, "GET", "/admin/lint").status == 404)
        }
    }
}

/// A flag set on one thread and read on another.
final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
