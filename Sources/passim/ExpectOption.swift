import ArgumentParser
import Foundation

/// `--expect FILE`, one option for `run`, `fuzz` and `doc`: an expectations file (docs/PORTING.md,
/// "Expectations file"). fuzz merges several; run and doc read one, the last given, as their
/// single-valued option did before the option was shared.
struct ExpectOption: ParsableArguments {
    @Option(
        name: .customLong("expect"),
        help: ArgumentHelp(
            "An expectations file (docs/PORTING.md): expected failures, skips, constants, `differ` and `parity` rules. run: a port's (with --port) or a wire's (with --wire v2; default: the suite's own wire-v2.expect, found beside the scenarios or above them, named on the first line; --expect /dev/null for none); fuzz: with --port, --against or --parity (default: Scenarios/wire-v2.expect), several merged in order; doc: the v2 wire's, for --migration-out (default: Scenarios/wire-v2.expect).",
            valueName: "FILE"))
    var files: [String] = []

    /// For the commands that read one file: the last given (nil when none).
    var file: String? { files.last }

    /// The REST API v2 wire's expectations file: doc's default, and fuzz --parity's.
    static let wireV2 = "Scenarios/wire-v2.expect"

    /// The expectations file of the suite `paths` belong to, for `run --wire v2` without `--expect`:
    /// the first `wire-v2.expect` found in a path's folder or a folder above it (the bundled suite's
    /// is `Scenarios/wire-v2.expect`, whichever of its folders or files is run). nil when none.
    static func suiteDefault(for paths: [String]) -> String? {
        let files = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard files.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            var folder = URL(fileURLWithPath: path).standardizedFileURL
            if !isDirectory.boolValue { folder.deleteLastPathComponent() }
            while true {
                let candidate = folder.appendingPathComponent("wire-v2.expect")
                if files.fileExists(atPath: candidate.path) { return shown(candidate.path) }
                let parent = folder.deletingLastPathComponent()
                if parent.path == folder.path { break }
                folder = parent
            }
        }
        return nil
    }

    /// `path` relative to the working directory when it is under it, as a user would write it.
    private static func shown(_ path: String) -> String {
        let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.path + "/"
        return path.hasPrefix(here) ? String(path.dropFirst(here.count)) : path
    }
}
