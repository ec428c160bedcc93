import Foundation
import PassModel
import PassXML
import Testing
@testable import MockPass

/// Throttling on virtual time (rest-api-v2.md 1.10) and the error table of docs/WIRE.md.
@Suite struct RESTv2ThrottleTests {
    /// Adobe's worked table, row by row: times from the device's first call, all from one device.
    static let adobeTable: [(Int64, Int)] = [
        (0, 200), (300, 200), (600, 200), (900, 200), (1200, 200), (1300, 200), (1400, 200), (1500, 200), (1600, 200),
        (1700, 200), (1800, 200), (2100, 200), (2200, 200), (2400, 429), (2600, 429), (2800, 429), (3100, 200),
    ]

    @Test func adobesWorkedTableIsReproducedExactly() throws {
        var c = try V2Client(world: v2World(throttling: true))
        c.b.now = c.b.now + .minutes(1)
        let start = c.b.now
        var h = c.headers
        h.add("X-Forwarded-For", "203.0.113.7, 10.0.0.1")
        var answers: [Int] = []
        for (t, _) in RESTv2ThrottleTests.adobeTable {
            c.b.now = start + Millis(t)
            answers.append(c.get("/configuration", headers: h).status)
        }
        #expect(answers == RESTv2ThrottleTests.adobeTable.map(\.1))
        // The refusal says when to come back; another device is not throttled.
        c.b.now = start + Millis(3200)
        let refused = c.get("/configuration", headers: h)
        #expect(refused.status == 429)
        #expect(refused.headers["Retry-After"] == "1")
        var other = c.headers
        other.add("X-Forwarded-For", "198.51.100.1")
        #expect(c.get("/configuration", headers: other).status == 200)
    }

    @Test func withoutXForwardedForTheDeviceIdentifierIsTheKeyAndBadCallsCountToo() throws {
        var c = try V2Client(world: v2World(throttling: true))
        var statuses: [Int] = []
        for _ in 0..<12 { statuses.append(c.get("/sessions/NOPE").status) }
        #expect(statuses == Array(repeating: 400, count: 11) + [429])
        c.device = base64("device-2")
        #expect(c.get("/configuration").status == 200)
    }

    @Test func theWorldCanTurnItOff() throws {
        var c = try V2Client(world: v2World(throttling: false))
        #expect((0..<50).map { _ in c.get("/configuration").status }.allSatisfy { $0 == 200 })
    }

    /// docs/WIRE.md has a row for each of the 47 codes (`| \`code\` |`), naming what produces it.
    @Test func wireHasARowForEveryEnhancedCode() throws {
        let root = URLPartsPath.repositoryRoot(#filePath)
        let wire = try String(contentsOfFile: root + "/docs/WIRE.md", encoding: .utf8)
        let missing = V2ErrorCode.allCases.filter { !wire.contains("| `\($0.rawValue)` |") }
        #expect(missing.isEmpty, "docs/WIRE.md has no row for \(missing.map(\.rawValue))")
        // Each row's last cell names tests that exist (`Suite.function`) or says "same" (the row above).
        let tests = try ["RESTv2FlowTests", "RESTv2HeaderTests", "RESTv2ThrottleTests"].map {
            try String(contentsOfFile: root + "/Tests/MockPassTests/\($0).swift", encoding: .utf8)
        }.joined()
        for code in V2ErrorCode.allCases {
            guard let line = wire.split(separator: "\n").first(where: { $0.hasPrefix("| `\(code.rawValue)` |") }) else {
                continue
            }
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            let shown = cells.last ?? ""
            #expect(!shown.isEmpty && shown != "–", "\(code.rawValue) has no test")
            for name in shown.split(separator: "`").filter({ $0.contains(".") && $0.hasPrefix("RESTv2") }) {
                let function = name.split(separator: ".").last.map(String.init) ?? ""
                let exists = tests.contains("func \(function)(")
                #expect(exists, "\(code.rawValue): no test \(name)")
            }
        }
    }
}

enum URLPartsPath {
    /// Two folders up from this test file.
    static func repositoryRoot(_ file: String) -> String {
        var parts = file.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }
}

/// `rest-v2 throttling all`: the other endpoints Adobe lists share the device's bucket.
@Suite struct RESTv2LegacyThrottleTests {
    @Test func legacyEndpointsAreThrottledOnlyWhenTheWorldSaysAll() throws {
        for legacy in [false, true] {
            var w = v2World(throttling: true)
            w.restV2.throttleLegacy = legacy
            var b = Browser(MockPass(world: w, seed: 3))
            var statuses: [Int] = []
            for path in ["/config/REQ1", "/api/v1/config/REQ1", "/reggie/v1/REQ1/regcode?deviceId=d"] {
                for _ in 0..<4 {
                    let method = path.hasPrefix("/reggie") ? "POST" : "GET"
                    statuses.append(
                        b.send(
                            HTTPRequest(
                                method: method, url: v2Host + path, headers: [("X-Forwarded-For", "192.0.2.1")]),
                            withCookies: false
                        ).status)
                }
            }
            // One call of the first second plus the burst of 10: the 12th call is refused.
            #expect(statuses.filter { $0 == 429 }.count == (legacy ? 1 : 0))
            if legacy { #expect(statuses[11] == 429) }
            // The SDK's own paths (authenticate, sessionDevice…) are never throttled.
            #expect(b.get(v2Host + "/completePassiveAuthentication").status == 200)
        }
    }
}
