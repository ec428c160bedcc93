#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import PassModel
import Testing
@testable import Entitlement

/// `Fixtures/hostile/answers/`: what a hostile SP can answer the engine's client registration.
@Suite struct HostileAnswerTests {
    struct Missing: Error { var path: String }

    /// Found by walking up from this file to the package root, so tests need no SwiftPM resources.
    static func fixture(_ name: String, _ filePath: String = #filePath) throws -> String {
        var dir = filePath
        while let slash = dir.lastIndex(of: "/"), !dir.isEmpty {
            dir = String(dir[..<slash])
            guard access(dir + "/Package.swift", F_OK) == 0 else { continue }
            let path = dir + "/Fixtures/hostile/answers/" + name
            guard let file = fopen(path, "rb") else { throw Missing(path: path) }
            defer { fclose(file) }
            var out: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = fread(&buffer, 1, buffer.count, file)
                out.append(contentsOf: buffer[0..<n])
                if n < buffer.count { break }
            }
            return String(decoding: out, as: UTF8.self)
        }
        throw Missing(path: name)
    }

    static let deviceID = Call.getMetadata(
        .dict([Value.Entry(Constants.metadataOpcodeKey, .int(Constants.metadataDeviceID))]))

    /// Registers with the fixture as the token answer; returns the engine, configured.
    func registered(tokenAnswer name: String) throws -> EngineHarness {
        var h = EngineHarness()
        h.call(.initialize(softwareStatement: "ss-1"))
        h.call(.setRequestor(requestorID: "REQ1", serviceProviders: nil))
        h.answer(h.sent[0].0, RegistrationTests.registered)
        h.answer(h.sent[1].0, RegistrationTests.json(200, try HostileAnswerTests.fixture(name)))
        let (id, config) = try #require(h.sent.last)
        #expect(config.headers["Authorization"] == "Bearer T9", "\(name)")
        h.answer(id, EngineHarness.config("REQ1", [("X", "X")]))
        #expect(h.takeCallbacks() == ["setRequestorComplete(1)"])
        return h
    }

    @Test func anExpiresInPastTheLimitIsCut() throws {
        var h = try registered(tokenAnswer: "token-expires-in-int64-max.json")
        h.advance(Millis(EngineLimits.accessTokenLifetime.value - 1))
        h.call(HostileAnswerTests.deviceID)
        #expect(h.sent.last?.1.url == "https://sp.test/getMetadataDevice")
        h.advance(Millis(1))
        h.call(HostileAnswerTests.deviceID)
        #expect(h.sent.last?.1.url == "https://sp.test/o/client/token")
    }

    @Test func aNegativeExpiresInIsExpiredAtOnce() throws {
        var h = try registered(tokenAnswer: "token-expires-in-int64-min.json")
        h.call(HostileAnswerTests.deviceID)
        #expect(h.sent.last?.1.url == "https://sp.test/o/client/token")
    }

    @Test func anExpiresInThatIsNoNumberNeverExpiresOnTheClock() throws {
        var h = try registered(tokenAnswer: "token-expires-in-a-string.json")
        h.advance(.hours(24 * 400))
        h.call(HostileAnswerTests.deviceID)
        #expect(h.sent.last?.1.url == "https://sp.test/getMetadataDevice")
    }

    @Test(arguments: [
        ("register-without-client-id.json", 0), ("register-not-an-object.json", 0),
        ("register-not-json.txt", 0), ("token-empty.json", 1),
        ("token-expires-in-1e400.json", 1),
    ])
    func anUnusableAnswerIsARefusal(_ name: String, _ step: Int) throws {
        var h = EngineHarness()
        h.call(.initialize(softwareStatement: "ss-1"))
        h.call(.setRequestor(requestorID: "REQ1", serviceProviders: nil))
        if step == 1 { h.answer(h.sent[0].0, RegistrationTests.registered) }
        h.answer(h.sent[step].0, RegistrationTests.json(step == 0 ? 201 : 200, try HostileAnswerTests.fixture(name)))
        #expect(h.takeCallbacks() == ["status(R400)", "setRequestorComplete(0)"], "\(name)")
        #expect(h.engine.footprint.requests == 0 && h.engine.footprint.timers == 0, "\(name)")
        #expect(h.sent.allSatisfy { $0.1.headers["Authorization"] == nil }, "\(name)")
    }
}
