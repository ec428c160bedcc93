import Foundation
import Testing
@testable import ScenarioSyntax

/// The `format N` header statement (docs/CONFORMANCE.md): this format and older ones are read, a
/// newer one is refused with that reason, and anything else is a plain syntax error.
@Suite struct ScenarioFormatTests {
    @Test func theCurrentFormatIsRead() throws {
        #expect(ScenarioFormat.version == 1)
        let file = try parse("scenario \"t\"\nformat 1\ntags a")
        #expect(file.tags == ["a"])
    }

    @Test func aNewerFormatIsRefusedWithItsReason() {
        #expect(
            diagnostic("scenario \"t\"\nformat 2")?.message
                == "this scenario is written in scenario format 2; this passim reads format 1 and older: update passim (CHANGELOG.md)"
        )
    }

    @Test func aFormatIsAVersionNumber() {
        for bad in ["0", "1.0", "-1", "01", "v2"] {
            #expect(
                diagnostic("scenario \"t\"\nformat \(bad)")?.message
                    == "invalid format '\(bad)' (expected a version number, this passim reads format 1)")
        }
        #expect(
            diagnostic("scenario \"t\"\nformat 1\nformat 1")?.message.hasPrefix("duplicate 'format' statement") == true)
    }

    /// Fixtures/hostile/scenario-format: the file a newer passim would write.
    @Test func theHostileFixtureIsRefused() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let path = root.appendingPathComponent("Fixtures/hostile/scenario-format/newer-format.scenario").path
        #expect(throws: Diagnostic.self) { try ScenarioParser.parse(fileAt: path) }
        do {
            _ = try ScenarioParser.parse(fileAt: path)
        } catch {
            #expect(error.location.line == 4)
            #expect(error.message.contains("scenario format 2"))
        }
    }
}
