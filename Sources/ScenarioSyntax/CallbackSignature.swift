import PassModel

/// The arguments each callback takes, checked when the file is parsed as calls are (`CallSignature`):
/// a wrong count, a wrong label or a pattern that can never match its parameter's kind (a string
/// where an integer comes, a list where a string does) is an error of the file, exit 2 with a
/// caret, not a step that fails at run time. Patterns stay patterns: `_`, `$name`
/// and `/regex/` (on text) fit, and the insides of lists and dictionaries are left to the matcher.
struct CallbackSignature {
    var name: Callback.Name

    /// `setAuthenticationStatus(status, errorCode)`, optional ones in brackets.
    var usage: String {
        let parts = name.parameters.map { p -> String in
            let written = p.label.map { "\($0): " + p.name } ?? p.name
            return p.optional ? "[" + written + "]" : written
        }
        return name.rawValue + "(" + parts.joined(separator: ", ") + ")"
    }

    /// The first problem of `callback`'s arguments: the message and the argument (nil: the callback).
    func problem(of callback: CallSyntax) -> (message: String, at: ArgumentSyntax?)? {
        let parameters = name.parameters
        let required = parameters.filter { !$0.optional }.count
        let expected = " (expected \(usage))"
        let given = callback.arguments
        if given.count > parameters.count {
            let plural = parameters.count == 1 ? "" : "s"
            return (
                "\(name.rawValue) takes \(parameters.count) argument\(plural), not \(given.count)" + expected,
                given[parameters.count]
            )
        }
        if given.count < required {
            return ("missing argument \(parameters[given.count].name) of \(name.rawValue)" + expected, nil)
        }
        // The matcher pairs arguments by position (the SDK's order), a label only confirming it.
        for (p, argument) in zip(parameters, given) {
            if let label = argument.label, label != p.label {
                let wanted = p.label.map { "'\($0):'" } ?? "no label"
                return ("\(name.rawValue)'s \(p.name) takes \(wanted), not '\(label):'" + expected, argument)
            }
            if !CallbackSignature.canMatch(argument.value, p.kind) {
                return (
                    "\(name.rawValue)'s \(p.name) is \(p.kind.what), never \(CallSignature.brief(argument.value))",
                    argument
                )
            }
            if let message = outsideVocabulary(argument.value, p) { return (message, argument) }
        }
        return nil
    }

    /// The constants a parameter's value is always one of, where the vocabulary closes it
    /// (BEHAVIOR.md, "Constants"): statuses, error codes, tracking events, status codes. Other
    /// parameters (resources, URLs, details, MVPDs, and a metadata opcode, which the SDK echoes as the
    /// app gave it) take any value.
    static func closedValues(_ callback: Callback.Name, _ parameter: String) -> [String]? {
        switch (callback, parameter) {
        case (.setRequestorComplete, "status"), (.setAuthenticationStatus, "status"):
            return ["ACCESS_ENABLER_STATUS_SUCCESS", "ACCESS_ENABLER_STATUS_ERROR"]
        case (.setAuthenticationStatus, "errorCode"): return ["USER_AUTHENTICATED"] + Constants.authenticationErrors
        case (.tokenRequestFailed, "errorCode"): return Constants.authorizationErrors
        case (.sendTrackingData, "forEventType"): return Constants.trackingEvents
        case (.status, "code"): return Constants.statusCodes
        default: return nil
        }
    }

    /// Why a literal argument can never come (a status of 2, an error code the SDK never sends), or nil:
    /// patterns, `$names` and values of open parameters always may.
    func outsideVocabulary(_ written: ValueSyntax, _ p: Callback.Parameter) -> String? {
        guard let symbols = CallbackSignature.closedValues(name, p.name) else { return nil }
        let literal: Value
        switch written {
        case .int(let i): literal = .int(i)
        case .string(let s): literal = .string(s)
        case .name(let n): literal = .string(n)
        case .constant(_, let v): literal = v
        default: return nil
        }
        let values = symbols.compactMap { symbol in Constants.value(of: symbol).map { (symbol, $0) } }
        if values.contains(where: { $0.1 == literal }) { return nil }
        let listed = values.map { symbol, value in
            if case .int(let i) = value { return "\(symbol) (\(i))" }
            return symbol
        }
        let choices = listed.dropLast().joined(separator: ", ") + (listed.count > 1 ? " or " : "") + (listed.last ?? "")
        var hint = ""
        if case .string(let text) = literal {
            // A text near a constant's is most likely that constant, written out.
            let near = values.compactMap { symbol, value -> (String, Int)? in
                guard case .string(let v) = value else { return nil }
                return (
                    symbol,
                    Suggestion.editDistance(
                        Array(text.lowercased().unicodeScalars), Array(v.lowercased().unicodeScalars))
                )
            }.filter { $0.1 <= max(2, text.count / 3) }.min { $0.1 < $1.1 }
            if let near { hint = " (did you mean '\(near.0)'?)" }
        }
        return "\(name.rawValue)'s \(p.name) is \(choices), never \(CallSignature.brief(written))" + hint
    }

    /// Whether `pattern` can match some value of `kind` (false only where it never can).
    static func canMatch(_ pattern: ValueSyntax, _ kind: ArgumentKind) -> Bool {
        switch pattern {
        case .wildcard, .binding: return true
        default: break
        }
        let textual: Bool
        let listy: Bool
        switch pattern {
        case .string, .name, .regex, .mvpd, .constant(_, .string), .constant(_, .mvpd): textual = true; listy = false
        case .list, .constant(_, .list): textual = false; listy = true
        default: textual = false; listy = false
        }
        switch kind {
        case .any: return true
        case .text: return textual
        case .mvpdIDOrNil, .mvpdOrNil:
            if case .null = pattern { return true }
            if case .constant(_, .null) = pattern { return true }
            return textual
        case .bool:
            if case .bool = pattern { return true }
            if case .constant(_, .bool) = pattern { return true }
            return false
        case .int:
            if case .int = pattern { return true }
            if case .constant(_, .int) = pattern { return true }
            return false
        case .dict:
            if case .dict = pattern { return true }
            if case .constant(_, .dict) = pattern { return true }
            return false
        case .textList, .serviceProviders, .mvpds, .textOrNilList:
            return listy
        }
    }
}
