import PassModel

/// Where a value is written decides what it may be.
enum ValueMode {
    /// A call's argument: values, and `$names` bound earlier.
    case call
    /// An expectation or `browser at`: values and patterns; a new `$name` binds.
    case expectation
    /// A `meta` value: JSON only (strings, integers, true/false, nil/null, lists, dictionaries).
    case json
}

/// Values and patterns.
extension FileParser {
    static let patternMessage = "patterns ('_', /regex/, Id{...}) are only allowed in expectations and 'browser at'"
    static let jsonMessage = "expected a JSON value (a string, an integer, true, false, null, a list or a dictionary)"

    mutating func value(_ c: inout LineCursor, _ mode: ValueMode) throws(Diagnostic) -> ValueSyntax {
        c.skipSpaces()
        let start = c.pos
        guard let first = c.current, first != "#" else { throw c.diagnostic("expected a value", at: start) }
        switch first {
        case "\"":
            return .string(try c.requireString("a string").text)
        case "/":
            try requirePatterns(mode, c, at: start)
            return .regex(try c.regex()?.text ?? "")
        case "$":
            c.advance()
            guard let name = c.current.map(LineCursor.isWordScalar) == true ? c.word() : nil else {
                throw c.diagnostic("expected a name after '$'", at: c.pos)
            }
            switch mode {
            case .json: throw c.diagnostic(FileParser.jsonMessage, at: start)
            case .call:
                guard bound.contains(name.text) else {
                    throw c.diagnostic(
                        "'$\(name.text)' is not bound (a call may only pass a '$name' an earlier expectation bound)",
                        at: start)
                }
            case .expectation: bound.insert(name.text)
            }
            return .binding(name.text)
        case "[":
            try enterContainer(c, at: start)
            defer { valueDepth -= 1 }
            c.advance()
            var items: [ValueSyntax] = []
            while !c.consume("]") {
                items.append(try value(&c, mode))
                if c.consume(",") { continue }
                guard c.consume("]") else { throw c.diagnostic("expected ',' or ']'", at: c.pos) }
                break
            }
            return .list(items)
        case "{":
            try enterContainer(c, at: start)
            defer { valueDepth -= 1 }
            return .dict(try dictEntries(&c, mode, mvpdFields: false))
        default:
            guard let w = c.word() else {
                throw c.diagnostic("unexpected '\(c.nextTokenText())' (expected a value)", at: start)
            }
            return try wordValue(w, &c, mode)
        }
    }

    private mutating func wordValue(_ w: LineCursor.Token, _ c: inout LineCursor, _ mode: ValueMode) throws(Diagnostic)
        -> ValueSyntax
    {
        switch w.text {
        case "_":
            try requirePatterns(mode, c, at: w.start)
            return .wildcard
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "nil": return .null
        case "null" where mode == .json: return .null
        default: break
        }
        if let first = w.text.unicodeScalars.first, first == "-" || first == "." || ("0"..."9").contains(first) {
            guard let n = Int(w.text) else { throw c.diagnostic("invalid number '\(w.text)'", at: w.start) }
            return .int(n)
        }
        if let constant = Constants.value(of: w.text) { return .constant(symbol: w.text, value: constant) }
        if mode == .json { throw c.diagnostic(FileParser.jsonMessage, at: w.start) }
        c.skipSpaces()
        if c.current == "{" {
            try requirePatterns(mode, c, at: w.start)
            try mvpds.check(w, in: c)
            try enterContainer(c, at: c.pos)
            defer { valueDepth -= 1 }
            return .mvpd(id: w.text, fields: try dictEntries(&c, mode, mvpdFields: true))
        }
        try checkName(w, c)
        return .name(w.text)
    }

    /// A bare name in a value is a constant or a name the world declares (an MVPD, an SP, a requestor,
    /// a user): a misspelt constant or an MVPD no world has is an error of the file, where it would
    /// otherwise be a string that never matches. A value no world declares is written as a string
    /// (`setSelectedProvider("Nope")`) (docs/CONFORMANCE.md, choice 110).
    func checkName(_ w: LineCursor.Token, _ c: LineCursor) throws(Diagnostic) {
        let name = w.text
        if mvpds.ids.contains(name) || sps.contains(name) || requestors.contains(name) || users.contains(name) {
            return
        }
        let declared = mvpds.ids.names + sps.names + requestors.names + users.names
        let constant = Suggestion.closestConstant(to: name)
        let nearDeclared = Suggestion.closest(to: name, among: declared)
        if let constant, nearDeclared == nil {
            throw c.diagnostic("unknown constant '\(name)' (did you mean '\(constant)'?)", at: w.start)
        }
        if nearDeclared == nil, FileParser.looksLikeConstant(name) {
            throw c.diagnostic(
                "unknown constant '\(name)' (the constants: docs/spec/BEHAVIOR.md, \"Constants\"); "
                    + "a string is written in quotes: \"\(name)\"", at: w.start)
        }
        throw c.diagnostic(
            "undeclared name '\(name)'" + (nearDeclared.map { " (did you mean '\($0)'?)" } ?? "")
                + ": no MVPD, SP, requestor or user of the world is called so; a value no world declares is "
                + "a string: \"\(name)\"", at: w.start)
    }

    /// `PROVIDER_NOT_SELECTED`: capitals, digits and underscores, with an underscore or a digit.
    static func looksLikeConstant(_ name: String) -> Bool {
        let scalars = name.unicodeScalars
        return scalars.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
            && scalars.contains { $0 == "_" || ("0"..."9").contains($0) }
    }

    /// Checked before the parser recurses into a container, so the input cannot choose how deep the
    /// call stack goes (30,000 `[` overflowed it).
    private mutating func enterContainer(_ c: LineCursor, at index: Int) throws(Diagnostic) {
        guard valueDepth < ScenarioLimits.valueDepth else {
            throw c.diagnostic(
                ScenarioLimits.exceeded(
                    "value nested deeper than \(ScenarioLimits.valueDepth) levels", limit: "value-depth"), at: index)
        }
        valueDepth += 1
    }

    private func requirePatterns(_ mode: ValueMode, _ c: LineCursor, at index: Int) throws(Diagnostic) {
        switch mode {
        case .expectation: return
        case .call: throw c.diagnostic(FileParser.patternMessage, at: index)
        case .json: throw c.diagnostic(FileParser.jsonMessage, at: index)
        }
    }

    static let mvpdFieldNames = [
        "id", "displayName", "logoURL", "enablePlatformServices", "boardingStatus", "tempPass",
        "promoTempPass", "requiresSVC", "spURL",
    ]

    /// `{key: value, ...}` with the cursor on `{`. Keys are identifiers, constants (resolved to their
    /// string) or strings; in an `Id{...}` pattern they must be MVPD fields.
    private mutating func dictEntries(_ c: inout LineCursor, _ mode: ValueMode, mvpdFields: Bool) throws(Diagnostic)
        -> [DictEntrySyntax]
    {
        c.advance()
        var entries: [DictEntrySyntax] = []
        while !c.consume("}") {
            c.skipSpaces()
            let keyStart = c.pos
            let writtenKey: String
            let form: DictEntrySyntax.KeyForm
            let key: String
            if let s = try c.string() {
                (writtenKey, form, key) = (s.text, .string, s.text)
            } else if let w = c.word() {
                if let constant = Constants.value(of: w.text) {
                    guard case .string(let resolved) = constant else {
                        throw c.diagnostic("constant '\(w.text)' is not a string and cannot be a key", at: w.start)
                    }
                    (writtenKey, form, key) = (w.text, .constant, resolved)
                } else {
                    (writtenKey, form, key) = (w.text, .identifier, w.text)
                }
            } else {
                throw c.diagnostic("expected a key", at: keyStart)
            }
            if mvpdFields, MVPD(id: "", displayName: "").field(key) == nil {
                throw c.diagnostic(
                    "unknown MVPD field '\(key)'" + Suggestion.hint(for: key, among: FileParser.mvpdFieldNames),
                    at: keyStart)
            }
            if entries.contains(where: { $0.key == key }) {
                throw c.diagnostic("duplicate key '\(key)'", at: keyStart)
            }
            try c.expect(":", "expected ':' after the key")
            entries.append(DictEntrySyntax(writtenKey: writtenKey, keyForm: form, key: key, value: try value(&c, mode)))
            if c.consume(",") { continue }
            guard c.consume("}") else { throw c.diagnostic("expected ',' or '}'", at: c.pos) }
            break
        }
        return entries
    }
}
