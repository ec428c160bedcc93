import Passim
/// What a test reports after a suite run: each scenario that did not go as expected, as its own
/// failure with its side-by-side diff. Shared by the XCTest and Swift Testing helpers.
public struct ConformanceIssues: Sendable {
    /// One message per scenario (or unusable file) that needs attention.
    public var messages: [String]

    /// `expectedFailures`: scenario names (`area/name`) with the reason your port fails them; such a
    /// scenario that fails is fine, one that passes is reported (remove it from the list).
    public init(_ report: ConformanceReport, expectedFailures: [String: String] = [:]) {
        var messages = report.unusable.map { "unusable scenario file:\n" + $0 }
        for result in report.results {
            let reason = expectedFailures[result.name]
            switch (result.passed, reason) {
            case (false, nil): messages.append("scenario \(result.name) \(result.outcome.rawValue)\n" + result.report)
            case (true, let reason?):
                messages.append(
                    "scenario \(result.name) passed, but is listed as an expected failure (\(reason)): remove it from the list"
                )
            default: break
            }
        }
        let ran = Set(report.results.map(\.name))
        for name in expectedFailures.keys.sorted() where !ran.contains(name) {
            messages.append("expected failure \(name) names no scenario of this run")
        }
        self.messages = messages
    }
}

#if canImport(XCTest)
    import XCTest

    /// Runs `suite` against the ports `make` returns and records one XCTest failure per scenario that
    /// failed (its side-by-side transcript diff), at the caller's line. Returns the report.
    @discardableResult
    public func XCTAssertConformance(
        _ suite: ConformanceSuite = .bundled, expectedFailures: [String: String] = [:], jobs: Int = 1,
        file: StaticString = #filePath, line: UInt = #line,
        port make: @escaping @Sendable () -> any AccessEnablerPort
    ) -> ConformanceReport {
        let report = suite.run(jobs: jobs, port: make)
        let issues = ConformanceIssues(report, expectedFailures: expectedFailures)
        if report.results.isEmpty, report.unusable.isEmpty {
            XCTFail("the suite selected no scenario", file: file, line: line)
        }
        for message in issues.messages { XCTFail(message, file: file, line: line) }
        return report
    }
#endif

#if canImport(Testing)
    import Testing

    extension ConformanceSuite {
        /// Swift Testing: runs the suite against the ports `make` returns and records one issue per
        /// scenario that failed (its side-by-side transcript diff), at the caller's line.
        @discardableResult
        public func expectConformance(
            expectedFailures: [String: String] = [:], jobs: Int = 1,
            sourceLocation: Testing.SourceLocation = #_sourceLocation,
            port make: @escaping @Sendable () -> any AccessEnablerPort
        ) -> ConformanceReport {
            let report = run(jobs: jobs, port: make)
            if report.results.isEmpty, report.unusable.isEmpty {
                Issue.record("the suite selected no scenario", sourceLocation: sourceLocation)
            }
            for message in ConformanceIssues(report, expectedFailures: expectedFailures).messages {
                Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
            }
            return report
        }
    }
#endif
