import Passim
import Foundation
import Port
import Scenario

/// The conformance suite: passim's `.scenario` files (bundled with this library, so a package that
/// depends on passim needs no checkout), run against your `AccessEnablerPort` in this process.
///
/// ```swift
/// let report = ConformanceSuite.bundled.run { MyPort() }
/// print(report)            // ok / FAIL lines, each failure with its side-by-side transcript diff
/// ```
public struct ConformanceSuite: Sendable {
    /// The folder the scenarios are read from.
    public let folder: String
    /// Relative paths (without `.scenario`) of the scenarios this suite runs; nil: every one.
    private var selection: [String]?
    private var tags: [String] = []
    /// Where the port's requests go (`network(_:)`).
    public private(set) var network: Network = .simulated
    /// The requests behind the API (`wire(_:)`): the SDK's, or REST API v2's.
    public private(set) var wire: EngineWire = .sdk

    /// Where a port's requests go while the suite runs (`.simulated`: passim's mock in this process;
    /// `.live`: real HTTP over loopback to a mock server started for each scenario). The harness sends
    /// them in either case: the port writes `.request` actions and gets each answer as `.response`,
    /// at the virtual instant the world's latencies give.
    public typealias Network = PassimNetwork

    /// The scenarios bundled with passim, or a folder of your own (`path`).
    public init(folder: String) {
        self.folder = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
    }

    /// The suite bundled with this library (every area of passim's `Scenarios/`).
    public static var bundled: ConformanceSuite {
        var suite = ConformanceSuite(folder: Bundle.module.bundleURL.appendingPathComponent("Scenarios").path)
        suite.repositoryFolder = "Scenarios"
        return suite
    }

    /// Where the scenarios live in passim's repository (`Scenarios` for the bundled suite): a failure
    /// names that path too, which a reader can open, beside the copy in the build folder it ran from.
    var repositoryFolder: String?

    /// The suite's areas (`authn`, `tvos`, …): its folders.
    public var areas: [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return entries.filter { name in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: folder + "/" + name, isDirectory: &isFolder)
                && isFolder.boolValue
        }.sorted()
    }

    /// Every scenario's name: its path under `folder` without `.scenario` (`authn/cancel-at-picker`).
    public var scenarios: [String] {
        let all = ((try? SuiteLoader.files(in: [folder], allowEmpty: true)) ?? []).map(name(of:))
        guard let selection else { return all }
        return all.filter(selection.contains)
    }

    /// Only these areas.
    public func areas(_ names: String...) -> ConformanceSuite { self.areas(names) }
    public func areas(_ names: [String]) -> ConformanceSuite {
        var s = self
        s.selection = scenarios.filter { scenario in names.contains { scenario.hasPrefix($0 + "/") } }
        return s
    }

    /// Only the scenarios with any of these tags (a scenario's `tags` line).
    public func tagged(_ tags: String...) -> ConformanceSuite {
        var s = self
        s.tags += tags
        return s
    }

    /// Only these scenarios (names as `scenarios` gives them).
    public func only(_ names: [String]) -> ConformanceSuite {
        var s = self
        s.selection = scenarios.filter(names.contains)
        return s
    }

    /// The same suite on `network`.
    public func network(_ network: Network) -> ConformanceSuite {
        var s = self
        s.network = network
        return s
    }

    /// The same suite on `wire`. On REST API v2, the suite's `wire-v2.expect` says which
    /// scenarios differ by Adobe's design and why: those come out `.expectedDifference` with that
    /// reason, and any other difference fails, as `passim run --wire v2 --expect` does. A port speaks the
    /// wire `PortWorld.configuration.wire` names.
    public func wire(_ wire: EngineWire) -> ConformanceSuite {
        var s = self
        s.wire = wire
        return s
    }

    /// Runs every selected scenario against a port `make` returns, a fresh one for each scenario.
    /// `jobs`: scenarios at once, each with its own port.
    public func run(jobs: Int = 1, port make: @escaping @Sendable () -> any AccessEnablerPort) -> ConformanceReport {
        let name = "in-process " + String(describing: type(of: make()))
        let command = PortCommand(inProcess: name) { PortBridge(make) }
        return run(ScenarioRunner.Runtime(network: runtimeNetwork, port: command, wire: runtimeWire), jobs: jobs)
    }

    /// Runs every selected scenario on passim's own engine (the reference).
    public func runReference(jobs: Int = 1) -> ConformanceReport {
        run(ScenarioRunner.Runtime(network: runtimeNetwork, wire: runtimeWire), jobs: jobs)
    }

    private var runtimeWire: EngineWire? { wire == .sdk ? nil : wire }

    private var runtimeNetwork: ScenarioRunner.Runtime.Network {
        switch network {
        case .simulated: .simulated
        case .live: .live
        }
    }

    private func run(_ runtime: ScenarioRunner.Runtime, jobs: Int) -> ConformanceReport {
        var options = SuiteRun.Options(tags: tags, jobs: max(jobs, 1))
        options.runtime = runtime
        options.allowEmpty = true
        if wire == .restV2 {
            let path = folder + "/wire-v2.expect"
            do {
                options.expectations = try Expectations.load(path)
            } catch {
                return ConformanceReport(
                    results: [], unusable: ["\(path): \(error)"], output: "\(path): \(error)\n")
            }
        }
        let paths = selection.map { $0.map { folder + "/" + $0 + ".scenario" } } ?? [folder]
        guard !paths.isEmpty else {
            return ConformanceReport(results: [], unusable: [], output: "0 passed, 0 failed\n")
        }
        let report = SuiteRun(options: options).run(paths: paths)
        var unusable: [String] = []
        for outcome in report.outcomes {
            if case .unusable(_, let diagnostic) = outcome { unusable.append(diagnostic) }
        }
        // A warning (an expectations line no selected scenario matches) makes no file unusable.
        let errors = report.errors.split(separator: "\n").filter { !$0.hasPrefix("passim: warning:") }
        if !errors.isEmpty, unusable.isEmpty { unusable.append(errors.joined(separator: "\n") + "\n") }
        return ConformanceReport(
            results: report.results.map {
                ConformanceReport.Result(
                    $0, name: name(of: $0.path),
                    repositoryFolder: repositoryFolder)
            },
            unusable: unusable, output: report.output)
    }

    private func name(of path: String) -> String {
        var p = path.hasPrefix(folder + "/") ? String(path.dropFirst(folder.count + 1)) : path
        if p.hasSuffix(".scenario") { p.removeLast(".scenario".count) }
        return p
    }
}

/// What a suite run found: one result per scenario, in the suite's order.
public struct ConformanceReport: Sendable, CustomStringConvertible {
    public struct Result: Sendable {
        public enum Outcome: String, Sendable {
            case passed, failed
            /// The port said it does not implement what a step asked.
            case unimplemented
            /// On REST API v2: differs from the SDK's transcript as the suite's `wire-v2.expect` says,
            /// by Adobe's design (`expectedDifference` gives the reason).
            case expectedDifference
        }
        /// `area/scenario`, as `ConformanceSuite.scenarios` lists it.
        public var name: String
        public var title: String
        public var outcome: Outcome
        /// Why it failed, with the file and line of the step (nil when it passed).
        public var message: String?
        /// The failure report: the expected and actual transcripts side by side, first difference marked.
        public var report: String
        /// What happened, one line a step: identical across runs.
        public var transcript: String
        /// The network the scenario ran on, as the harness composed it.
        public var network: ConformanceSuite.Network
        /// Why the scenario differs on this wire (`Outcome.expectedDifference`), from the expectations file.
        public var expectedDifference: String?

        init(_ r: ScenarioResult, name: String, repositoryFolder: String? = nil) {
            self.name = name
            title = r.title
            message = r.failure.map { "\($0.location): \($0.message)" }
            switch r.verdict {
            case .passed: outcome = .passed
            case .failed: outcome = .failed
            case .unimplemented: outcome = .unimplemented
            case .expectedFailure:
                outcome = .expectedDifference
                expectedDifference = r.expectedToFail
            case .unexpectedPass:
                outcome = .failed
                message =
                    "passes although wire-v2.expect says it differs (\(r.expectedToFail ?? "")): that line is stale"
            }
            report =
                r.status == .unimplemented ? "UNIMPLEMENTED \(name): \(r.failure?.message ?? "")\n" : r.failureReport
            // `passim run` cannot replay a port that lives in a test: say how to run it again from there.
            if r.runtimeFlags.hasPrefix("--port 'in-process "),
                let replay = report.range(of: "replay: passim run ", options: .backwards)
            {
                report =
                    String(report[..<replay.lowerBound])
                    + "replay: ConformanceSuite.bundled.only([\"\(name)\"]).run { … }\n"
            }
            if let repositoryFolder, let failure = r.failure {
                let place = "\(repositoryFolder)/\(name).scenario:\(failure.location.line):\(failure.location.column)"
                let note = "in passim's repository: \(place)"
                message = message.map { $0 + " (" + note + ")" }
                if let firstLine = report.firstIndex(of: "\n") {
                    report.insert(contentsOf: "  " + note + "\n", at: report.index(after: firstLine))
                }
            }
            transcript = r.transcript
            network = r.runtimeFlags.contains("--live") ? .live : .simulated
        }

        /// Passed, or differs on this wire exactly as the expectations file says.
        public var passed: Bool { outcome == .passed || outcome == .expectedDifference }
    }

    public var results: [Result]
    /// Scenario files that could not be read (a newer scenario format, a syntax error): their diagnostics.
    public var unusable: [String]
    /// The report as `passim run` prints it.
    public var output: String

    public var passed: [Result] { results.filter(\.passed) }
    public var failures: [Result] { results.filter { !$0.passed } }
    /// True when every scenario passed and every file was usable.
    public var allPassed: Bool { failures.isEmpty && unusable.isEmpty }
    public var summary: String {
        "\(passed.count) passed, \(failures.count) failed" + (unusable.isEmpty ? "" : ", \(unusable.count) unusable")
    }
    public var description: String { output }
}
