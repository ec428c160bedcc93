import Foundation
import Testing

/// `passim run --wire v2` on the bundled suite reads the suite's own expectations file unless another
/// is given, and says so on its first line (the binary `swift build` makes, as CommandLineOptionsTests).
@Suite struct RunExpectationsDefaultTests {
    /// A scenario whose v2 difference `Scenarios/wire-v2.expect` documents as an expected failure.
    static let documented = "Scenarios/authz/unusable-answer.scenario"

    @Test func theSuitesOwnFileIsReadAndNamed() throws {
        let outcome = try CommandLineOptionsTests().passim(["run", "--wire", "v2", "-q", Self.documented])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.hasPrefix("expectations: Scenarios/wire-v2.expect (the suite's own for --wire v2"))
        #expect(outcome.stdout.contains("1 expected failure"))
        // The rules for the rest of the suite are not a warning on a run of one file.
        #expect(!outcome.stderr.contains("matches no scenario"))
    }

    @Test func anotherFileOrNoneIsTakenAsGiven() throws {
        let none = try CommandLineOptionsTests().passim([
            "run", "--wire", "v2", "-q", "--expect", "/dev/null", Self.documented,
        ])
        #expect(none.status == 1)
        #expect(!none.stdout.contains("expectations:"))
        // The SDK's wire has no expectations to read.
        let sdk = try CommandLineOptionsTests().passim(["run", "-q", Self.documented])
        #expect(sdk.status == 0)
        #expect(!sdk.stdout.contains("expectations:"))
    }
}
