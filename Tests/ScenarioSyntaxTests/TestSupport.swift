import PassModel
import Testing
@testable import ScenarioSyntax

let testPath = "t.scenario"

func loc(_ line: Int, _ column: Int) -> ScenarioSyntax.SourceLocation {
    ScenarioSyntax.SourceLocation(file: testPath, line: line, column: column)
}

/// Lines 1-5 of every statement test: the line under test is line 6.
let preamble = """
    scenario "t"
    sp main "https://sp.test"
    sp backup "https://backup.test"
    mvpd Comcast "Xfinity" at main
    user alice "secret" at Comcast
    """

func parse(_ text: String) throws -> ScenarioFile {
    try ScenarioParser.parse(text, path: testPath)
}

/// The one world statement or step of `line` written after the preamble.
func parseLast(_ line: String) throws -> Located<WorldStatement>? {
    try parse(preamble + "\n" + line).world.last
}

func parseStep(_ line: String) throws -> Step? {
    let steps = try parse(preamble + "\n" + line).steps
    #expect(steps.count == 1)
    return steps.first?.value
}

/// The diagnostic `text` gives, or nil when it parses.
func diagnostic(_ text: String) -> Diagnostic? {
    do {
        _ = try ScenarioParser.parse(text, path: testPath)
        return nil
    } catch {
        return error
    }
}

/// Expects `text` to fail with exactly `expected`: `file:line:column: message`, the line, the caret.
func expectDiagnostic(_ text: String, _ expected: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    let d = diagnostic(text)
    #expect(d?.description == expected, sourceLocation: sourceLocation)
}
