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

    /// The bucket is the device's, as sessions know it: `fingerprint` and spaces around the id are
    /// not part of it, so respelling the header is no new device (docs/CONFORMANCE.md, choice 94).
    @Test func aRespelledDeviceIdentifierIsTheSameDevice() throws {
        var c = try V2Client(world: v2World(throttling: true))
        let spellings = ["fingerprint ", "fingerprint  ", "fingerprint   "]
        var statuses: [Int] = []
        for i in 0..<12 {
            var h = c.headers
            h.fields.removeAll { $0.name == "AP-Device-Identifier" }
            h.add("AP-Device-Identifier", spellings[i % spellings.count] + c.device + String(repeating: " ", count: i))
            statuses.append(c.get("/configuration", headers: h).status)
        }
        #expect(statuses == Array(repeating: 200, count: 11) + [429])
        // A header that names no device shares one bucket with every other such call.
        var h = c.headers
        h.fields.removeAll { $0.name == "AP-Device-Identifier" }
        let anonymous = (0..<12).map { i -> Int in
            var bad = h
            bad.add("AP-Device-Identifier", "fingerprint not*base64 \(i)")
            return c.get("/configuration", headers: bad).status
        }
        #expect(anonymous.last == 429, "\(anonymous)")
    }

    /// 20,100 calls under other keys never give a spent bucket its burst back: at the cap a new key
    /// takes the place of a bucket whose burst is whole and whose call is a second behind, or of one
    /// idle for ten minutes, else it is refused (docs/CONFORMANCE.md, choice 95). Before, the oldest
    /// bucket went, and the device that spent its burst first had it again.
    @Test func otherKeysNeverRefillALiveBucket() throws {
        var c = try V2Client(world: v2World(throttling: true))
        let start = c.b.now
        let spent = (0..<12).map { _ in c.get("/configuration").status }
        #expect(spent == Array(repeating: 200, count: 11) + [429])
        var h = c.headers
        h.fields.removeAll { $0.name == "AP-Device-Identifier" }
        var refused = 0
        for i in 0..<(V2Limits.throttleDevices + 100) {
            var other = h
            other.add("AP-Device-Identifier", "fingerprint " + base64("other-\(i)"))
            // A path no operation has: the throttle counts it (a 404 after it), and it costs little.
            if c.get("/no-such-operation", headers: other).status == 429 { refused += 1 }
        }
        // The table held the device and 19,999 others; the last 101 found it full of live buckets.
        #expect(refused == 101)
        #expect(c.get("/configuration").status == 429, "the device's burst came back")
        // A second on, the others' whole buckets make room; the device has its one call a second only.
        c.b.now = start + .seconds(1)
        var late = h
        late.add("AP-Device-Identifier", "fingerprint " + base64("late"))
        #expect(c.get("/configuration", headers: late).status == 200)
        #expect(c.get("/configuration").status == 200)
        #expect(c.get("/configuration").status == 429)
    }

    @Test func theBucketTableEvictsOnlyWholeOrIdleBuckets() {
        var table = V2BucketTable(capacity: 2)
        let t0 = Instant.simulationStart
        let idle = V2Limits.throttleIdle.value
        func take(_ key: String, _ ms: Int64) -> Bool { table.take(key, at: t0 + Millis(ms)) }
        func spend(_ key: String, _ ms: Int64) -> Bool { (0..<11).map { _ in take(key, ms) }.allSatisfy { $0 } }
        // "a" spends its burst; "b" makes one call.
        #expect(spend("a", 0))
        #expect(!take("a", 0))
        #expect(take("b", 0))
        // Full, both live this second: a new key is refused and nothing is kept for it.
        #expect(!take("c", 999))
        #expect(table.count == 2)
        // A second after b's call, b's whole bucket makes room; a keeps its spent one.
        #expect(take("c", 1000))
        #expect(take("a", 1000))
        #expect(!take("a", 1000))
        // c spends its burst too: a and c live and spent, nothing to evict.
        #expect(spend("c", 2000))
        #expect(!take("d", 2000))
        // Ten minutes idle, a makes room (the least recently used).
        #expect(take("d", 1000 + idle))
        #expect(take("c", 1500 + idle))
        #expect(table.count == 2)
        // A day without a call forgets every bucket.
        table.expire(at: t0 + Millis(2000 + idle) + V2Limits.throttleMemory)
        #expect(table.count == 0)
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
