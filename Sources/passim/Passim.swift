import ArgumentParser
import Foundation
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
        subcommands: [Run.self])
}

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run scenario files and folders.",
        discussion: "Exit status: 0 all passed, 1 a scenario failed, 2 the input was unusable.")

    @Argument(help: "Scenario files or folders (searched recursively for .scenario files).")
    var paths: [String]

    @Flag(name: .shortAndLong, help: "Print every scenario's actual transcript.")
    var verbose = false

    @Option(help: "Run each scenario N times and fail unless every transcript is identical.")
    var `repeat`: Int = 1

    func validate() throws {
        guard `repeat` >= 1 else { throw ValidationError("--repeat takes a number of at least 1") }
    }

    func run() throws {
        let report = SuiteRun(options: .init(verbose: verbose, repeatCount: `repeat`)).run(paths: paths)
        FileHandle.standardError.write(Data(report.errors.utf8))
        FileHandle.standardOutput.write(Data(report.output.utf8))
        if report.status != .passed { throw ExitCode(report.status.rawValue) }
    }
}
