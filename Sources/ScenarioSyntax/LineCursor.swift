import PassModel

/// The lexer: a cursor over one source line, read token by token as the parser asks.
///
/// The DSL's tokens depend on their position (`/` opens a regex in a value but a path word in
/// `seen` is raw up to whitespace), so the parser drives the lexer rather than reading a token list.
struct LineCursor {
    struct Token {
        var text: String
        /// Index of the token's first scalar in the line.
        var start: Int
    }

    let file: String
    let lineNumber: Int
    let lineText: String
    let scalars: [Unicode.Scalar]
    private(set) var pos = 0

    init(file: String, lineNumber: Int, scalars: [Unicode.Scalar]) {
        self.file = file
        self.lineNumber = lineNumber
        self.scalars = scalars
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars)
        self.lineText = text
    }

    var current: Unicode.Scalar? { pos < scalars.count ? scalars[pos] : nil }

    func location(_ index: Int) -> SourceLocation {
        SourceLocation(file: file, line: lineNumber, column: index + 1)
    }

    func diagnostic(_ message: String, at index: Int) -> Diagnostic {
        Diagnostic(location: location(index), message: message, lineText: lineText)
    }

    mutating func advance() { pos += 1 }

    mutating func skipSpaces() {
        while let c = current, c == " " || c == "\t" { pos += 1 }
    }

    /// True, after skipping blanks, at the end of the line or at a `#` comment.
    mutating func atEnd() -> Bool {
        skipSpaces()
        return current == nil || current == "#"
    }

    /// Consumes `c` if it comes next (after blanks).
    mutating func consume(_ c: Unicode.Scalar) -> Bool {
        skipSpaces()
        guard current == c else { return false }
        pos += 1
        return true
    }

    mutating func expect(_ c: Unicode.Scalar, _ message: String) throws(Diagnostic) {
        guard consume(c) else { throw diagnostic(message, at: pos) }
    }

    static func isWordScalar(_ c: Unicode.Scalar) -> Bool { Value.isIdentifierScalar(c) }

    /// A run of identifier scalars (letters, digits, `_`, `-`, `.`), after blanks; nil if none.
    mutating func word() -> Token? {
        skipSpaces()
        let start = pos
        while let c = current, LineCursor.isWordScalar(c) { pos += 1 }
        guard pos > start else { return nil }
        return Token(text: text(start, pos), start: start)
    }

    /// The next word without consuming it.
    func peekWord() -> Token? {
        var copy = self
        return copy.word()
    }

    /// The next word if it is exactly `keyword`, consumed.
    mutating func keyword(_ keyword: String) -> Bool {
        guard let w = peekWord(), w.text == keyword else { return false }
        _ = word()
        return true
    }

    /// True when the next word is immediately followed (blanks allowed) by `c`: a label or a key.
    func wordFollowed(by c: Unicode.Scalar) -> Bool {
        var copy = self
        guard copy.word() != nil else { return false }
        copy.skipSpaces()
        return copy.current == c
    }

    /// Everything up to the next blank (the path of `seen`).
    mutating func rawWord() -> Token? {
        skipSpaces()
        let start = pos
        while let c = current, c != " ", c != "\t" { pos += 1 }
        guard pos > start else { return nil }
        return Token(text: text(start, pos), start: start)
    }

    /// A double-quoted string with `\"`, `\\`, `\n`, `\t`, `\u{...}` escapes, if one comes next.
    mutating func string() throws(Diagnostic) -> Token? {
        skipSpaces()
        guard current == "\"" else { return nil }
        let start = pos
        pos += 1
        var out = ""
        var length = 0
        while let c = current {
            switch c {
            case "\"":
                pos += 1
                return Token(text: out, start: start)
            case "\\":
                out.unicodeScalars.append(try escape())
            default:
                out.unicodeScalars.append(c)
                pos += 1
            }
            length += 1
            try checkValueLength(length, "string", at: start)
        }
        throw diagnostic("unterminated string", at: start)
    }

    private mutating func escape() throws(Diagnostic) -> Unicode.Scalar {
        let start = pos
        pos += 1
        guard let c = current else { throw diagnostic("unterminated string", at: start) }
        pos += 1
        switch c {
        case "\"": return "\""
        case "\\": return "\\"
        case "n": return "\n"
        case "t": return "\t"
        case "u":
            guard current == "{" else { throw diagnostic("expected '{' after '\\u'", at: pos) }
            pos += 1
            let digitsStart = pos
            while let d = current, d.properties.isASCIIHexDigit { pos += 1 }
            let digits = text(digitsStart, pos)
            guard current == "}", (1...8).contains(digits.count), let v = UInt32(digits, radix: 16),
                let scalar = Unicode.Scalar(v)
            else {
                throw diagnostic(
                    "invalid unicode escape (expected '\\u{' 1 to 8 hex digits of a scalar '}')", at: start)
            }
            pos += 1
            return scalar
        default:
            throw diagnostic("invalid escape '\\\(c)' (expected \\\", \\\\, \\n, \\t or \\u{...})", at: start)
        }
    }

    /// A `/…/` regex if one comes next: its body with `\/` turned into `/`, checked to compile.
    mutating func regex() throws(Diagnostic) -> Token? {
        skipSpaces()
        guard current == "/" else { return nil }
        let start = pos
        pos += 1
        var body = ""
        var length = 0
        while let c = current {
            if c == "/" {
                pos += 1
                try LineCursor.checkRegex(body, at: start, in: self)
                return Token(text: body, start: start)
            }
            length += 1
            try checkValueLength(length, "regex", at: start)
            if c == "\\", pos + 1 < scalars.count {
                let next = scalars[pos + 1]
                if next == "/" {
                    body += "/"
                } else {
                    body.unicodeScalars.append(c)
                    body.unicodeScalars.append(next)
                }
                pos += 2
                continue
            }
            body.unicodeScalars.append(c)
            pos += 1
        }
        throw diagnostic("unterminated regex (expected a closing '/')", at: start)
    }

    private func checkValueLength(_ length: Int, _ what: String, at start: Int) throws(Diagnostic) {
        guard length <= ScenarioLimits.valueLength else {
            throw diagnostic(
                ScenarioLimits.exceeded(
                    "\(what) longer than \(ScenarioLimits.valueLength) characters", limit: "value-length"), at: start)
        }
    }

    static func checkRegex(_ body: String, at index: Int, in cursor: LineCursor) throws(Diagnostic) {
        // The pattern language every runtime matches with (`LinearRegex`: no backtracking, so no
        // pattern can stall a run or the server); the caret goes to the problem inside the slashes.
        do throws(PatternError) {
            _ = try LinearRegex(body)
        } catch {
            throw cursor.diagnostic("invalid regex: \(error.message)", at: index + 1 + error.offset)
        }
    }

    /// What comes next, for an "unexpected ..." message: a word, a string or one character.
    func nextTokenText() -> String {
        var copy = self
        copy.skipSpaces()
        if let w = copy.word() { return w.text }
        guard let c = copy.current else { return "end of line" }
        return String(Character(c))
    }

    /// The scalars `from..<to` as a string. Built from UTF-8 bytes: appending scalars to a string
    /// one by one was a visible share of the fuzzer's (world) parsing.
    func text(_ from: Int, _ to: Int) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(to - from)
        for c in scalars[from..<to] {
            if c.isASCII {
                bytes.append(UInt8(c.value))
            } else {
                bytes.append(contentsOf: UTF8.encode(c)!)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
