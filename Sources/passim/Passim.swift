import ArgumentParser
import Entitlement
import Foundation
import Live
import Passim
import PassModel
import Port
import Scenario

@main
enum Main {
    /// ArgumentParser exits 64 on a usage error; passim's contract is 2 for any unusable input.
    static func main() {
        do {
            var command = try Passim.parseAsRoot()
            try command.run()
        } catch {
            let code = Passim.exitCode(for: error)
            if code == .validationFailure {
                FileHandle.standardError.write(Data((Passim.fullMessage(for: error) + "\n").utf8))
                Foundation.exit(2)
            }
            Passim.exit(withError: error)
        }
    }
}

struct Passim: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passim",
        abstract: "Deterministic simulator and conformance suite for the Adobe Pass AccessEnabler SDK.",
        // `passim --version`: the library's version, stated once (PassimRelease.library, CHANGELOG.md).
        version: PassimRelease.library,
        subcommands: [
            Run.self, Record.self, Doc.self, Serve.self, FuzzCommand.self, Shim.self, SAMLSamplesCommand.self,
            LintCommand.self, LoginCommand.self,
        ])
}

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run scenario files and folders.",
        discussion: """
            Exit status: 0 all passed, 1 a scenario failed, 2 the input was unusable.
            --update records as it runs (see `passim record --help`); it never writes when CI is set.
            """)

    @Argument(help: "Scenario files or folders (searched recursively for .scenario files).")
    var paths: [String]

    @Flag(name: .shortAndLong, help: "Print every scenario's actual transcript.")
    var verbose = false

    @Option(help: "Run each scenario N times and fail unless every transcript is identical.")
    var `repeat`: Int = 1

    @Option(name: .customLong("tag"), help: "Run only scenarios with this tag (repeatable: any of them).")
    var tags: [String] = []

    @Option(
        help: ArgumentHelp(
            "Run shard i of n (1-based): the files, sorted by path, dealt round-robin.", valueName: "i/n"))
    var shard: String?

    @Option(help: "Run N scenarios at a time, on threads (output is the same as with 1).")
    var jobs: Int = 1

    @OptionGroup var live: LiveOption

    @OptionGroup var wire: WireOption

    @OptionGroup var server: ServerOptions

    @OptionGroup var port: PortCommandOption

    @OptionGroup var expect: ExpectOption

    @Option(help: ArgumentHelp("Also write a JUnit XML report to FILE.", valueName: "FILE"))
    var junit: String?

    @Option(
        name: .customLong("report-html"),
        help: ArgumentHelp(
            "Also write the run as a self-contained HTML page, DIR/index.html: each scenario's status and wall time, its failure (expected and actual side by side) and its sequence diagram.",
            valueName: "DIR"))
    var reportHTML: String?

    @Option(
        name: .customLong("port-log"),
        help: ArgumentHelp(
            "With --port: write every line exchanged with the port, after its virtual time and > (to the port) or < (from it), to FILE, each scenario under a # PATH line; or, to a folder (an existing one, or a path ending in /), one file per scenario.",
            valueName: "FILE|DIR"))
    var portLog: String?

    @Flag(
        help: "Write JSON lines to standard output instead of the text report: one object per scenario, then a summary."
    )
    var json = false

    @Option(
        help: ArgumentHelp(
            "Record files as they run: missing (a callback missing or extra), failed, or all.",
            valueName: "missing|failed|all"))
    var update: SuiteUpdate.Mode?

    @Flag(help: "Accept a folder that holds no .scenario file (by default it is an error, exit 2).")
    var allowEmpty = false

    @Flag(
        name: .shortAndLong,
        help:
            "One character a scenario (. passed, F failed, E unusable, x expected failure, s skipped), then the failures."
    )
    var quiet = false

    @Option(
        name: .customShort("k"),
        help: ArgumentHelp(
            "Only scenarios whose path or title holds these words (case-insensitive; and, or, not, parentheses; repeatable: any of them).",
            valueName: "EXPRESSION"))
    var names: [String] = []

    @Flag(name: [.customShort("x"), .long], help: "Start no scenario after the first failure.")
    var failFast = false

    @Option(help: ArgumentHelp("List the N slowest scenarios (wall time; 0: all) before the summary.", valueName: "N"))
    var durations: Int?

    func validate() throws {
        if let durations, durations < 0 { throw ValidationError("--durations takes a number of at least 0") }
        if quiet, verbose { throw ValidationError("-q and -v ask for opposite things: give one") }
        for name in names {
            do { _ = try NameFilter(parsing: name) } catch { throw ValidationError(error.description) }
        }
        guard `repeat` >= 1 else { throw ValidationError("--repeat takes a number of at least 1") }
        guard jobs >= 1 else { throw ValidationError("--jobs takes a number of at least 1") }
        if live.isOn || port.command != nil, update != nil {
            throw ValidationError("--update records from simulated runs; drop --live and --port")
        }
        if server.adminURL != nil, !live.isOn { throw ValidationError("--server goes with --live") }
        if server.adminToken != nil, server.adminURL == nil {
            throw ValidationError("--admin-token goes with --server")
        }
        if server.adminURL != nil, jobs > 1 {
            throw ValidationError("--server serves one world at a time: drop --jobs")
        }
        if portLog != nil, port.command == nil {
            throw ValidationError("--port-log writes what a port is told and says: give --port COMMAND too")
        }
        if expect.file != nil, port.command == nil, wire.value != .restV2 {
            throw ValidationError("--expect describes a port or a wire: give --port COMMAND or --wire v2 too")
        }
        if let shard {
            do { _ = try Shard(parsing: shard) } catch { throw ValidationError(error.description) }
        }
    }

    func run() throws {
        var options = SuiteRun.Options(
            verbose: verbose, repeatCount: `repeat`, tags: tags, jobs: jobs,
            color: Terminal.colorOnStandardOutput)
        if let shard { options.shard = try Shard(parsing: shard) }
        options.allowEmpty = allowEmpty
        options.quiet = quiet
        options.failFast = failFast
        options.durations = durations
        options.names = names.compactMap { try? NameFilter(parsing: $0) }  // validate() refused the bad ones
        options.runtime.wire = wire.value
        if live.isOn {
            options.runtime.network = server.adminURL.map { .server(adminURL: $0, adminToken: server.token) } ?? .live
        }
        var expectFile = expect.file
        if expectFile == nil, port.command == nil, wire.value == .restV2,
            let found = ExpectOption.suiteDefault(for: paths)
        {
            // The suite's own differences between the wires: without them a v2 run of the bundled
            // suite fails every scenario whose difference is documented.
            expectFile = found
            options.warnsUnusedExpectations = false
            Terminal.write(
                "expectations: \(found) (the suite's own for --wire v2; --expect FILE names another, --expect /dev/null none)\n",
                to: json ? FileHandle.standardError : FileHandle.standardOutput)
        }
        if let expect = expectFile, port.command == nil {
            do {
                options.expectations = try Expectations.load(expect)
            } catch {
                throw Terminal.fail("passim: \(error.message)", status: 2)
            }
        }
        if let port = port.command {
            // Ports that speak protocol 1.1 serve scenario after scenario from one process per job.
            var command = PortCommand(command: port, timeout: self.port.timeout, pool: PortPool())
            command.log = portLog != nil
            options.portLog = portLog
            if let expect = expect.file {
                do {
                    let expectations = try Expectations.load(expect)
                    command.constants = expectations.constants
                    options.expectations = expectations
                } catch {
                    throw Terminal.fail("passim: \(error.message)", status: 2)
                }
            }
            options.runtime.port = command
        }
        // -q's characters are the progress; otherwise a line on a terminal's standard error.
        let progress = Terminal.isTTY(STDERR_FILENO) && !quiet ? ProgressLine() : nil
        if let progress { options.progress = { progress.update(done: $0, total: $1) } }
        // The text report goes out as each scenario ends (in the files' order); JSON at the end.
        // With --update the first run's report is not the final one: it stays unprinted.
        let streaming = !json && update == nil
        if streaming {
            options.stream = { text in
                if let progress {
                    progress.interrupt { Terminal.write(text, to: FileHandle.standardOutput) }
                } else {
                    Terminal.write(text, to: FileHandle.standardOutput)
                }
            }
        }
        if update != nil {
            // Bad paths are bad input (2) before CI's refusal (1).
            do { _ = try SuiteLoader.files(in: paths, allowEmpty: allowEmpty) } catch {
                throw Terminal.fail("passim: \(error)", status: 2)
            }
            if let refusal = SuiteUpdate.refusal() { throw Terminal.fail(refusal, status: 1) }
        }
        // An HTML report that cannot be written is bad input, said before the run rather than after it.
        if let reportHTML, let problem = Self.reportFolderProblem(reportHTML) {
            throw Terminal.fail("passim: cannot write the HTML report to \(reportHTML): \(problem)", status: 2)
        }
        var report = SuiteRun(options: options).run(paths: paths)
        options.runtime.port?.pool?.closeAll()
        progress?.finish()
        if let mode = update {
            let outcome = SuiteUpdate.record(SuiteUpdate.candidates(report, mode: mode), mode: mode)
            Terminal.write(outcome.log + outcome.errors, to: FileHandle.standardError)
            if !outcome.written.isEmpty {
                report = SuiteRun(options: options).run(paths: paths)
                progress?.finish()
            }
            if outcome.failures > 0, report.status == .passed { report.status = .failed }
        }
        Terminal.write(report.errors, to: FileHandle.standardError)
        if !streaming {
            Terminal.write(json ? SuiteReports.jsonLines(report) : report.output, to: FileHandle.standardOutput)
        }
        if let junit {
            do {
                try Data(SuiteReports.junit(report).utf8).write(to: URL(fileURLWithPath: junit), options: .atomic)
            } catch {
                throw Terminal.fail(
                    "passim: cannot write the JUnit report to \(junit): \(error.localizedDescription)", status: 2)
            }
        }
        if let reportHTML {
            let page = URL(fileURLWithPath: reportHTML).appendingPathComponent("index.html")
            do {
                try Data(RunReportPage.html(report).utf8).write(to: page, options: .atomic)
            } catch {
                throw Terminal.fail(
                    "passim: cannot write the HTML report to \(page.path): \(error.localizedDescription)", status: 2)
            }
        }
        if report.status != .passed { throw ExitCode(report.status.rawValue) }
    }

    /// Why `--report-html DIR` cannot be written (nil: DIR exists or was made, and is writable).
    static func reportFolderProblem(_ dir: String) -> String? {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: dir, isDirectory: &isDirectory), !isDirectory.boolValue {
            return "it is a file, not a folder"
        }
        do {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        } catch {
            return "cannot make the folder (\(error.localizedDescription))"
        }
        return FileManager.default.isWritableFile(atPath: dir) ? nil : "the folder is not writable"
    }
}

extension Doc {
    /// Whether the seed-element page links the seeds' description as `../spec/README.md`: where that
    /// resolves beside --out, or when the whole bundled suite is documented from its checkout (`make
    /// docs`, and `make docs-check`, which writes to a temporary folder and must get the same bytes).
    /// Elsewhere (a project's own scenarios) the page names the file without a link that would break.
    var linksSpec: Bool {
        let files = FileManager.default
        if files.fileExists(
            atPath: URL(fileURLWithPath: out).appendingPathComponent("../spec/README.md").standardized.path)
        {
            return true
        }
        let here = URL(fileURLWithPath: files.currentDirectoryPath)
        let suite = here.appendingPathComponent("Scenarios").standardized.path
        guard files.fileExists(atPath: here.appendingPathComponent("docs/spec/README.md").path) else { return false }
        return paths.count == 1 && URL(fileURLWithPath: paths[0], relativeTo: here).standardized.path == suite
    }
}

extension SuiteUpdate.Mode: ExpressibleByArgument {}

extension CallbackDocs.DiagramFormat: ExpressibleByArgument {}

struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Rewrite the < lines of scenario files from what the engine does.",
        discussion: """
            An existing < line is where time runs, as in `passim run`: it is kept as written when its pattern
            still matches what comes there, else the callback that came is written there. Callbacks no < line
            took (found before a > step of their app, or at the end) become new < lines after the step they
            came in; a < line that found nothing is removed; two > steps written together happen at the same
            instant, and a failure that comes from that names the < lines to add. A file with no < line at all
            is a draft, recorded as an app that waits would run it: after each > and user step, time runs until
            no HTTP request of the engine awaits its answer, and what came is written after that step; a
            `clock +D` line right after a step says itself how much time passes there (clock +0ms: the next
            step comes at the same instant). Volatile values are written
            as patterns: media tokens $token1..., tracking GUIDs $guid..., registration codes $code...,
            URLs with a query /scheme:\\/\\/host\\/path\\?.*/. Every other line stays byte for byte, and the
            recorded file is run before it is written. Never writes when the CI environment variable is set.
            Exit status: 0 recorded, 1 a file could not be recorded (or CI is set), 2 the input was unusable.
            """)

    @Argument(help: "Scenario files or folders (searched recursively for .scenario files).")
    var paths: [String]

    @Flag(help: "Rewrite every < line, even one whose pattern still matches.")
    var fresh = false

    @Flag(help: "Accept a folder that holds no .scenario file (by default it is an error, exit 2).")
    var allowEmpty = false

    func run() throws {
        let files: [String]
        do { files = try SuiteLoader.files(in: paths, allowEmpty: allowEmpty) } catch {
            throw Terminal.fail("passim: \(error)", status: 2)
        }
        if let refusal = SuiteUpdate.refusal() { throw Terminal.fail(refusal, status: 1) }
        let outcome = SuiteUpdate.record(files, recorder: Recorder(fresh: fresh))
        Terminal.write(outcome.errors, to: FileHandle.standardError)
        Terminal.write(outcome.log, to: FileHandle.standardOutput)
        let unchanged = files.count - outcome.written.count - outcome.failures - outcome.unusable
        Terminal.write(
            "\(outcome.written.count) recorded, \(unchanged) unchanged"
                + (outcome.failures > 0 ? ", \(outcome.failures) could not be recorded" : "")
                + (outcome.unusable > 0 ? ", \(outcome.unusable) unusable" : "") + "\n", to: FileHandle.standardOutput)
        if outcome.unusable > 0 { throw ExitCode(2) }
        if outcome.failures > 0 { throw ExitCode(1) }
    }
}

struct Doc: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Generate the callback-order and migration pages (Markdown with sequence diagrams) from scenarios.",
        discussion: """
            One page per area folder (authn.md, ...) with each scenario's title, description and sequence diagram,
            and index.md: per API method, every callback order the scenarios show; written to --out.
            The diagrams are SVG images passim draws itself, written beside the pages (diagrams/AREA/NAME.svg) and
            shown by any Markdown viewer, the same bytes on every run; --diagrams mermaid writes Mermaid source
            in the pages instead (for viewers that run Mermaid). seed-elements.md: which scenarios exercise each
            element of Adobe's API reference.
            With --migration-out DIR, also the migration pages (docs/MIGRATION.md): per SDK call and cookbook flow,
            one scenario run on the SDK's wire and on REST API v2's, the requests and callbacks side by side, with
            the reasons of the v2 wire's expectations file (--expect). They link the callback pages as ../callbacks/
            and the repository's files as ../../ (`make docs` writes docs/callbacks and docs/migration).
            Nothing is written unless every scenario passes. Pages that are no longer generated are not deleted
            (CI's diff names them).
            Exit status: 0 written, 1 a scenario failed, 2 the input was unusable.
            """)

    @Argument(help: "Scenario files or folders.")
    var paths: [String]

    @Option(help: ArgumentHelp("The folder to write the callback pages to.", valueName: "DIR"))
    var out = "docs/callbacks"

    @Option(
        help: ArgumentHelp(
            "Also write the migration pages (SDK wire and REST API v2 side by side) to this folder.", valueName: "DIR"))
    var migrationOut: String?

    @OptionGroup var expect: ExpectOption

    @Option(
        help: ArgumentHelp(
            "How to draw the sequence diagrams: SVG images beside the pages, or Mermaid source in them.",
            valueName: "svg|mermaid"))
    var diagrams: CallbackDocs.DiagramFormat = .svg

    func run() throws {
        var expectations: MigrationDocs.Expectations?
        if migrationOut != nil {
            do {
                expectations = try MigrationDocs.Expectations.load(expect.file ?? ExpectOption.wireV2)
            } catch {
                throw Terminal.fail("passim doc: \(error) (--expect FILE names the v2 wire's expectations)", status: 2)
            }
        }
        // Absolute paths under the current folder link as relative ones, so the pages do not depend on where
        // the repository is.
        let generation = CallbackDocs.generate(
            paths: paths, jobs: 2, migration: expectations, root: FileManager.default.currentDirectoryPath,
            diagrams: diagrams, specLink: linksSpec ? "../spec/README.md" : nil)
        Terminal.write(generation.errors, to: FileHandle.standardError)
        guard generation.status == .passed else {
            throw Terminal.fail(
                "passim doc: nothing written (the scenarios above do not pass)", status: generation.status.rawValue)
        }
        var written = [(out, generation.pages)]
        if let migrationOut { written.append((migrationOut, generation.migration)) }
        for (dir, pages) in written {
            do {
                try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
                for page in pages {
                    let url = URL(fileURLWithPath: dir).appendingPathComponent(page.name)
                    try FileManager.default.createDirectory(
                        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try Data(page.text.utf8).write(to: url, options: .atomic)
                }
            } catch {
                throw Terminal.fail("passim doc: cannot write to \(dir): \(error.localizedDescription)", status: 2)
            }
        }
        for (dir, pages) in written {
            let images = pages.filter { $0.name.hasSuffix(".svg") }.count
            Terminal.write(
                "wrote \(pages.count - images) pages"
                    + (images > 0 ? " and \(images) diagram" + (images == 1 ? "" : "s") : "")
                    + " to \(dir)\n",
                to: FileHandle.standardOutput)
        }
    }
}

/// Terminal facts and output helpers.
enum Terminal {
    static func isTTY(_ fd: Int32) -> Bool { isatty(fd) != 0 }

    /// Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org).
    static var colorOnStandardOutput: Bool {
        isTTY(STDOUT_FILENO) && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
    }

    /// Writes, or ends the process when the reader has gone (`passim run … | head`): SIGPIPE is
    /// ignored (NIO asks for that), and FileHandle.write would trap on EPIPE. 141 is what a shell
    /// reports for a process a closed pipe ended.
    static func write(_ text: String, to handle: FileHandle) {
        guard !text.isEmpty else { return }
        do {
            try handle.write(contentsOf: Data(text.utf8))
        } catch {
            Foundation.exit(141)
        }
    }

    /// Prints `message` on standard error and returns the exit code to throw.
    static func fail(_ message: String, status: Int32) -> ExitCode {
        write(message + "\n", to: FileHandle.standardError)
        return ExitCode(status)
    }
}

struct Shim: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "passim's own engine behind the port driver protocol (docs/PORTING.md), on standard input and output.",
        discussion: """
            For `passim run --port 'passim shim'`: the suite through the protocol must give the same results as
            without it, on the harness network and (with --live) on the live network, where the shim sends its
            requests through libcurl. Reads one JSON message a line until end of input.
            """)

    func run() throws {
        // libcurl is set up on the first live request only: a shim on the harness network never needs it.
        var transport: CurlTransport?
        let shim = PortShim { request, timeout in
            if transport == nil {
                do throws(LiveError) {
                    transport = try CurlTransport()
                } catch {
                    return .failure("libcurl: \(error.message)")
                }
            }
            return transport?.perform(request, timeout: timeout) ?? .failure("libcurl unavailable")
        }
        while let line = readLine(strippingNewline: true) {
            guard !line.isEmpty else { continue }
            // One write per line, unbuffered: the harness reads each as soon as it is known (a live
            // fetch's `fetched` line when that fetch ends).
            shim.handle(line) { FileHandle.standardOutput.write(Data(($0 + "\n").utf8)) }
        }
    }
}
