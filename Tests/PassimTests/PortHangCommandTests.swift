import Foundation
import Testing

/// The command line against ports that would hang it (Fixtures/ports/hang): `passim fuzz --against BIN`
/// (which runs `BIN shim`; here a script that runs the hang port whatever its argument) with a port
/// that spins after its hello, one that spins on a call, one that livelocks on some programs; `passim
/// run --port-timeout`; and a campaign killed with SIGKILL. Each ends within the bound it states, and
/// no port's process group outlives the command.
@Suite struct PortHangCommandTests {
    static let root = CommandLineOptionsTests.root
    static let binary = CommandLineOptionsTests.binary

    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
        var seconds: Double
        /// The scenarios written to `--out`.
        var findings: [String]
        var leftover: [pid_t]
        var groups: Int
    }

    /// Live processes (zombies left out) whose process group is `group`.
    static func members(ofGroup group: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(pid_t.init).filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 2 && fields[0] != "Z" && pid_t(fields[2]) == group
        }
    }

    static func groups(in file: String) -> [pid_t] {
        ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { pid_t($0) }
    }

    /// Runs passim with `arguments` (`{BIN}`, `{OUT}` and `{ROOT}` filled in) in a scratch folder, where
    /// `BIN` runs the hang port in `mode`; the port's process groups are recorded and checked.
    func passim(_ arguments: [String], mode: String) throws -> Outcome {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "swift build makes \(Self.binary)")
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("passim-hang-\(UUID())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let groupsFile = scratch.appendingPathComponent("groups").path
        let bin = scratch.appendingPathComponent("passim-hang").path
        try "#!/bin/sh\nexec python3 \(Self.root)/Fixtures/ports/hang/port.py \(mode)\n".write(
            toFile: bin, atomically: true, encoding: .utf8)
        chmod(bin, 0o755)
        let out = scratch.appendingPathComponent("out"), err = scratch.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = arguments.map {
            $0.replacingOccurrences(of: "{BIN}", with: bin)
                .replacingOccurrences(of: "{OUT}", with: scratch.appendingPathComponent("findings").path)
                .replacingOccurrences(of: "{ROOT}", with: Self.root)
        }
        var environment = ProcessInfo.processInfo.environment
        environment["PASSIM_HANG_PGID_FILE"] = groupsFile
        process.environment = environment
        process.currentDirectoryURL = scratch
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        let started = ContinuousClock.now
        try process.run()
        process.waitUntilExit()
        let took = (ContinuousClock.now - started).components
        let folder = scratch.appendingPathComponent("findings")
        let findings = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted().compactMap {
            try? String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8)
        }
        let groups = Self.groups(in: groupsFile)
        return Outcome(
            status: process.terminationStatus, stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "",
            seconds: Double(took.seconds) + Double(took.attoseconds) / 1e18, findings: findings,
            leftover: groups.flatMap(Self.members(ofGroup:)), groups: groups.count)
    }

    /// The issue's command shape: `fuzz --against BIN --seed 1 --runs 3000 --max-findings 1` ends with
    /// one shrunk scenario of the breakdown, its reason said. Bound: 120 s each, the issue's (the shrink
    /// has 60 s; some 5 to 20 s on an idle machine).
    @Test(arguments: [
        ("spin-after-hello", "# Reason: the port stopped answering"),
        ("spin-on getAuthentication", "# Reason: the port stopped answering"),
        ("livelock-after getAuthentication", "# Reason: a livelock"),
    ])
    func fuzzAgainstAHangingBuildEndsWithAShrunkFinding(_ mode: String, _ reason: String) throws {
        let outcome = try passim(
            [
                "fuzz", "--against", "{BIN}", "--port-timeout", "300ms", "--seed", "1", "--runs", "3000",
                "--max-findings", "1", "--out", "{OUT}",
            ], mode: mode)
        #expect(outcome.status == 1, "\(outcome.stdout)\n\(outcome.stderr)")
        #expect(outcome.stdout.contains("\nDIFF run ") || outcome.stdout.hasPrefix("DIFF run "), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("1 differing"))
        let scenario = try #require(outcome.findings.first, "no scenario written: \(outcome.stdout)")
        #expect(outcome.findings.count == 1)
        #expect(scenario.contains("\n" + reason), "\(scenario.prefix(600))")
        #expect(scenario.contains("# Found by: passim fuzz --against '"))
        #expect(outcome.groups >= 1 && outcome.leftover.isEmpty, "left alive: \(outcome.leftover)")
        #expect(outcome.seconds < 120, "\(outcome.seconds) s")
    }

    /// `run` takes `--port-timeout`; a bad duration is a usage error in both commands. Bound: 60 s (a
    /// second or two on an idle machine; Python starts slowly on a loaded one).
    @Test func runEndsAtThePortTimeout() throws {
        let outcome = try passim(
            [
                "run", "--port-timeout", "300ms", "--port", "{BIN}",
                "{ROOT}/Scenarios/authn/classic-login.scenario",
            ], mode: "spin-on getAuthentication")
        #expect(outcome.status == 1)
        #expect(
            outcome.stdout.contains(
                #"the port did not answer within 300ms (--port-timeout): no idle in answer to {"type":"call","app":"app","call":"getAuthentication""#
            ), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("port stderr:\nspinning: asked getAuthentication"))
        #expect(outcome.leftover.isEmpty, "left alive: \(outcome.leftover)")
        #expect(outcome.seconds < 60, "\(outcome.seconds) s")
        for command in ["run", "fuzz"] {
            let bad = try passim(
                [command, "--port", "{BIN}", "--port-timeout", "soon"] + (command == "run" ? ["{ROOT}/Scenarios"] : []),
                mode: "spin-after-hello")
            #expect(bad.status == 64 || bad.status == 2, "\(command): \(bad.status)")
            #expect(bad.stderr.contains("--port-timeout takes a duration like 5s or 500ms"), "\(bad.stderr)")
        }
    }

    /// A campaign killed with SIGKILL runs no code of its own: a port spinning where it never reads its
    /// input would outlive it, but the port's watchdog sees the campaign's end and kills its group.
    /// Bound: 40 s.
    @Test func aPortOutlivesNoCampaignEvenOneKilledWithSIGKILL() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "swift build makes \(Self.binary)")
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("passim-hang-\(UUID())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let groupsFile = scratch.appendingPathComponent("groups").path
        let campaign = Process()
        campaign.executableURL = URL(fileURLWithPath: Self.binary)
        campaign.arguments = [
            "fuzz", "--port", "python3 \(Self.root)/Fixtures/ports/hang/port.py spin-after-hello",
            "--port-timeout", "60s", "--runs", "5", "--out", scratch.appendingPathComponent("findings").path,
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["PASSIM_HANG_PGID_FILE"] = groupsFile
        campaign.environment = environment
        campaign.standardInput = FileHandle.nullDevice
        campaign.standardOutput = FileHandle.nullDevice
        campaign.standardError = FileHandle.nullDevice
        let started = ContinuousClock.now
        try campaign.run()
        defer { if campaign.isRunning { kill(campaign.processIdentifier, SIGKILL) } }
        // The set-up check's process answers its hello, then spins; the first run waits on it.
        var groups: [pid_t] = []
        while groups.isEmpty || groups.allSatisfy({ Self.members(ofGroup: $0).isEmpty }),
            ContinuousClock.now - started < .seconds(20)
        {
            Thread.sleep(forTimeInterval: 0.1)
            groups = Self.groups(in: groupsFile)
        }
        try #require(groups.contains { !Self.members(ofGroup: $0).isEmpty }, "no port started in 20 s")
        kill(campaign.processIdentifier, SIGKILL)
        campaign.waitUntilExit()
        let killed = ContinuousClock.now
        while groups.contains(where: { !Self.members(ofGroup: $0).isEmpty }),
            ContinuousClock.now - killed < .seconds(15)
        {
            Thread.sleep(forTimeInterval: 0.1)
        }
        let leftover = groups.flatMap(Self.members(ofGroup:))
        #expect(leftover.isEmpty, "a port outlived its campaign: \(leftover)")
        #expect(ContinuousClock.now - started < .seconds(40))
    }
}
