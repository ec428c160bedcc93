extension ScenarioParser {
    /// Parses a world file for `passim serve`: the header and world statements of a scenario, with
    /// `scenario "title"` optional and no steps. The same parser checks every statement, so a world
    /// file means exactly what it would mean at the top of a scenario. A step is refused where it is
    /// met ("a world file has no steps"), before its own syntax is checked, so that message wins.
    public static func parseWorld(_ text: String, path: String) throws(Diagnostic) -> ScenarioFile {
        var parser = FileParser(path: path)
        let statementsStart = try FileParser.lines(of: text, path: path)
        let declaresScenario = statementsStart.contains { line in
            var c = line
            return !c.atEnd() && c.word()?.text == "scenario"
        }
        // Without a `scenario` line, act as if it had been seen: every other rule stays the parser's.
        if !declaresScenario { parser.scenarioLine = 0 }
        for line in statementsStart {
            var c = line
            if c.atEnd() {
                parser.noteBlankOrComment(c)
                continue
            }
            var probe = c
            let start = probe.pos
            var isStep = probe.current == ">" || probe.current == "<"
            if !isStep, let head = probe.word() {
                if probe.current == ">" || probe.current == "<" {
                    isStep = true
                } else if head.text == "user" {
                    isStep = !parser.userDeclarationFollows(probe)
                } else {
                    isStep = FileParser.stepKeywords.contains(head.text)
                }
            }
            if isStep { throw c.diagnostic("a world file has no steps", at: start) }
            try parser.parseStatement(&c)
        }
        let description = parser.descriptionLines.filter { !$0.isEmpty }.joined(separator: " ")
        parser.file.description = declaresScenario && !description.isEmpty ? description : nil
        return parser.file
    }
}
