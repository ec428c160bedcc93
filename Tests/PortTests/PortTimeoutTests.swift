import Entitlement
import PassModel
@testable import Port
import Testing

/// Driver protocol 1.3 (docs/PORTING.md; CONFORMANCE.md choice 71): `hello` carries `requestTimeout`
/// only for a world whose timeout is not BEHAVIOR.md's 30 s, so a port runs on its own default and the
/// suite's timeout scenarios judge it (mutant 01, a 60 s default, was invisible through a port).
@Suite struct PortTimeoutTests {
    /// A port that keeps every `hello` it is given, in front of the shim.
    final class Recording: LinePort {
        nonisolated(unsafe) static var hellos: [String] = []
        let shim = PortShim()
        func handle(_ line: String) -> [String] {
            if line.contains(#""type":"hello""#) { Recording.hellos.append(line) }
            return shim.handle(line)
        }
    }

    func hello(_ engine: EngineConfiguration) throws -> String {
        Recording.hellos = []
        let command = PortCommand(inProcess: "recording") { Recording() }
        _ = try PortSession(command, apps: ["app"], engine: engine, at: .simulationStart)
        return try #require(Recording.hellos.last)
    }

    @Test func helloSaysATimeoutOnlyWhenTheWorldsIsNotTheSpecs() throws {
        #expect(!(try hello(EngineConfiguration())).contains("requestTimeout"))
        #expect(try hello(EngineConfiguration(requestTimeout: .seconds(45))).contains(#""requestTimeout":45000"#))
    }

    @Test func theShimRunsOnItsOwnDefaultUnlessHelloSaysOne() throws {
        let start =
            #"{"type":"call","app":"app","call":"setRequestor","args":{"requestorID":"R","serviceProviders":["https://sp.test"]},"now":0}"#
        for (hello, own, expected) in [
            (#"{"type":"hello","protocol":1,"now":0}"#, Millis.seconds(60), 60_000),
            (#"{"type":"hello","protocol":1,"now":0}"#, nil, 30_000),
            (#"{"type":"hello","protocol":1,"requestTimeout":45000,"now":0}"#, Millis.seconds(60), 45_000),
        ] as [(String, Millis?, Int)] {
            let shim = PortShim(requestTimeout: own)
            _ = shim.handle(hello)
            let timer = shim.handle(start).first { $0.contains(#""type":"timer""#) }
            #expect(
                timer?.contains(#""at":\#(expected)"#) == true,
                "\(hello) own \(String(describing: own)): \(timer ?? "no timer")")
        }
        #expect(
            PortShim().handle(#"{"type":"hello","protocol":1,"requestTimeout":0,"now":0}"#).first?.contains(
                "requestTimeout must be a positive number") == true)
    }
}
