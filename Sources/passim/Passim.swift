import ArgumentParser
import Foundation
import Scenario
import ScenarioSyntax

@main
struct Passim: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passim",
        abstract: "Deterministic simulator and conformance suite for the Adobe Pass AccessEnabler SDK.",
        subcommands: [Run.self])
}

/// Exit statuses of SCENARIO-FORMAT.md: 0 all passed, 1 a scenario failed, 2 the input was unusable.
enum Status {
    static let failed: Int32 = 1
    static let unusable: Int32 = 2
}

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run scenario files and folders.")

    @Argument(help: "Scenario files or folders.")
    var paths: [String]

    @Flag(name: .shortAndLong, help: "Print every scenario's actual transcript.")
    var verbose = false

    @Option(help: "Run each scenario N times and fail unless every transcript is identical.")
    var `repeat`: Int = 1

    func validate() throws {
        guard `repeat` >= 1 else { throw ValidationError("--repeat takes a number of at least 1") }
    }

    func run() throws {
        let files: [String]
        do {
            files = try SuiteLoader.files(in: paths)
        } catch {
            FileHandle.standardError.write(Data("passim: \(error)\n".utf8))
            throw ExitCode(Status.unusable)
        }
        var parsed: [ScenarioFile] = []
        var unusable = 0
        for path in files {
            do {
                parsed.append(try ScenarioParser.parse(fileAt: path))
            } catch {
                unusable += 1
                FileHandle.standardError.write(Data("\(error)\n".utf8))
            }
        }
        let runner = ScenarioRunner()
        var passed = 0, failed = 0
        var out = ""
        for file in parsed {
            var result = runner.run(file)
            for _ in 1..<`repeat` where result.status == .passed {
                let again = runner.run(file)
                if again.transcript != result.transcript {
                    result.status = .failed
                    result.failure = ("transcript differs between two runs with the same seed",
                                      SourceLocation(file: file.path, line: 1, column: 1))
                }
            }
            if result.status == .passed {
                passed += 1
                out += "ok   \(file.path)\n"
            } else {
                failed += 1
                out += result.failureReport
            }
            if verbose {
                out += "--- \(file.path): \(file.title)\n" + result.transcript
            }
        }
        out += "\(passed) passed, \(failed) failed" + (unusable > 0 ? ", \(unusable) unusable" : "") + "\n"
        print(out, terminator: "")
        if unusable > 0 { throw ExitCode(Status.unusable) }
        if failed > 0 { throw ExitCode(Status.failed) }
    }
}
