import Entitlement
import PassModel
import ScenarioSyntax

/// A step the file asks for that cannot be carried out: a bad argument, a feature of a later issue.
struct StepError: Error {
    var message: String
    var location: SourceLocation
    /// The same, as data, where the run parted from a `<` line or could not carry a step out.
    var mismatch: ScenarioRunner.Runtime.Mismatch? = nil
}

/// Turns a `> call(...)` into an API call, resolving SP names, constants and bound `$names`, by the
/// parameters of `Call.Name` (PassModel). The parser has already checked each call's arguments
/// against them (`CallSignature`, ScenarioSyntax), so what fails here is what only a run knows: the
/// value a `$name` was bound to.
struct CallBuilder {
    var spURLs: [String: String]
    var bindings: Bindings

    /// `Call.Name(rawValue:)` by a table made once: the synthesized initializer compares the text
    /// with each name in turn, and every call of a fuzz run is built here. A dictionary compares
    /// keys as `==` does (canonical equivalence), so it finds what the initializer finds.
    static let callNames = Dictionary(uniqueKeysWithValues: Call.Name.allCases.map { ($0.rawValue, $0) })

    func build(_ syntax: CallSyntax) throws(StepError) -> Call {
        guard let name = CallBuilder.callNames[syntax.name] else {
            throw StepError(message: "unknown call '\(syntax.name)'", location: syntax.location)
        }
        var args = Arguments(syntax: syntax, builder: self)
        // A handful of labels and fields per call: lists, not a set and a dictionary (every call of
        // a fuzz run is built here).
        let given = syntax.arguments.compactMap(\.label)
        var fields: [(String, Value)] = []
        for p in name.parameters {
            if let primary = p.aliasOf, given.contains(primary) { continue }
            let positional = p.positional && (p.positionalUnlessGiven.map { !given.contains($0) } ?? true)
            guard var v = try args.value(p.label, required: p.required, positional: positional) else { continue }
            if p.kind == .serviceProviders, let items = v.listValue {
                v = .list(items.map { item in Matcher.textOf(item).map { Value.string(spURLs[$0] ?? $0) } ?? item })
            }
            guard p.kind.canonical(v) != nil else { throw args.error("\(p.label ?? p.name) takes \(p.kind.what)") }
            if !fields.contains(where: { $0.0 == p.field }) { fields.append((p.field, v)) }
        }
        try args.finish()
        do throws(ArgumentError) {
            return try Call(name, fieldList: fields)
        } catch {
            throw args.error(error.description)
        }
    }

    /// Takes a call's arguments one by one; whatever is left over is an error.
    struct Arguments {
        var remaining: [ArgumentSyntax]
        let syntax: CallSyntax
        let builder: CallBuilder

        init(syntax: CallSyntax, builder: CallBuilder) {
            self.syntax = syntax
            self.builder = builder
            remaining = syntax.arguments
        }

        func error(_ message: String) -> StepError {
            StepError(message: message + " (in \(syntax.name))", location: syntax.location)
        }

        /// The argument with this label (nil: the first unlabelled one). `positional` also accepts an
        /// unlabelled one in place of the label.
        mutating func value(_ label: String?, required: Bool, positional: Bool = false) throws(StepError) -> Value? {
            var index = remaining.firstIndex { $0.label == label }
            if index == nil, positional { index = remaining.firstIndex { $0.label == nil } }
            guard let i = index else {
                if required { throw error("missing argument" + (label.map { " '\($0):'" } ?? "")) }
                return nil
            }
            let arg = remaining.remove(at: i)
            guard let v = resolve(arg.value) else {
                throw StepError(
                    message: "'\(arg.value)' is not a value a call can take (unbound $name or pattern)",
                    location: arg.location)
            }
            return v
        }

        func finish() throws(StepError) {
            if let extra = remaining.first {
                throw StepError(message: "unexpected argument '\(extra)' for \(syntax.name)", location: extra.location)
            }
        }

        func resolve(_ v: ValueSyntax) -> Value? {
            switch v {
            case .binding(let name): return builder.bindings[name]
            case .name(let n): return .string(n)
            case .list(let items):
                var out: [Value] = []
                for item in items {
                    guard let x = resolve(item) else { return nil }
                    out.append(x)
                }
                return .list(out)
            case .dict(let entries):
                var out: [Value.Entry] = []
                for e in entries {
                    guard let x = resolve(e.value) else { return nil }
                    out.append(Value.Entry(e.key, x))
                }
                return .dict(out)
            default:
                return v.literal
            }
        }
    }
}
