import Foundation
import Testing

/// `passim run --port … --port-log FILE|DIR` from the command line (ScenarioTests/PortLogTests has the rest).
extension CommandLineOptionsTests {
    @Test func portLogWritesTheConversationAndNeedsAPort() throws {
        let alone = try passim(["run", "--port-log", "/tmp/x.log", "Scenarios/startup"])
        #expect(alone.status == 2)
        #expect(
            alone.stderr.hasPrefix("Error: --port-log writes what a port is told and says: give --port COMMAND too\n"),
            "\(alone.stderr)")

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("passim-port-log-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try passim([
            "run", "--port", Self.binary + " shim", "--port-log", folder + "/",
            "Scenarios/authn/classic-login.scenario",
        ])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.hasSuffix("1 passed, 0 failed (the port took part in 1; 0 never asked it anything)\n"))
        let log = try String(contentsOfFile: folder + "/Scenarios/authn/classic-login.log", encoding: .utf8)
        #expect(log.hasPrefix("0ms > {\"type\":\"hello\""))
        #expect(log.contains(" < {\"type\":\"callback\",\"app\":\"app\",\"callback\":\"setAuthenticationStatus\""))
    }

    /// PORTING.md's sample conversation is the log `--port-log` writes of its scenario against `passim shim`.
    @Test func portingsSampleConversationIsTheLog() throws {
        let doc = try Self.read("docs/PORTING.md")
        let section = try #require(doc.components(separatedBy: "## Seeing the conversation").dropFirst().first)
        let sample = try #require(
            section.components(separatedBy: "```text\n").dropFirst().first?.components(separatedBy: "```").first)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("passim-\(UUID()).log").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let run = try passim([
            "run", "--port", Self.binary + " shim", "--port-log", file, "Scenarios/startup/unknown-requestor.scenario",
        ])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == sample)
    }
}
