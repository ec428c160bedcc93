import Foundation
import PassModel

/// Parses `.scenario` files (SCENARIO-FORMAT.md) and checks their names. Errors are `Diagnostic`s.
public enum ScenarioParser {
    public static func parse(_ text: String, path: String) throws(Diagnostic) -> ScenarioFile {
        var parser = FileParser(path: path)
        return try parser.parse(text)
    }

    public static func parse(fileAt path: String) throws(Diagnostic) -> ScenarioFile {
        func unreadable(_ why: String) -> Diagnostic {
            Diagnostic(
                location: SourceLocation(file: path, line: 1, column: 1), message: "cannot read file: \(why)",
                lineText: "")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw unreadable("no such file")
        }
        guard !isDirectory.boolValue else { throw unreadable("it is a directory") }
        // Refused before reading, so a huge file is never loaded to be refused.
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int,
            size > ScenarioLimits.fileBytes
        {
            throw unreadable(
                ScenarioLimits.exceeded("larger than \(ScenarioLimits.fileBytes) bytes", limit: "file-bytes"))
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw unreadable("permission denied or I/O error")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw unreadable("not valid UTF-8") }
        return try parse(text, path: path)
    }
}

/// What one statement contributes to the file.
enum ParsedStatement {
    /// A header statement, already applied to the file.
    case header
    case app(String, wire: EngineWire?)
    case world(WorldStatement)
    case step(Step)
}

/// One pass over the lines: parse each statement, check names as they are declared and used.
struct FileParser {
    var file: ScenarioFile
    var scenarioLine: Int?
    var sawStep = false
    var descriptionLines: [String] = []
    var descriptionClosed = false
    /// Line of each one-per-file header statement (`platform`, `seed`...).
    var headerLines: [String: Int] = [:]

    var sps = NameTable(kind: "SP")
    var mvpds = MVPDTable()
    var users = NameTable(kind: "user")
    var requestors = NameTable(kind: "requestor")
    var apps = NameTable(kind: "app")
    /// `$names` bound by an expectation so far: a call may only pass these.
    var bound: Set<String> = []
    /// `$names` first bound as the `code` of a REST API v2 session (`with code=$name` on an
    /// `http POST SP /api/v2/REQ/sessions…` step): the SP and programmer `user authenticate` opens it at.
    var sessionCodes: [String: (sp: String, requestor: String)] = [:]
    /// Containers the value parser is inside of, against `ScenarioLimits.valueDepth`.
    var valueDepth = 0
    /// The tags so far, so a repeated tag is found in constant time (200,000 tags took 68 s).
    var tagSet: Set<String> = []
    /// World statements and `app` lines so far, against `ScenarioLimits.worldStatements`.
    var worldStatementCount = 0

    static let headerKeywords = [
        "scenario", "format", "tags", "platform", "device", "wire", "seed", "app", "svc-scheme", "second-screen",
    ]
    static let worldKeywords = ["sp", "mvpd", "user", "requestor", "default-sp", "rest-v2"]
    static let stepKeywords = ["user", "browser", "clock", "net", "seen", "unseen", "lint", "http"]
    static let userActions = ["login", "back", "pick", "cancel", "enter-code", "authenticate"]

    init(path: String) {
        file = ScenarioFile(path: path, title: "")
    }

    mutating func parse(_ text: String) throws(Diagnostic) -> ScenarioFile {
        let lines = try FileParser.lines(of: text, path: file.path)
        for line in lines {
            var c = line
            if c.atEnd() {
                noteBlankOrComment(c)
                continue
            }
            try parseStatement(&c)
        }
        guard scenarioLine != nil else {
            let first = lines.first?.lineText ?? ""
            throw Diagnostic(
                location: SourceLocation(file: file.path, line: 1, column: 1),
                message: "missing 'scenario \"title\"' statement", lineText: first)
        }
        let description = descriptionLines.filter { !$0.isEmpty }.joined(separator: " ")
        file.description = description.isEmpty ? nil : description
        return file
    }

    /// The file's lines as cursors, once the file's size and every line's length are within limits.
    static func lines(of text: String, path: String) throws(Diagnostic) -> [LineCursor] {
        guard text.utf8.count <= ScenarioLimits.fileBytes else {
            throw Diagnostic(
                location: SourceLocation(file: path, line: 1, column: 1),
                message: ScenarioLimits.exceeded(
                    "file larger than \(ScenarioLimits.fileBytes) bytes", limit: "file-bytes"),
                lineText: "")
        }
        var cursors: [LineCursor] = []
        for (index, scalars) in split(text).enumerated() {
            let cursor = LineCursor(file: path, lineNumber: index + 1, scalars: scalars)
            guard scalars.count <= ScenarioLimits.lineLength else {
                throw cursor.diagnostic(
                    ScenarioLimits.exceeded(
                        "line longer than \(ScenarioLimits.lineLength) characters", limit: "line-length"),
                    at: ScenarioLimits.lineLength)
            }
            // Raw control characters never reach a statement: a step's text is echoed in reports, and
            // ESC or CR there would drive the reader's terminal. A string can still hold one, escaped.
            if let index = scalars.firstIndex(where: { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }) {
                let hex = String(scalars[index].value, radix: 16, uppercase: true)
                throw cursor.diagnostic(
                    "control character U+\(String(repeating: "0", count: 4 - hex.count) + hex) (in a string, write it as \\u{\(hex)})",
                    at: index)
            }
            cursors.append(cursor)
        }
        return cursors
    }

    /// Lines split on LF with a trailing CR dropped (CRLF files), and a leading byte-order mark removed.
    static func split(_ text: String) -> [[Unicode.Scalar]] {
        // ASCII text (every generated fuzz world) by bytes: a byte is a scalar there, and appending
        // scalars one by one from the scalar view was a third of parsing a fuzz run's world.
        var text = text
        return text.withUTF8({ splitASCII($0) }) ?? splitByScalars(text)
    }

    /// `split` of any text, scalar by scalar.
    static func splitByScalars(_ text: String) -> [[Unicode.Scalar]] {
        var lines: [[Unicode.Scalar]] = [[]]
        for scalar in text.unicodeScalars {
            if scalar == "\n" {
                if lines[lines.count - 1].last == "\r" { lines[lines.count - 1].removeLast() }
                lines.append([])
            } else {
                lines[lines.count - 1].append(scalar)
            }
        }
        if lines[lines.count - 1].last == "\r" { lines[lines.count - 1].removeLast() }
        if lines[0].first == "\u{FEFF}" { lines[0].removeFirst() }
        return lines
    }

    /// `split` of ASCII bytes; nil when some byte is not ASCII (no byte-order mark can be there).
    private static func splitASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> [[Unicode.Scalar]]? {
        guard !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
        var lines: [[Unicode.Scalar]] = []
        var start = 0
        func line(_ end: Int) {
            var end = end
            if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            lines.append(bytes[start..<end].map { Unicode.Scalar($0) })
        }
        for i in bytes.indices where bytes[i] == UInt8(ascii: "\n") {
            line(i)
            start = i + 1
        }
        line(bytes.count)
        return lines
    }

    /// Collects the description: the first block of comment lines before `scenario`.
    mutating func noteBlankOrComment(_ c: LineCursor) {
        guard scenarioLine == nil, !descriptionClosed else { return }
        guard c.current == "#" else {
            if !descriptionLines.isEmpty { descriptionClosed = true }
            return
        }
        var rest = c.text(c.pos + 1, c.scalars.count)
        if rest.hasPrefix(" ") { rest.removeFirst() }
        while let last = rest.unicodeScalars.last, last == " " || last == "\t" { rest.unicodeScalars.removeLast() }
        descriptionLines.append(rest)
    }

    mutating func parseStatement(_ c: inout LineCursor) throws(Diagnostic) {
        c.skipSpaces()
        let start = c.pos
        let parsed = try statement(&c, start: start)
        if !c.atEnd() {
            throw c.diagnostic("unexpected '\(c.nextTokenText())' after the statement", at: c.pos)
        }
        var end = c.pos
        while end > start, c.scalars[end - 1] == " " || c.scalars[end - 1] == "\t" { end -= 1 }
        let location = c.location(start)
        let text = c.text(start, end)
        switch parsed {
        case .header: break
        case .app(let name, let wire):
            try countWorldStatement(c, at: start)
            file.apps.append(Located(name, location: location, text: text))
            if let wire { file.appWires[name] = wire }
        case .world(let statement):
            try countWorldStatement(c, at: start)
            file.world.append(Located(statement, location: location, text: text))
        case .step(let step):
            guard file.steps.count < ScenarioLimits.steps else {
                throw c.diagnostic(
                    ScenarioLimits.exceeded("more than \(ScenarioLimits.steps) steps", limit: "steps"), at: start)
            }
            sawStep = true
            file.steps.append(Located(step, location: location, text: text))
        }
    }

    private mutating func countWorldStatement(_ c: LineCursor, at start: Int) throws(Diagnostic) {
        guard worldStatementCount < ScenarioLimits.worldStatements else {
            throw c.diagnostic(
                ScenarioLimits.exceeded(
                    "more than \(ScenarioLimits.worldStatements) world statements", limit: "world-statements"),
                at: start)
        }
        worldStatementCount += 1
    }

    func requireScenario(_ c: LineCursor, at start: Int) throws(Diagnostic) {
        guard scenarioLine == nil else { return }
        throw c.diagnostic("expected 'scenario \"title\"' as the first statement", at: start)
    }

    mutating func statement(_ c: inout LineCursor, start: Int) throws(Diagnostic) -> ParsedStatement {
        if c.current == ">" || c.current == "<" {
            try requireScenario(c, at: start)
            return try callStep(&c, app: nil)
        }
        guard let head = c.word() else {
            throw c.diagnostic("unexpected '\(c.nextTokenText())' (expected a statement)", at: start)
        }
        // `NAME>` / `NAME<`: the prefix touches the arrow.
        if c.current == ">" || c.current == "<" {
            try requireScenario(c, at: start)
            if head.text != ScenarioFile.firstAppName { try apps.check(head, in: c) }
            return try callStep(&c, app: head.text)
        }
        let keyword = head.text
        let isUserDeclaration = keyword == "user" && userDeclarationFollows(c)
        let isWorld =
            FileParser.headerKeywords.contains(keyword)
            || (FileParser.worldKeywords.contains(keyword) && keyword != "user") || isUserDeclaration
        guard isWorld || FileParser.stepKeywords.contains(keyword) else {
            let all = FileParser.headerKeywords + FileParser.worldKeywords + FileParser.stepKeywords
            throw c.diagnostic(
                "unknown statement '\(keyword)'" + Suggestion.hint(for: keyword, among: all), at: head.start)
        }
        if keyword == "scenario", let line = scenarioLine {
            throw c.diagnostic("duplicate 'scenario' statement (first at line \(line))", at: head.start)
        }
        if keyword != "scenario" { try requireScenario(c, at: start) }
        if isWorld && sawStep {
            throw c.diagnostic(
                "'\(keyword)' must come before the first step (header and world statements come first)", at: head.start)
        }
        switch keyword {
        case "scenario", "format", "tags", "platform", "device", "wire", "seed", "svc-scheme", "second-screen":
            try header(keyword, &c, head: head)
            return .header
        case "app": return try appStatement(&c)
        case "sp": return .world(try spStatement(&c))
        case "mvpd": return .world(try mvpdStatement(&c))
        case "user" where isUserDeclaration: return .world(try userStatement(&c))
        case "requestor": return .world(try requestorStatement(&c))
        case "default-sp": return .world(try defaultSPStatement(&c, head: head))
        case "rest-v2": return .world(try restV2Statement(&c))
        case "user": return .step(try userStep(&c))
        case "browser": return .step(try browserStep(&c))
        case "clock": return .step(try clockStep(&c))
        case "net": return .step(try netStep(&c))
        case "unseen": return .step(try seenStep(&c, unseen: true))
        case "lint": return .step(try lintStep(&c))
        case "http": return .step(try httpStep(&c))
        default: return .step(try seenStep(&c))
        }
    }

    /// `user NAME "PASSWORD" at ...` declares; `user login "N" "P"` and friends act. A name that is
    /// an action word declares only when its password is followed by `at`.
    func userDeclarationFollows(_ cursor: LineCursor) -> Bool {
        var c = cursor
        guard let name = c.word() else { return false }
        if !FileParser.userActions.contains(name.text) { return true }
        c.skipSpaces()
        guard c.current == "\"" else { return false }
        guard (try? c.string()) != nil else { return true }
        return c.keyword("at")
    }
}

extension ScenarioParser {
    /// A call or a callback written alone, as a `>` or `<` line writes it (`setToken(_, "R1")`): the
    /// `differ` rules of an expectations file name callbacks and calls this way. `column` is where
    /// `text` starts in `lineText`, line `line` of `path`, for the diagnostic.
    public static func callPattern(
        _ text: String, isCall: Bool, path: String, line: Int, column: Int = 1, lineText: String? = nil
    ) throws(Diagnostic) -> CallSyntax {
        var parser = FileParser(path: path)
        var c = LineCursor(file: path, lineNumber: line, scalars: Array(text.unicodeScalars))
        do throws(Diagnostic) {
            let call = try parser.callSyntax(&c, isCall: isCall)
            guard c.atEnd() else {
                throw c.diagnostic("unexpected text after the \(isCall ? "call" : "callback")", at: c.pos)
            }
            return call
        } catch {
            var moved = error
            moved.location.column += column - 1
            if let lineText { moved.lineText = lineText }
            throw moved
        }
    }
}
