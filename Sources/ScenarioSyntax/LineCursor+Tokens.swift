import PassModel

/// The tokens statements are made of, each with the error a user can act on when it is missing.
extension LineCursor {
    mutating func requireWord(_ what: String) throws(Diagnostic) -> Token {
        guard let w = word() else { throw diagnostic("expected \(what)", at: pos) }
        return w
    }

    mutating func requireString(_ what: String) throws(Diagnostic) -> Token {
        guard let s = try string() else { throw diagnostic("expected \(what)", at: pos) }
        return s
    }

    /// A declared name: it must read back as a name in a value position (not a number, keyword or constant).
    mutating func name(_ what: String) throws(Diagnostic) -> Token {
        let w = try requireWord(what)
        guard Value.isIdentifier(w.text) else {
            throw diagnostic(
                "invalid name '\(w.text)' (a name starts with a letter or '_' and is not nil, true, false or _)",
                at: w.start)
        }
        guard Constants.value(of: w.text) == nil else {
            throw diagnostic("'\(w.text)' is a constant and cannot be used as a name", at: w.start)
        }
        return w
    }

    /// `250ms`, `30s`, `5m`, `2h`, `1d` (PassModel's `Millis(text:)`).
    mutating func duration() throws(Diagnostic) -> Millis {
        skipSpaces()
        let start = pos
        guard let w = word() else {
            // A sign or other punctuation: point at it rather than saying nothing is there.
            if !atEnd() {
                throw diagnostic(
                    "invalid duration '\(rawWord()?.text ?? "")' (expected e.g. 250ms, 30s, 5m, 2h or 1d)", at: start)
            }
            throw diagnostic("expected a duration (e.g. 250ms, 30s, 5m, 2h or 1d)", at: start)
        }
        guard let millis = Millis(text: w.text) else {
            throw diagnostic("invalid duration '\(w.text)' (expected e.g. 250ms, 30s, 5m, 2h or 1d)", at: w.start)
        }
        return millis
    }

    mutating func integer(_ what: String, in range: ClosedRange<Int>) throws(Diagnostic) -> Int {
        let w = try requireWord(what)
        guard let n = Int(w.text), range.contains(n) else {
            throw diagnostic(
                "invalid \(what) '\(w.text)' (expected an integer from \(range.lowerBound) to \(range.upperBound))",
                at: w.start)
        }
        return n
    }

    /// `a, b, c` of words (or strings, when `strings` is true); at least one.
    mutating func list(_ what: String, strings: Bool = false) throws(Diagnostic) -> [Token] {
        var items: [Token] = []
        repeat {
            if strings, let s = try string() {
                items.append(s)
            } else {
                items.append(try requireWord(what))
            }
        } while consume(",")
        return items
    }
}

/// The optional clauses of a statement, in any order, each at most once.
struct OptionReader {
    let allowed: [String]
    private var seen: Set<String> = []

    init(_ allowed: [String]) { self.allowed = allowed }

    /// The next option word, or nil at the end of the statement.
    mutating func next(_ c: inout LineCursor) throws(Diagnostic) -> String? {
        if c.atEnd() { return nil }
        guard let w = c.peekWord(), allowed.contains(w.text) else {
            throw c.diagnostic(
                "unexpected '\(c.nextTokenText())' (expected \(OptionReader.english(allowed)))", at: c.pos)
        }
        _ = c.word()
        guard seen.insert(w.text).inserted else { throw c.diagnostic("duplicate option '\(w.text)'", at: w.start) }
        return w.text
    }

    /// "a, b or c"
    static func english(_ words: [String]) -> String {
        guard words.count > 1, let last = words.last else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " or " + last
    }
}
