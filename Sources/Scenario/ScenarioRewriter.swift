import ScenarioSyntax

/// Applies a recording to a file's text: `<` lines replaced, removed or inserted; every other byte
/// (comments, blank lines, world, calls, line endings, a byte-order mark) stays as it was.
struct ScenarioRewriter {
    /// One source line: its scalars without terminator, and the terminator (`\n`, `\r\n` or none at EOF).
    struct Line {
        var scalars: [Unicode.Scalar]
        var terminator: String

        var text: String {
            var s = ""
            s.unicodeScalars.append(contentsOf: scalars)
            return s + terminator
        }
    }

    static func lines(of text: String) -> [Line] {
        var lines: [Line] = []
        var current: [Unicode.Scalar] = []
        for scalar in text.unicodeScalars {
            if scalar == "\n" {
                if current.last == "\r" {
                    current.removeLast()
                    lines.append(Line(scalars: current, terminator: "\r\n"))
                } else {
                    lines.append(Line(scalars: current, terminator: "\n"))
                }
                current = []
            } else {
                current.append(scalar)
            }
        }
        if !current.isEmpty { lines.append(Line(scalars: current, terminator: "")) }
        return lines
    }

    static func rewrite(_ text: String, file: ScenarioFile, session: RecordingSession) -> String {
        let lines = lines(of: text)
        let newline = lines.first { !$0.terminator.isEmpty }?.terminator ?? "\n"
        // The parser counts columns after a byte-order mark; the mark stays where it is.
        let bom = lines.first?.scalars.first == "\u{FEFF}" ? 1 : 0
        var output: [[Line]] = lines.map { [$0] }

        func lineIndex(of step: Int) -> Int { file.steps[step].location.line - 1 }
        func indentation(_ line: Line, bomOffset: Int) -> [Unicode.Scalar] {
            Array(line.scalars.dropFirst(bomOffset).prefix { $0 == " " || $0 == "\t" })
        }

        for (step, replacement) in session.replaced {
            let index = lineIndex(of: step)
            guard index < lines.count else { continue }
            guard let newText = replacement else {
                output[index] = []
                continue
            }
            let located = file.steps[step]
            let offset = (index == 0 ? bom : 0) + located.location.column - 1
            let original = lines[index].scalars
            let end = min(original.count, offset + located.text.unicodeScalars.count)
            var scalars = Array(original[..<min(offset, original.count)])
            scalars.append(contentsOf: newText.unicodeScalars)
            scalars.append(contentsOf: original[end...])
            output[index] = [Line(scalars: scalars, terminator: lines[index].terminator)]
        }

        for (step, texts) in session.inserted.sorted(by: { $0.key < $1.key }) {
            // Before the first step: ahead of its line; else right after the anchor step's line.
            let anchorStep = max(step, 0)
            guard anchorStep < file.steps.count else { continue }
            let index = lineIndex(of: anchorStep)
            guard index < lines.count else { continue }
            let indent = indentation(lines[index], bomOffset: index == 0 ? bom : 0)
            let new = texts.map { Line(scalars: indent + Array($0.text.unicodeScalars), terminator: newline) }
            if step < 0 {
                output[index] = new + output[index]
            } else {
                output[index] += new
            }
        }

        // A file without a final newline keeps none: only the last line goes without one.
        if let last = lines.last, last.terminator.isEmpty {
            for i in output.indices.reversed() where !output[i].isEmpty {
                for j in output[i].indices where output[i][j].terminator.isEmpty { output[i][j].terminator = newline }
                output[i][output[i].count - 1].terminator = ""
                break
            }
        }
        return output.joined().map(\.text).joined()
    }
}
