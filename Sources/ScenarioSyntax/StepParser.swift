/// Parses a scenario's header and world once, then its steps one line at a time, with the same rules
/// (and names, and `$names` bound so far) as `ScenarioParser.parse` applied to the whole text.
///
/// The fuzzer generates a program a step at a time and runs each step as it comes: re-parsing the
/// whole program for every new line was 43% of its time (BENCHMARKS.md, "the state-machine fuzzer").
public struct StepParser: Sendable {
    private var parser: FileParser
    private var lineNumber: Int
    /// The header and world, without steps (the steps parsed so far are not kept).
    public var file: ScenarioFile { parser.file }

    /// `text` is the start of a scenario: its header and world (steps allowed too; they are kept in `file`).
    public init(_ text: String, path: String) throws(Diagnostic) {
        parser = FileParser(path: path)
        _ = try parser.parse(text)
        lineNumber = FileParser.split(text).count
    }

    /// One more line of the file: a step, returned (a blank or comment line gives nil). Anything but
    /// a step is refused and changes nothing.
    public mutating func step(_ line: String) throws(Diagnostic) -> Located<Step>? {
        let number = lineNumber + 1
        let lines = try FileParser.lines(of: line, path: parser.file.path)
        guard lines.count == 1, let only = lines.first else {
            throw Diagnostic(
                location: SourceLocation(file: parser.file.path, line: number, column: 1),
                message: "expected one line", lineText: line)
        }
        var c = LineCursor(file: parser.file.path, lineNumber: number, scalars: only.scalars)
        if c.atEnd() {
            lineNumber = number
            return nil
        }
        var next = parser
        let steps = next.file.steps.count
        try next.parseStatement(&c)
        guard next.file.steps.count == steps + 1, let step = next.file.steps.popLast() else {
            throw c.diagnostic("expected a step", at: 0)
        }
        parser = next
        lineNumber = number
        return step
    }
}
