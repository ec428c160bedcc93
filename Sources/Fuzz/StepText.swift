import PassModel
import ScenarioSyntax

/// The generator's steps as typed values and, only when a program is written out, as text. A fuzz
/// run performs the typed `Step`s directly (no step text is built or parsed while it runs); the text
/// is what `StepParser` reads back to the same `Step`, written as the generator wrote it before it
/// made typed steps (so a seed's `.scenario` files stay byte for byte what they were).
enum StepText {
    /// Where a generated step "is": nothing reads the location of a step that was never text but an
    /// error message's, and the fuzzer reads only messages.
    static let location = SourceLocation(file: "fuzz.scenario", line: 0, column: 0)

    /// A located step for the runner, without text: the exploration that performs it writes no lines.
    static func located(_ step: Step) -> Located<Step> { Located(step, location: location, text: "") }

    // MARK: Typed values, as the parser makes them from the generator's text

    /// `app` as the generator names it: the first app is written without a prefix (`> call`).
    /// The name is the vocabulary's (`Call.Name`), never a literal: a call renamed or added there
    /// cannot be forgotten here.
    static func call(_ app: String?, _ name: Call.Name, _ arguments: [ArgumentSyntax] = []) -> Step {
        .call(
            app: app == ScenarioFile.firstAppName ? nil : app,
            CallSyntax(name: name.rawValue, arguments: arguments, location: location))
    }

    static func arg(_ value: ValueSyntax) -> ArgumentSyntax { ArgumentSyntax(value: value, location: location) }
    static func arg(_ label: String, _ value: ValueSyntax) -> ArgumentSyntax {
        ArgumentSyntax(label: label, value: value, location: location)
    }

    /// A bare word as the parser reads it (`FileParser.wordValue` in a call): `true`, `false`, `nil`,
    /// a number, a constant's symbol, else a name.
    static func word(_ w: String) -> ValueSyntax {
        switch w {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "nil": return .null
        default: break
        }
        if let first = w.unicodeScalars.first, first == "-" || first == "." || ("0"..."9").contains(first),
            let n = Int(w)
        {
            return .int(n)
        }
        if let value = Constants.value(of: w) { return .constant(symbol: w, value: value) }
        return .name(w)
    }

    /// `{SYMBOL: value}` with a constant's symbol as the key (it resolves to its string).
    static func constantKey(_ symbol: String, _ value: ValueSyntax) -> DictEntrySyntax {
        let key = if case .string(let s)? = Constants.value(of: symbol) { s } else { symbol }
        return DictEntrySyntax(writtenKey: symbol, keyForm: .constant, key: key, value: value)
    }

    // MARK: Text

    /// The step as the generator writes it.
    static func render(_ step: Step) -> String {
        switch step {
        case .call(let app, let call): return (app ?? "") + "> " + render(call)
        case .expect(let app, let call, let at):
            return (app ?? "") + "< " + render(call) + (at.map { " at \($0)" } ?? "")
        case .userLogin(let user, let password): return "user login \(Value.quote(user)) \(Value.quote(password))"
        case .userEnterCode(let user, let password):
            return "user enter-code \(Value.quote(user)) \(Value.quote(password))"
        case .userAuthenticate(let login): return login.text
        case .userBack: return "user back"
        case .userPick(let mvpd, let asUser):
            return "user pick \(mvpd)" + (asUser.map { " as \(Value.quote($0))" } ?? "")
        case .userPickOther: return "user pick other"
        case .userCancel: return "user cancel"
        case .browserAt(let pattern): return "browser at " + render(pattern)
        case .clock(let d): return "clock +\(d)"
        case .net(let target, let action):
            let where_ =
                switch target {
                case .sp(let name): name
                case .mvpd(let id): "mvpd \(id)"
                }
            return "net \(where_) " + render(action)
        case .lint(let breaks, let rule): return "lint \(breaks ? "breaks" : "passes") \(rule)"
        case .seen(let sp, let method, let path, let parameters, let unseen):
            let request =
                switch path {
                case .literal(let s): "\(method) \(s)"
                case .regex(let r): "\(method) /\(r)/"
                case .operation(let id): id.rawValue
                }
            let with =
                parameters.isEmpty
                ? "" : " with " + parameters.map { "\($0.key)=\(Value.quote($0.value))" }.joined(separator: " ")
            return (unseen ? "unseen" : "seen") + " \(sp) \(request)\(with)"
        case .http(let http):
            var text = "http \(http.method) \(http.sp) \(http.path)"
            for header in http.headers { text += " header " + Value.quote(header.key + ": " + header.value) }
            switch http.body {
            case .form(let body): text += " form " + Value.quote(body)
            case .json(let body): text += " json " + Value.quote(body)
            case nil: break
            }
            text += " expect \(http.status)"
            for header in http.answerHeaders { text += " header " + Value.quote(header.key + ": " + header.value) }
            if !http.fields.isEmpty {
                text += " with " + http.fields.map { "\($0.path)=" + render($0.pattern) }.joined(separator: " ")
            }
            return text
        }
    }

    /// The generator writes latencies in milliseconds (`40000ms`, not `40s`).
    static func render(_ action: NetAction) -> String {
        switch action {
        case .down: return "down"
        case .up: return "up"
        case .silent: return "silent"
        case .latency(let d): return "latency \(d.value)ms"
        case .fail(let count, let path, let status, let body, let operation):
            let head =
                (body == nil ? "fail \(count)" : "answer \(count)") + (operation.map { " \($0.rawValue)" } ?? "")
                + (path.map { " /\($0)/" } ?? "")
            return head + (status.map { " status \($0)" } ?? "") + (body.map { " body \(Value.quote($0))" } ?? "")
        }
    }

    /// Calls and values as a scenario writes them: `ScenarioSyntax`'s own `description`.
    static func render(_ call: CallSyntax) -> String { call.description }

    static func render(_ value: ValueSyntax) -> String { value.description }
}
