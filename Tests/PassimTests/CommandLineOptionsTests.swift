import Foundation
import Testing

/// Issue 43: the options several subcommands take are declared once (`--wire`, `--port`, `--live`,
/// `--server`, `--expect`), and `passim serve`'s listening port is `--listen-port`, its old name
/// `--port` still working with a warning. The command line is the executable's, so these run the
/// binary `swift build` makes, as RunCommandTests does.
@Suite struct CommandLineOptionsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    /// `PASSIM_BINARY` when set: CI gives a copy, its mutation check relinking .build/debug/passim meanwhile.
    static let binary = ProcessInfo.processInfo.environment["PASSIM_BINARY"] ?? root + "/.build/debug/passim"
    static let warning =
        "passim serve: --port is now --listen-port (--port names a port command in run and fuzz)\n"

    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs passim to its end, in the package root; its outputs go through files, read at the end.
    func passim(_ arguments: [String]) throws -> Outcome {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "swift build makes \(Self.binary)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("passim-options-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out"), err = folder.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: Self.root)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus, stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }

    /// Starts `passim serve ARGUMENTS`, waits for its admin line, runs `running` with what it printed
    /// so far, then ends it by closing its standard input (PASSIM_SERVE_UNTIL_STDIN_CLOSES): what it
    /// printed on both outputs.
    func serve(_ arguments: [String], running: (String) throws -> Void = { _ in }) throws -> Outcome {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "swift build makes \(Self.binary)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("passim-options-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out"), err = folder.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = ["serve"] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["PASSIM_SERVE_UNTIL_STDIN_CLOSES"] = "1"
        environment["PASSIM_ADMIN_TOKEN"] = nil
        process.environment = environment
        let input = Pipe()
        process.standardInput = input.fileHandleForReading
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline, process.isRunning {
            let text = (try? String(contentsOf: out, encoding: .utf8)) ?? ""
            if text.split(separator: "\n").contains(where: { $0.hasPrefix("admin http") }) { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        // The server is stopped even when `running` fails; its failure is thrown after.
        let ran = Result { try running((try? String(contentsOf: out, encoding: .utf8)) ?? "") }
        try input.fileHandleForWriting.close()
        // Bounded: a server that missed its standard input closing (a loaded machine) is ended by
        // SIGTERM, which `serve` also answers with exit 0, rather than hanging the test run.
        for signal in [SIGTERM, SIGKILL] {
            let waitUntil = ContinuousClock.now + .seconds(20)
            while process.isRunning, ContinuousClock.now < waitUntil { Thread.sleep(forTimeInterval: 0.05) }
            guard process.isRunning else { break }
            kill(process.processIdentifier, signal)
        }
        process.waitUntilExit()
        try ran.get()
        return Outcome(
            status: process.terminationStatus, stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }

    /// A port on loopback that another socket holds (listening) while `body` runs.
    func withHeldPort<T>(_ body: (Int) throws -> T) throws -> T {
        let holder = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(holder) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(holder, $0, length) == 0 && listen(holder, 1) == 0 && getsockname(holder, $0, &length) == 0
            }
        }
        try #require(bound)
        return try body(Int(UInt16(bigEndian: address.sin_port)))
    }

    /// Issue 44 row 2: without `--seed` every token, secret, code and trace of `passim serve` comes from
    /// the system's secure random source, so two servers give different first values; with `--seed`
    /// they are the same, byte for byte.
    @Test func serveIsReproducibleOnlyWithASeed() throws {
        /// The first REST API v2 error of a new server (its body holds a trace drawn from the mock).
        func firstError(_ extra: [String]) throws -> String {
            var body = ""
            let outcome = try serve(["--adobe", "--listen-port", "0", "--admin-port", "0"] + extra) { printed in
                let line = try #require(printed.split(separator: "\n").first { $0.hasPrefix("sp api ") }, "\(printed)")
                let url = String(try #require(line.split(separator: " ").last))
                let curl = Process()
                curl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                curl.arguments = ["curl", "-s", "--max-time", "10", url + "/api/v2/NOSUCH/configuration"]
                let pipe = Pipe()
                curl.standardOutput = pipe
                try curl.run()
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                curl.waitUntilExit()
                body = String(decoding: data, as: UTF8.self)
            }
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(body.contains("trace"), "\(body)")
            return body
        }
        #expect(try firstError([]) != firstError([]))
        #expect(try firstError(["--seed", "7"]) == firstError(["--seed", "7"]))
    }

    /// The old spelling: the server starts as before, after one warning line on standard error.
    @Test func serveStillTakesPortWithAWarning() throws {
        let old = try serve(["--adobe", "--port", "0", "--admin-port", "0"])
        #expect(old.stdout.contains("\nadmin http://127.0.0.1:"), "\(old.stdout)")
        #expect(old.stdout.contains("sp adobe https://sp.auth.adobe.com/adobe-services -> http://127.0.0.1:"))
        #expect(old.stderr == Self.warning, "\(old.stderr)")
        #expect(old.status == 0)

        let new = try serve(["--adobe", "--listen-port", "0", "--admin-port", "0"])
        #expect(new.stdout.contains("\nadmin http://127.0.0.1:"), "\(new.stdout)")
        #expect(new.stderr.isEmpty, "\(new.stderr)")
    }

    /// `--port N` listens on N, as it did: a port in use is the same refusal, after the warning;
    /// a message about the value names the spelling given.
    @Test func serveOldPortIsTheListeningPort() throws {
        let held = try withHeldPort { port in
            try passim(["serve", "--adobe", "--port", "\(port)", "--admin-port", "0"])
        }
        #expect(held.status == 2)
        let lines = held.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first.map { $0 + "\n" } == Self.warning, "\(held.stderr)")
        #expect(lines.count == 3 && lines[1].hasPrefix("passim serve: cannot listen on 127.0.0.1:"), "\(held.stderr)")
        #expect(held.stderr.hasSuffix("give other ports with --listen-port N, or --listen-port 0 for free ones\n"))

        let range = try passim(["serve", "--adobe", "--port", "70000"])
        #expect(range.status == 2)
        #expect(range.stderr.hasPrefix("Error: --port takes 0-65535\n"), "\(range.stderr)")
        let newRange = try passim(["serve", "--adobe", "--listen-port", "70000"])
        #expect(newRange.stderr.hasPrefix("Error: --listen-port takes 0-65535\n"), "\(newRange.stderr)")
    }

    @Test func serveRefusesBothSpellings() throws {
        let both = try passim(["serve", "--adobe", "--listen-port", "0", "--port", "0"])
        #expect(both.status == 2)
        #expect(
            both.stderr.hasPrefix("Error: --port is the old name of --listen-port: give --listen-port only\n"),
            "\(both.stderr)")
        #expect(!both.stderr.contains(Self.warning))
        #expect(both.stdout.isEmpty)
    }

    /// An option's block in `passim COMMAND --help`: its line and the lines that continue it.
    func helpBlock(_ help: String, option: String) -> String? {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("  \(option) ") || $0 == "  \(option)" }) else {
            return nil
        }
        var block = [lines[start]]
        for line in lines[(start + 1)...] {
            guard line.hasPrefix("        "), !line.trimmingCharacters(in: .whitespaces).hasPrefix("-") else { break }
            block.append(line)
        }
        return block.joined(separator: "\n")
    }

    /// One declaration, one help text: run, fuzz (and doc, for --expect) print the same block.
    @Test func sharedOptionsReadTheSameInEverySubcommand() throws {
        let run = try passim(["run", "--help"]).stdout
        let fuzz = try passim(["fuzz", "--help"]).stdout
        let doc = try passim(["doc", "--help"]).stdout
        for option in ["--wire <sdk|v2>", "--port <COMMAND>", "--live", "--expect <FILE>"] {
            let block = try #require(helpBlock(run, option: option), "run --help: \(option)\n\(run)")
            #expect(helpBlock(fuzz, option: option) == block, "fuzz --help: \(option)\n\(fuzz)")
        }
        let expect = try #require(helpBlock(run, option: "--expect <FILE>"))
        #expect(helpBlock(doc, option: "--expect <FILE>") == expect, "\(doc)")
        #expect(helpBlock(run, option: "--server <URL>") != nil)
    }

    /// `--wire v2` parses alike in run and fuzz: the same refusal of a bad value, and v2 taken by both.
    @Test func wireParsesTheSameInRunAndFuzz() throws {
        let runBad = try passim(["run", "--wire", "v3", "Scenarios"])
        let fuzzBad = try passim(["fuzz", "--wire", "v3"])
        #expect(runBad.status == 2 && fuzzBad.status == 2)
        let runLines = runBad.stderr.split(separator: "\n").prefix(2)
        #expect(runLines.first?.hasPrefix("Error: The value 'v3' is invalid for '--wire <sdk|v2>'") == true)
        #expect(fuzzBad.stderr.split(separator: "\n").prefix(2) == runLines, "\(runBad.stderr)\n\(fuzzBad.stderr)")

        // run: --expect without --port needs the v2 wire; with it, the file is read (and is missing here).
        let missing = "/nonexistent/passim-options.expect"
        let runV2 = try passim(["run", "--wire", "v2", "--expect", missing, "Scenarios/authn"])
        #expect(runV2.status == 2)
        #expect(runV2.stderr.hasPrefix("passim: \(missing)"), "\(runV2.stderr)")
        let runSDK = try passim(["run", "--wire", "sdk", "--expect", missing, "Scenarios/authn"])
        #expect(runSDK.status == 2)
        #expect(runSDK.stderr.contains("--expect describes a port or a wire"), "\(runSDK.stderr)")

        // fuzz: the campaign runs on v2 and says so.
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("passim-options-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let fuzzV2 = try passim(["fuzz", "--wire", "v2", "--runs", "1", "--steps", "3", "--out", out])
        #expect(fuzzV2.status == 0, "\(fuzzV2.stdout)\(fuzzV2.stderr)")
        #expect(fuzzV2.stdout.contains("1 runs (seed 1, wire v2)"), "\(fuzzV2.stdout)")
        let fuzzSDK = try passim(["fuzz", "--runs", "1", "--steps", "3", "--out", out])
        #expect(fuzzSDK.stdout.contains("1 runs (seed 1),"), "\(fuzzSDK.stdout)")
    }
}
