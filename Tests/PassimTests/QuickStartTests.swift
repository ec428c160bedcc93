import Foundation
import Testing

/// README's quick start, "a scenario of your own", run verbatim: its commands are read from README.md,
/// so a change there that breaks them fails here. The recorded file must name exactly the flow its
/// first comment says (BEHAVIOR.md, "Cancel via nil": the picker, then the cancel), the flow
/// `Scenarios/cancel/nil-at-dialog.scenario` pins.
extension CommandLineOptionsTests {
    /// The quick start's shell block: the one that writes `mine/cancel.scenario`.
    static func quickStart() throws -> [String] {
        let readme = try read("README.md")
        let blocks = readme.components(separatedBy: "```sh\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        let block = try #require(blocks.first { $0.contains("cat > mine/cancel.scenario") }, "README's quick start")
        // The here-document is one command with the line that writes it; every other line is one.
        var commands: [String] = []
        var pending: [Substring] = []
        for line in block.split(separator: "\n") {
            if !pending.isEmpty || line.contains("<<'EOF'") {
                pending.append(line)
                if line == "EOF" {
                    commands.append(pending.joined(separator: "\n"))
                    pending = []
                }
            } else {
                commands.append(String(line))
            }
        }
        return commands
    }

    @Test func readmesQuickStartRecordsTheFlowItsCommentNames() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "swift build makes \(Self.binary)")
        let commands = try Self.quickStart()
        #expect(commands.count == 5)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("passim-quick-start-\(UUID())")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent(".build/debug"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent(".build/debug/passim").path, withDestinationPath: Self.binary)
        var outputs: [String] = []
        for command in commands {
            // A command whose comment says it fails exits 1; every other one succeeds.
            let fails = command.contains("# fails")
            let (status, output) = try Self.shell(command, in: folder)
            #expect(status == (fails ? 1 : 0), "\(command)\n\(output)")
            outputs.append(output)
        }
        let recorded = try String(
            contentsOf: folder.appendingPathComponent("mine/cancel.scenario"), encoding: .utf8)
        let steps = recorded.split(separator: "\n").filter { $0.hasPrefix(">") || $0.hasPrefix("<") }
        // The flow the suite pins for the clause the comment cites, with the quick start's one MVPD.
        let pinned = try Self.read("Scenarios/cancel/nil-at-dialog.scenario").split(separator: "\n")
            .filter { $0.hasPrefix(">") || $0.hasPrefix("<") }
            .map { $0.replacingOccurrences(of: "[Comcast, Dish]", with: "[Comcast]") }
        #expect(steps.map(String.init) == pinned, "\(recorded)")
        #expect(recorded.hasPrefix("# Backing out of the provider picker resets the authentication flow"))
        #expect(
            steps == [
                "> setRequestor(\"REQ1\")", "< setRequestorComplete(1)", "> getAuthentication()",
                "< displayProviderDialog([Comcast])", "> setSelectedProvider(nil)",
                "< setAuthenticationStatus(0, PROVIDER_NOT_SELECTED_ERROR)",
                "< sendTrackingData(TRACKING_AUTHENTICATION, [\"false\", nil, nil, nil, \"mobile\", \"ios\", \"iOS\"])",
            ])
        // `run -v` prints that transcript; `doc` writes the diagram with the picker before the cancel.
        #expect(
            outputs[3].contains("< displayProviderDialog([Comcast])\n> setSelectedProvider(nil)\n"), "\(outputs[3])")
        let page = try String(contentsOf: folder.appendingPathComponent("mine-docs/mine.md"), encoding: .utf8)
        #expect(page.contains("](diagrams/mine/cancel.svg)"))
        let image = try String(
            contentsOf: folder.appendingPathComponent("mine-docs/diagrams/mine/cancel.svg"), encoding: .utf8)
        let dialog = try #require(image.range(of: "displayProviderDialog"))
        let cancel = try #require(image.range(of: "setSelectedProvider(nil)"))
        #expect(dialog.lowerBound < cancel.lowerBound)
    }

    /// `passim help record` says the rule RUNNING.md says: a draft waits after each step, a `clock`
    /// line says how much time passes, steps written together in a file with `<` lines are at once.
    @Test func recordsHelpSaysTheDraftRule() throws {
        let help = try passim(["help", "record"])
        #expect(help.status == 0)
        let text = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for phrase in [
            "two > steps written together happen at the same instant",
            "A file with no < line at all is a draft, recorded as an app that waits would run it",
            "`clock +D` line right after a step says itself how much time passes there",
        ] {
            #expect(text.contains(phrase), "\(phrase)\n\(text)")
        }
        let running = try Self.read("docs/RUNNING.md").split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(
            running.contains(
                "A file with no `<` line at all is a **draft**, recorded as an app that waits would run it"))
        #expect(running.contains("A `clock +D` line right after a step says itself how much time passes there"))
    }

    /// Runs `command` with `sh` in `folder`: its status and its standard output and error together.
    static func shell(_ command: String, in folder: URL) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.currentDirectoryURL = folder
        var environment = ProcessInfo.processInfo.environment
        environment["CI"] = nil  // `record` refuses to write under CI; this is a user's folder
        environment["NO_COLOR"] = "1"
        process.environment = environment
        let log = folder.appendingPathComponent("output-\(UUID())")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try handle.close()
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(at: log)
        return (process.terminationStatus, output)
    }
}
