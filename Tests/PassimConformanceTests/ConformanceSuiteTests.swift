import Foundation
import PassimConformance
import Testing
import XCTest

final class ConformanceSuiteTests: XCTestCase {
    /// The bundled suite is the repository's Scenarios/, every file of it.
    func testTheBundledSuiteIsTheRepositorysScenarios() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Scenarios").path
        let bundled = ConformanceSuite.bundled
        XCTAssertEqual(bundled.scenarios, ConformanceSuite(folder: repository).scenarios)
        XCTAssertGreaterThan(bundled.scenarios.count, 100)
        XCTAssertTrue(bundled.areas.contains("authn") && bundled.areas.contains("tvos"), "\(bundled.areas)")
    }

    /// passim's engine behind the public port API passes the whole suite, as it does behind `passim shim`.
    func testTheReferenceAdapterPassesTheWholeSuite() {
        let report = XCTAssertConformance(jobs: 2) { ReferenceAdapter() }
        XCTAssertEqual(report.failures.count, 0)
        XCTAssertEqual(report.results.count, ConformanceSuite.bundled.scenarios.count)
    }

    /// On REST API v2 the suite reads its `wire-v2.expect`: a scenario that differs by Adobe's design
    /// is an expected difference with its reason, the others pass (one through a rule written once: the
    /// device id the requestor withholds on the SDK's wire is the app's own on v2, choice 67), in
    /// process as through the reference.
    func testTheSuiteOnRESTv2() {
        let suite = ConformanceSuite.bundled.wire(.restV2).only(
            ["wire-v2/device-id-is-the-apps-own", "metadata/device-id", "logout/logout-svc"])
        for report in [suite.runReference(), suite.run { ReferenceAdapter() }] {
            XCTAssertTrue(report.allPassed, report.output)
            let outcomes = Dictionary(uniqueKeysWithValues: report.results.map { ($0.name, $0.outcome) })
            XCTAssertEqual(outcomes["logout/logout-svc"], .expectedDifference)
            XCTAssertEqual(outcomes["wire-v2/device-id-is-the-apps-own"], .passed)
            XCTAssertEqual(outcomes["metadata/device-id"], .passed)
            let reason = report.results.first { $0.name == "logout/logout-svc" }?.expectedDifference ?? ""
            XCTAssertTrue(reason.contains("no SVC flag"), reason)
        }
    }

    /// Same transcripts as the reference engine in the simulated runtime, byte for byte.
    func testTheAdapterTranscriptsAreTheReferences() {
        let suite = ConformanceSuite.bundled.areas("authn", "tvos")
        let port = suite.run { ReferenceAdapter() }.results.map(\.transcript)
        let reference = suite.runReference().results.map(\.transcript)
        XCTAssertEqual(port, reference)
        XCTAssertFalse(port.isEmpty)
    }

    /// On the live network the harness sends the port's requests over loopback HTTP: the same
    /// transcripts as the reference there, which prints what the wire carried (`--live`).
    func testTheLiveNetworkCarriesAnInProcessPortsRequests() {
        let suite = ConformanceSuite.bundled.areas("authn", "tvos", "faults").network(.live)
        let port = XCTAssertConformance(suite, jobs: 2) { ReferenceAdapter() }
        XCTAssertEqual(port.results.map(\.transcript), suite.runReference(jobs: 2).results.map(\.transcript))
        XCTAssertEqual(port.results.count, suite.scenarios.count)
        XCTAssertTrue(port.results.allSatisfy { $0.network == .live })
        XCTAssertTrue(
            suite.network(.simulated).run { ReferenceAdapter() }.results.allSatisfy { $0.network == .simulated })
    }

    func testFiltersSelectByAreaAndTag() {
        let suite = ConformanceSuite.bundled
        let tvos = suite.areas("tvos")
        XCTAssertFalse(tvos.scenarios.isEmpty)
        XCTAssertTrue(tvos.scenarios.allSatisfy { $0.hasPrefix("tvos/") })
        let tagged = suite.areas("cancel").tagged("cancel").runReference()
        XCTAssertEqual(tagged.results.count, suite.areas("cancel").scenarios.count)
        XCTAssertEqual(suite.areas("no-such-area").scenarios, [])
    }

    /// A port with a bug: each broken scenario is its own failure with the side-by-side diff.
    func testABrokenPortFailsScenarioByScenarioWithTheDiff() {
        final class SilentTracking: AccessEnablerPort {
            let inner = ReferenceAdapter()
            func start(_ world: PortWorld) { inner.start(world) }
            func handle(_ input: PortInput) -> [PortAction] {
                inner.handle(input).filter {
                    if case .callback(.sendTrackingData) = $0 { return false } else { return true }
                }
            }
        }
        let report = ConformanceSuite.bundled.areas("cancel").run { SilentTracking() }
        XCTAssertFalse(report.failures.isEmpty)
        let failure = report.failures[0]
        XCTAssertTrue(failure.report.hasPrefix("FAIL "), failure.report)
        XCTAssertTrue(failure.report.contains("expected") && failure.report.contains("| actual"), failure.report)
        XCTAssertTrue(failure.report.contains(">>> "), failure.report)
        XCTAssertTrue(
            failure.report.hasSuffix("replay: ConformanceSuite.bundled.only([\"\(failure.name)\"]).run { … }\n"),
            failure.report)
        XCTAssertEqual(suiteNames(ConformanceSuite.bundled.only([failure.name])), [failure.name])
        let issues = ConformanceIssues(report)
        XCTAssertEqual(issues.messages.count, report.failures.count)
        // Listed as expected, the failures are fine; a listed scenario that passes is reported.
        var expected = Dictionary(uniqueKeysWithValues: report.failures.map { ($0.name, "drops tracking") })
        XCTAssertEqual(ConformanceIssues(report, expectedFailures: expected).messages, [])
        if let passing = report.passed.first?.name {
            expected[passing] = "stale"
            XCTAssertEqual(ConformanceIssues(report, expectedFailures: expected).messages.count, 1)
        }
    }

    /// A port announcing a newer driver protocol than passim knows: a clear error, not a confusing failure.
    func testAPortAnnouncingANewerProtocolIsRefusedClearly() throws {
        let report = ConformanceSuite.bundled.areas("startup").run {
            let port = ReferenceAdapter()
            port.protocolVersion = PassimPortProtocol.version + 1
            return port
        }
        XCTAssertFalse(report.results.isEmpty)
        for result in report.results {
            XCTAssertEqual(result.outcome, .failed)
            XCTAssertTrue(
                result.message?.contains(
                    "the port speaks protocol 2, a newer driver protocol than this passim knows: update passim")
                    == true,
                result.message ?? "")
        }
    }

    /// A scenario written in a newer scenario format: the file is unusable, and the report says why.
    func testAScenarioInANewerFormatIsRefusedClearly() throws {
        let hostile = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/hostile/scenario-format").path
        let report = ConformanceSuite(folder: hostile).runReference()
        XCTAssertEqual(report.results.count, 0)
        XCTAssertEqual(report.unusable.count, 1)
        XCTAssertTrue(
            report.unusable[0].contains("this scenario is written in scenario format 2; this passim reads format 1"),
            report.unusable[0])
        XCTAssertFalse(report.allPassed)
    }
}

private func suiteNames(_ suite: ConformanceSuite) -> [String] { suite.scenarios }

/// The Swift Testing helper: a passing port records nothing, a broken one an issue per scenario.
/// The issues are built by `ConformanceIssues`, checked here without recording them; recording them
/// for real prints every deliberate failure's diff as a known issue, so a passing `make test` shows
/// them only on request: `PASSIM_SHOW_KNOWN_ISSUES=1 swift test --filter swiftTestingHelper`.
@Test func swiftTestingHelperRecordsOneIssuePerFailingScenario() {
    let suite = ConformanceSuite.bundled.areas("cancel")
    let passing = suite.expectConformance { ReferenceAdapter() }
    #expect(passing.allPassed)
    final class NoCallbacks: AccessEnablerPort {
        let inner = ReferenceAdapter()
        func start(_ world: PortWorld) { inner.start(world) }
        func handle(_ input: PortInput) -> [PortAction] {
            inner.handle(input).filter { if case .callback = $0 { return false } else { return true } }
        }
    }
    let broken = suite.run { NoCallbacks() }
    let messages = ConformanceIssues(broken).messages
    #expect(broken.failures.count == suite.scenarios.count)
    #expect(messages.count == suite.scenarios.count)
    #expect(
        zip(messages, broken.failures).allSatisfy {
            $0.hasPrefix("scenario \($1.name) failed\n") && $0.contains(">>> ")
        })
    guard ProcessInfo.processInfo.environment["PASSIM_SHOW_KNOWN_ISSUES"] != nil else { return }
    withKnownIssue {
        let report = suite.expectConformance { NoCallbacks() }
        #expect(report.failures.count == suite.scenarios.count)
    }
}
