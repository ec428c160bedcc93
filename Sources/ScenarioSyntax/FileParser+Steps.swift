import PassModel

/// Step statements.
extension FileParser {
    /// `> CALL`, `< CALLBACK`, with the cursor on the arrow.
    mutating func callStep(_ c: inout LineCursor, app: String?) throws(Diagnostic) -> ParsedStatement {
        let isCall = c.current == ">"
        c.advance()
        let call = try callSyntax(&c, isCall: isCall)
        if isCall {
            if let at = c.peekWord(), at.text == "at" {
                throw c.diagnostic(
                    "'at' pins when a callback comes ('< CALLBACK at T'); a call happens when its step runs",
                    at: at.start)
            }
            return .step(.call(app: app, call))
        }
        // `at T` pins when the callback comes (SCENARIO-FORMAT.md, Steps).
        var at: Millis?
        if c.keyword("at") { at = try c.duration() }
        return .step(.expect(app: app, call, at: at))
    }

    /// `name(args)`; a call's arguments are values (and bound `$names`), a callback's are patterns.
    mutating func callSyntax(_ c: inout LineCursor, isCall: Bool) throws(Diagnostic) -> CallSyntax {
        let kind = isCall ? "call" : "callback"
        let name = try c.requireWord("a \(kind) name")
        let known = isCall ? CallNames.calls : CallNames.callbacks
        guard known.contains(name.text) else {
            let other = isCall ? CallNames.callbacks : CallNames.calls
            let note =
                other.contains(name.text)
                ? " ('\(name.text)' is a \(isCall ? "callback: write '< \(name.text)(...)'" : "call: write '> \(name.text)(...)'"))"
                : Suggestion.hint(for: name.text, among: known)
            throw c.diagnostic("unknown \(kind) '\(name.text)'" + note, at: name.start)
        }
        try c.expect("(", "expected '(' after '\(name.text)'")
        var arguments: [ArgumentSyntax] = []
        while !c.consume(")") {
            c.skipSpaces()
            let start = c.pos
            var label: String?
            if c.wordFollowed(by: ":") {
                label = c.word()?.text
                _ = c.consume(":")
            }
            let v = try value(&c, isCall ? .call : .expectation)
            arguments.append(ArgumentSyntax(label: label, value: v, location: c.location(start)))
            if c.consume(",") { continue }
            guard c.consume(")") else { throw c.diagnostic("expected ',' or ')'", at: c.pos) }
            break
        }
        let syntax = CallSyntax(name: name.text, arguments: arguments, location: c.location(name.start))
        if isCall, let signature = CallSignature.signature(of: name.text), let problem = signature.problem(of: syntax) {
            throw c.diagnostic(problem.message, at: (problem.at?.location.column ?? syntax.location.column) - 1)
        }
        if !isCall, let callback = Callback.Name(rawValue: name.text),
            let problem = CallbackSignature(name: callback).problem(of: syntax)
        {
            throw c.diagnostic(problem.message, at: (problem.at?.location.column ?? syntax.location.column) - 1)
        }
        return syntax
    }

    mutating func userStep(_ c: inout LineCursor) throws(Diagnostic) -> Step {
        let action = try c.requireWord("a user action (login, back, pick, cancel, enter-code or authenticate)")
        switch action.text {
        case "authenticate": return .userAuthenticate(try v2Login(&c))
        case "login", "enter-code":
            // The name is a user the world declares (a wrong password is how a refused login is written).
            let name = try c.requireString("the user's name in quotes")
            try users.check(name, in: c)
            let user = name.text
            let password = try c.requireString("the password in quotes").text
            return action.text == "login"
                ? .userLogin(user: user, password: password) : .userEnterCode(user: user, password: password)
        case "back": return .userBack
        case "cancel": return .userCancel
        case "pick":
            let mvpd = try c.requireWord("an MVPD id or 'other'")
            if mvpd.text == "other" { return .userPickOther }
            try mvpds.check(mvpd, in: c)
            var asUser: String?
            if c.keyword("as") {
                let name = try c.requireString("the user's name in quotes")
                try users.check(name, in: c)
                asUser = name.text
            }
            return .userPick(mvpd: mvpd.text, asUser: asUser)
        default:
            throw c.diagnostic(
                "unknown user action '\(action.text)' (expected login, back, pick, cancel, enter-code or authenticate)"
                    + Suggestion.hint(for: action.text, among: FileParser.userActions),
                at: action.start)
        }
    }

    /// `authenticate $CODE as "NAME" ["PASSWORD"]`, after `user`: `$CODE` must be a session code an
    /// earlier `http` step bound, NAME a declared user.
    mutating func v2Login(_ c: inout LineCursor) throws(Diagnostic) -> V2LoginStep {
        c.skipSpaces()
        let start = c.pos
        let usage = "(bind it with 'with code=$name' on an 'http POST SP /api/v2/REQUESTOR/sessions' step)"
        guard c.consume("$") else {
            throw c.diagnostic("expected the session code as a '$name' " + usage, at: start)
        }
        guard let name = c.current.map(LineCursor.isWordScalar) == true ? c.word() : nil else {
            throw c.diagnostic("expected a name after '$'", at: c.pos)
        }
        guard bound.contains(name.text) else {
            throw c.diagnostic("'$\(name.text)' is not bound " + usage, at: start)
        }
        guard let session = sessionCodes[name.text] else {
            throw c.diagnostic("'$\(name.text)' is not a REST API v2 session code " + usage, at: start)
        }
        guard c.keyword("as") else {
            c.skipSpaces()
            throw c.diagnostic("expected 'as \"NAME\"' (the user who logs in)", at: c.pos)
        }
        let user = try c.requireString("the user's name in quotes")
        try users.check(user, in: c)
        let password = try c.string()?.text
        return V2LoginStep(
            code: name.text, sp: session.sp, requestor: session.requestor, user: user.text, password: password)
    }

    mutating func browserStep(_ c: inout LineCursor) throws(Diagnostic) -> Step {
        guard c.keyword("at") else { throw c.diagnostic("expected 'at' and a pattern", at: c.pos) }
        return .browserAt(try value(&c, .expectation))
    }

    mutating func clockStep(_ c: inout LineCursor) throws(Diagnostic) -> Step {
        try c.expect("+", "expected '+' and a duration (e.g. clock +30s)")
        return .clock(try c.duration())
    }

    static let spNetActions = ["down", "up", "silent", "latency", "fail", "answer"]

    mutating func netStep(_ c: inout LineCursor) throws(Diagnostic) -> Step {
        let target = try c.requireWord("an SP name or 'mvpd'")
        // `net mvpd ID ...` unless `mvpd` is an SP followed by one of its actions.
        let spNamedMVPDActs = sps.contains("mvpd") && FileParser.spNetActions.contains(c.peekWord()?.text ?? "")
        if target.text == "mvpd", !spNamedMVPDActs {
            let id = try c.requireWord("an MVPD id")
            try mvpds.check(id, in: c)
            let action = try c.requireWord("'down' or 'up'")
            switch action.text {
            case "down": return .net(.mvpd(id.text), .down)
            case "up": return .net(.mvpd(id.text), .up)
            default: throw c.diagnostic("unknown IdP action '\(action.text)' (expected down or up)", at: action.start)
            }
        }
        try sps.check(target, in: c)
        let action = try c.requireWord("an action (down, up, silent, latency, fail or answer)")
        switch action.text {
        case "down": return .net(.sp(target.text), .down)
        case "up": return .net(.sp(target.text), .up)
        case "silent": return .net(.sp(target.text), .silent)
        case "latency": return .net(.sp(target.text), .latency(try c.duration()))
        case "fail":
            let count = try c.integer("request count", in: 1...1_000_000)
            var operation: WireOperation.ID?
            if let word = c.peekWord(), let id = WireOperation.ID(rawValue: word.text) {
                _ = c.word()
                operation = id
            }
            let path = operation == nil ? try c.regex()?.text : nil
            var status: Int?
            // A 1xx is no final answer (InjectedStatus.range), as `POST /admin/net` says too.
            if c.keyword("status") { status = try c.integer("HTTP status", in: InjectedStatus.range) }
            return .net(.sp(target.text), .fail(count: count, path: path, status: status, operation: operation))
        case "answer":
            let count = try c.integer("request count", in: 1...1_000_000)
            let path = try c.regex()?.text
            guard c.keyword("status") else {
                throw c.diagnostic("expected 'status' and the answer's HTTP status", at: c.pos)
            }
            let status = try c.integer("HTTP status", in: InjectedStatus.range)
            guard c.keyword("body") else {
                throw c.diagnostic("expected 'body' and the answer's body in quotes", at: c.pos)
            }
            let body = try c.requireString("the answer's body in quotes").text
            return .net(.sp(target.text), .fail(count: count, path: path, status: status, body: body))
        default:
            throw c.diagnostic(
                "unknown net action '\(action.text)' (expected down, up, silent, latency, fail or answer)"
                    + Suggestion.hint(for: action.text, among: FileParser.spNetActions),
                at: action.start)
        }
    }

    /// Scalars that make a `/…/` path of `seen` a regex rather than a literal path ending in `/`.
    static let regexMetacharacters: Set<Unicode.Scalar> = [
        ".", "*", "+", "?", "(", ")", "[", "]", "{", "}", "|", "^", "$", "\\",
    ]

    /// `lint passes RULE` / `lint breaks RULE`.
    mutating func lintStep(_ c: inout LineCursor) throws(Diagnostic) -> Step {
        let verb = try c.requireWord("passes or breaks")
        guard verb.text == "passes" || verb.text == "breaks" else {
            throw c.diagnostic("expected 'passes' or 'breaks', not '\(verb.text)'", at: verb.start)
        }
        guard let rule = c.rawWord(), !rule.text.isEmpty else {
            throw c.diagnostic("expected a rule id (passim lint --rules)", at: c.pos)
        }
        guard
            rule.text.unicodeScalars.allSatisfy({
                ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "." || $0 == "-"
            })
        else {
            throw c.diagnostic(
                "invalid rule id '\(rule.text)' (lowercase letters, digits, '.' and '-')", at: rule.start)
        }
        return .lint(breaks: verb.text == "breaks", rule: rule.text)
    }

    mutating func seenStep(_ c: inout LineCursor, unseen: Bool = false) throws(Diagnostic) -> Step {
        let sp = try c.requireWord("an SP name")
        try sps.check(sp, in: c)
        let method = try c.requireWord("an HTTP method (GET, POST...) or an operation")
        let path: PathPattern
        if let operation = WireOperation.ID(rawValue: method.text) {
            path = .operation(operation)  // `seen SP OPERATION`: its request on the run's wire
        } else {
            guard method.text.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) }) else {
                throw c.diagnostic(
                    "invalid HTTP method or operation '\(method.text)' (expected an uppercase word such as GET or POST, "
                        + "or one of \(WireOperation.ID.allCases.map(\.rawValue).joined(separator: ", ")))"
                        + Suggestion.hint(for: method.text, among: WireOperation.ID.allCases.map(\.rawValue)),
                    at: method.start)
            }
            guard let word = c.rawWord() else { throw c.diagnostic("expected a path or a /regex/", at: c.pos) }
            path = try FileParser.pathPattern(word, in: c)
        }
        var parameters: [SeenParameter] = []
        if c.keyword("with") {
            guard c.wordFollowed(by: "=") else { throw c.diagnostic("expected key=\"value\" after 'with'", at: c.pos) }
            while c.wordFollowed(by: "=") {
                let key = try c.requireWord("a parameter name")
                try c.expect("=", "expected '='")
                parameters.append(SeenParameter(key: key.text, value: try c.requireString("the value in quotes").text))
            }
        }
        let written = if case .operation = path { "" } else { method.text }  // an operation has its method per wire
        return .seen(sp: sp.text, method: written, path: path, with: parameters, unseen: unseen)
    }

    /// `http METHOD SP PATH [header "N: V" ...] [form "..." | json "..."] expect STATUS [code CODE]
    /// [header "N: V" ...] [with F=P ...]`.
    mutating func httpStep(_ c: inout LineCursor) throws(Diagnostic) -> Step {
        let method = try c.requireWord("an HTTP method (GET, POST...)")
        guard method.text.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) }) else {
            throw c.diagnostic(
                "invalid HTTP method '\(method.text)' (expected an uppercase word such as GET or POST)",
                at: method.start)
        }
        let sp = try c.requireWord("an SP name (the request goes to its host)")
        try sps.check(sp, in: c)
        c.skipSpaces()
        let pathStart = c.pos
        guard let path = c.rawWord(), path.text.hasPrefix("/") else {
            throw c.diagnostic(
                "expected a path from the host's root, starting with '/' (e.g. /api/v2/REQ1/configuration)",
                at: pathStart)
        }
        try checkBound(in: path.text, at: path.start, c, exact: true)
        var headers: [SeenParameter] = []
        var body: HTTPStep.Body?
        while let word = c.peekWord(), ["header", "form", "json"].contains(word.text) {
            _ = c.word()
            let value = try c.requireString(
                "the \(word.text == "header" ? "header as \"Name: value\"" : "body") in quotes")
            switch word.text {
            case "header":
                let header = try FileParser.header(value, c)
                try checkBound(in: header.value, at: value.start, c)
                headers.append(header)
            default:
                guard body == nil else { throw c.diagnostic("the request already has a body", at: word.start) }
                body = word.text == "form" ? .form(value.text) : .json(value.text)
            }
        }
        guard c.keyword("expect") else {
            throw c.diagnostic("expected 'header', 'form', 'json' or 'expect STATUS'", at: c.pos)
        }
        let status = try c.integer("HTTP status", in: 100...599)
        var fields: [HTTPField] = []
        if c.keyword("code") {
            let code = try c.requireWord("an enhanced error code (e.g. invalid_parameter_mvpd)")
            fields.append(HTTPField(path: "code", pattern: .string(code.text)))
        }
        var answerHeaders: [SeenParameter] = []
        while c.keyword("header") {
            answerHeaders.append(
                try FileParser.header(try c.requireString("the header as \"Name: value\" in quotes"), c))
        }
        // A session's code, bound here for the first time, is what `user authenticate` opens.
        let session = V2LoginStep.sessionRequestor(method: method.text, path: path.text)
        if c.keyword("with") {
            guard c.wordFollowed(by: "=") else { throw c.diagnostic("expected FIELD=PATTERN after 'with'", at: c.pos) }
            while c.wordFollowed(by: "=") {
                let field = try c.requireWord("a field of the JSON answer")
                try c.expect("=", "expected '='")
                let known = bound.count
                let pattern = try value(&c, .expectation)
                if let session, field.text == "code", case .binding(let name) = pattern, bound.count > known {
                    sessionCodes[name] = (sp.text, session)
                }
                fields.append(HTTPField(path: field.text, pattern: pattern))
            }
        }
        return .http(
            HTTPStep(
                method: method.text, sp: sp.text, path: path.text, headers: headers, body: body,
                status: status, fields: fields, answerHeaders: answerHeaders))
    }

    /// `"Name: value"`: a token name (visible ASCII, no colon), the value with leading blanks dropped.
    static func header(_ token: LineCursor.Token, _ c: LineCursor) throws(Diagnostic) -> SeenParameter {
        let text = token.text
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex,
            text[..<colon].unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
        else {
            throw c.diagnostic("expected a header as \"Name: value\"", at: token.start)
        }
        var value = text[text.index(after: colon)...]
        while value.first == " " || value.first == "\t" { value = value.dropFirst() }
        return SeenParameter(key: String(text[..<colon]), value: String(value))
    }

    /// A `$name` in an `http` step's path or header must have been bound by an earlier expectation.
    /// `exact`: `text` is the line's own scalars from `start` (a raw path), so the caret can point at the `$`.
    func checkBound(in text: String, at start: Int, _ c: LineCursor, exact: Bool = false) throws(Diagnostic) {
        for name in HTTPStep.bindingNames(in: text) where !bound.contains(name) {
            var at = start
            if exact, let range = text.range(of: "$" + name) {
                at += text.unicodeScalars[..<range.lowerBound].count
            }
            throw c.diagnostic(
                "'$\(name)' is not bound (an http step may only use a '$name' an earlier expectation bound)", at: at)
        }
    }

    static func pathPattern(_ word: LineCursor.Token, in c: LineCursor) throws(Diagnostic) -> PathPattern {
        let scalars = Array(word.text.unicodeScalars)
        guard scalars.count > 2, scalars.first == "/", scalars.last == "/" else { return .literal(word.text) }
        let inner = scalars[1..<(scalars.count - 1)]
        guard inner.contains(where: { regexMetacharacters.contains($0) }) else { return .literal(word.text) }
        var body = ""
        var i = inner.startIndex
        while i < inner.endIndex {
            if inner[i] == "\\", i + 1 < inner.endIndex {
                if inner[i + 1] == "/" {
                    body += "/"
                } else {
                    body.unicodeScalars.append(inner[i])
                    body.unicodeScalars.append(inner[i + 1])
                }
                i += 2
            } else {
                body.unicodeScalars.append(inner[i])
                i += 1
            }
        }
        try LineCursor.checkRegex(body, at: word.start, in: c)
        return .regex(body)
    }
}
