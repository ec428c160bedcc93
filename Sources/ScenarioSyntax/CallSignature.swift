import PassModel

/// The arguments each call takes, checked when the file is parsed: a wrong count, an unknown label or
/// a value of the wrong type is an error of the file (exit 2, with a caret), found before the scenario
/// runs rather than as a failure of the step. Both this and `CallBuilder` (Scenario), which still
/// checks the `$names` only a run can resolve, read the parameters of `Call.Name`.
struct CallSignature {
    typealias Kind = ArgumentKind
    typealias Parameter = Call.Parameter

    var parameters: [Parameter]

    /// The vocabulary's parameters (`Call.Name`, PassModel): the parser checks what the builder takes.
    static func signature(of call: String) -> CallSignature? {
        Call.Name(rawValue: call).map { CallSignature(parameters: $0.parameters) }
    }

    /// `name(requestorID, signedRequestorID: ..., ...)`: how the call is written.
    func usage(_ name: String) -> String {
        let parts = parameters.map { p -> String in
            let written = p.label.map { "\($0): " + ($0 == p.name ? "…" : p.name) } ?? p.name
            return p.required ? written : "[" + written + "]"
        }
        return name + "(" + parts.joined(separator: ", ") + ")"
    }

    /// The first problem of `call`'s arguments: the message and the argument (nil: the call) it is at.
    func problem(of call: CallSyntax) -> (message: String, at: ArgumentSyntax?)? {
        let expected = " (expected \(usage(call.name)))"
        var remaining = call.arguments
        let given = Set(call.arguments.compactMap(\.label))
        for p in parameters {
            if let primary = p.aliasOf, given.contains(primary) { continue }
            var index = remaining.firstIndex { $0.label == p.label }
            if index == nil, p.positional, p.positionalUnlessGiven.map({ !given.contains($0) }) ?? true {
                index = remaining.firstIndex { $0.label == nil }
            }
            guard let i = index else {
                if p.required {
                    return ("missing argument \(p.label.map { "'\($0):'" } ?? p.name) of \(call.name)" + expected, nil)
                }
                continue
            }
            let argument = remaining.remove(at: i)
            if !CallSignature.fits(argument.value, p.kind) {
                return (
                    "\(call.name)'s \(p.name) takes \(p.kind.what), not \(CallSignature.brief(argument.value))",
                    argument
                )
            }
        }
        if let extra = remaining.first {
            return ("unexpected argument '\(CallSignature.brief(extra))' for \(call.name)" + expected, extra)
        }
        return nil
    }

    /// An argument as written, cut short: the line shown under the message has all of it.
    static func brief(_ written: some CustomStringConvertible) -> String {
        let text = written.description
        guard text.unicodeScalars.count > 60 else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.prefix(59))) + "…"
    }

    /// Whether `value` can be of `kind`; a `$name` may be anything until the run binds it.
    static func fits(_ value: ValueSyntax, _ kind: Kind) -> Bool {
        if case .binding = value { return true }
        switch kind {
        case .any: return true
        case .text: return isText(value)
        case .mvpdIDOrNil, .mvpdOrNil:
            if case .null = value { return true }
            if case .constant(_, .null) = value { return true }
            return isText(value)
        case .bool:
            if case .bool = value { return true }
            if case .constant(_, .bool) = value { return true }
            return false
        case .int:
            if case .int = value { return true }
            if case .constant(_, .int) = value { return true }
            return false
        case .dict:
            if case .dict = value { return true }
            if case .constant(_, .dict) = value { return true }
            return false
        case .textList, .serviceProviders, .mvpds, .textOrNilList:
            if case .list(let items) = value { return items.allSatisfy(isText) }
            if case .constant(_, .list(let items)) = value {
                return items.allSatisfy { if case .string = $0 { return true } else { return false } }
            }
            return false
        }
    }

    private static func isText(_ value: ValueSyntax) -> Bool {
        switch value {
        case .string, .name, .binding: return true
        case .constant(_, .string), .constant(_, .mvpd): return true
        default: return false
        }
    }
}
