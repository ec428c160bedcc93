import PassModel
import Testing
@testable import MockPass

/// Issue 12, row 3: the log is bounded by bytes as well as entries, values are truncated, and it
/// can be read a page at a time.
@Suite struct RequestLogTests {
    static let world = World(
        serviceProviders: [World.ServiceProvider(name: "main", url: "https://sp.test")],
        requestors: [World.Requestor(id: "REQ1")])

    /// A 900 KB POST, as in the issue: a urlencoded body of one huge field, plus a huge header.
    static func bigPost(_ i: Int, bytes: Int = 900_000) -> HTTPRequest {
        HTTPRequest.form(
            "https://sp.test/preauthorize", [("requestor_id", "REQ1"), ("blob", String(repeating: "x", count: bytes))],
            headers: [("X-Big", String(repeating: "é", count: 1000)), ("X-Seq", String(i))])
    }

    @Test func bigValuesAreTruncatedAndMarked() throws {
        var mock = MockPass(world: Self.world, seed: 1, logLimit: 10_000)
        _ = mock.handle(Self.bigPost(0), at: .simulationStart)
        let entry = try #require(mock.log.last)
        #expect(entry.parameter("requestor_id") == "REQ1")
        #expect(entry.parameter("blob") == String(repeating: "x", count: 1024) + "…[truncated 898976 bytes]")
        // Cut on a character boundary: 512 two-byte characters fit in 1024 bytes.
        #expect(entry.headers["X-Big"] == String(repeating: "é", count: 512) + "…[truncated 976 bytes]")
        print("log entry for a 900 KB POST: \(entry.size) bytes")
        #expect(entry.size < 4096)
    }

    @Test func aSimulatedLogKeepsValuesWhole() {
        var mock = MockPass(world: Self.world, seed: 1)
        _ = mock.handle(Self.bigPost(0), at: .simulationStart)
        #expect(mock.log.last?.parameter("blob")?.utf8.count == 900_000)
    }

    @Test func theLogIsCappedByBytesOldestFirst() throws {
        var limits = MockLimits.standard
        limits.logBytes = 20_000
        var mock = MockPass(world: Self.world, seed: 1, limits: limits)
        // 100 KB each rather than the 900 KB: the debug build's form decoding is slow.
        for i in 0..<60 { _ = mock.handle(Self.bigPost(i, bytes: 100_000), at: .simulationStart) }
        #expect(mock.requestLog.bytes <= 20_000)
        #expect(mock.log.count > 1 && mock.log.count < 20)
        #expect(mock.logDropped + mock.log.count == 60)
        #expect(mock.log.last?.headers["X-Seq"] == "59")
        #expect(mock.log.first?.headers["X-Seq"] == String(mock.logDropped))
    }

    @Test func pagesHaveStableSequenceNumbers() {
        var mock = MockPass(world: Self.world, seed: 1, logLimit: 10)
        for i in 0..<25 {
            _ = mock.handle(HTTPRequest(method: "GET", url: "https://sp.test/config/R\(i)"), at: .simulationStart)
        }
        // Entries 1-15 were dropped; asking from 0 starts at the oldest kept, sequence 16.
        let first = mock.logPage(after: 0, limit: 4)
        #expect(first.entries.map(\.path) == ["/config/R15", "/config/R16", "/config/R17", "/config/R18"])
        #expect(first.last == 19)
        let second = mock.logPage(after: first.last, limit: 100)
        #expect(second.entries.map(\.path) == (19..<25).map { "/config/R\($0)" })
        #expect(second.last == 25)
        let empty = mock.logPage(after: second.last, limit: 100)
        #expect(empty.entries.isEmpty && empty.last == 25)
        _ = mock.handle(HTTPRequest(method: "GET", url: "https://sp.test/config/R25"), at: .simulationStart)
        #expect(mock.logPage(after: 25, limit: 100).entries.map(\.path) == ["/config/R25"])
        #expect(mock.logPage(after: .max, limit: .max).entries.isEmpty)
        #expect(mock.logPage(after: 25, limit: .max).entries.count == 1)
    }
}
