import PassModel
import Testing
@testable import ScenarioSyntax

/// `StepParser` (the fuzzer's parser: the world once, then a step at a time) means what
/// `ScenarioParser.parse` means for the whole text.
@Suite struct StepParserTests {
    @Test func stepsOneAtATimeAreTheWholeFilesSteps() throws {
        let lines = formatExample.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let firstStep = try #require(lines.firstIndex { $0.hasPrefix(">") })
        var parser = try StepParser(lines[..<firstStep].joined(separator: "\n"), path: testPath)
        var steps: [Located<Step>] = []
        for line in lines[firstStep...] {
            if let step = try parser.step(line) { steps.append(step) }
        }
        let whole = try parse(formatExample)
        #expect(parser.file.steps.isEmpty)
        #expect(parser.file.world.count == whole.world.count)
        #expect(steps.map(\.text) == whole.steps.map(\.text))
        #expect(steps.map(\.location) == whole.steps.map(\.location))
        #expect(steps.map { "\($0.value)" } == whole.steps.map { "\($0.value)" })
    }

    @Test func aStepIsCheckedAgainstTheWorldAndTheNamesBoundSoFar() throws {
        var parser = try StepParser(preamble, path: testPath)
        #expect(throws: Diagnostic.self) { try parser.step("user login \"nobody\" \"x\" at Nowhere") }
        #expect(throws: Diagnostic.self) { try parser.step("> getAuthorization(\"CNN\", $unbound)") }
        #expect(try parser.step("   # a comment") == nil)
        #expect(try parser.step("clock +1s") != nil)
    }

    @Test func anythingButOneStepIsRefusedAndChangesNothing() throws {
        var parser = try StepParser(preamble, path: testPath)
        let world = parser.file.world.count
        #expect(throws: Diagnostic.self) { try parser.step("mvpd Dish \"DISH\" at main") }
        #expect(throws: Diagnostic.self) { try parser.step("clock +1s\nclock +2s") }
        #expect(parser.file.world.count == world)
        let step = try #require(try parser.step("clock +1s"))
        #expect(step.location.line == 6)  // the refused lines took no line number
    }
}
