import Testing
@testable import ScenarioSyntax

/// An ASCII file is split into lines by bytes (the fuzzer parses a world per run); it must give the
/// lines the scalar-by-scalar split gives.
@Suite struct LineSplitTests {
    static let texts = [
        "", "\n", "\n\n", "a", "a\n", "a\nb", "a\r\nb\r\n", "a\r\r\nb", "\r", "\r\n", "a\rb\n",
        "scenario \"x\"\nsp s1 \"https://s1.sp.test\" latency 5ms\n\n> setRequestor(\"R\")\n< setRequestorComplete(1)",
        "\t tabs \t\n  \r\n",
    ]

    @Test(arguments: texts) func theByteSplitIsTheScalarSplit(_ text: String) {
        #expect(FileParser.split(text) == FileParser.splitByScalars(text))
    }

    @Test func otherTextIsSplitByScalars() {
        #expect(FileParser.split("\u{FEFF}é\r\nü") == [["é"], ["ü"]])
    }
}
