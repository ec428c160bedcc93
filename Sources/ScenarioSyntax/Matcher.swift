import PassModel

/// `$name` bindings of one scenario run: bound on first use, compared at every later use.
public struct Bindings: Sendable {
    public private(set) var values: [String: Value] = [:]
    public init() {}
    public subscript(name: String) -> Value? { values[name] }
    public mutating func bind(_ name: String, _ value: Value) { values[name] = value }
}

/// Matches expectations (SCENARIO-FORMAT.md, "Values and patterns") against what the engine did: a
/// scenario's `<` lines, and the callback patterns of an expectations file's `differ` rules.
public enum Matcher {
    /// Does the expected callback match the delivered one? Bindings change only on a match.
    public static func match(_ expected: CallSyntax, _ actual: Callback, bindings: inout Bindings) -> Bool {
        match(expected, name: actual.name, arguments: actual.arguments, bindings: &bindings)
    }

    /// The same, for a callback given by its name and arguments (a `<` line's, its `$names` bound).
    public static func match(
        _ expected: CallSyntax, name: String, arguments args: [Callback.Argument], bindings: inout Bindings
    ) -> Bool {
        guard expected.name == name else { return false }
        guard expected.arguments.count == args.count else { return false }  // arity counts
        var trial = bindings
        for (e, a) in zip(expected.arguments, args) {
            if let label = e.label, label != a.label { return false }
            guard match(e.value, a.value, bindings: &trial) else { return false }
        }
        bindings = trial
        return true
    }

    public static func match(_ pattern: ValueSyntax, _ value: Value, bindings: inout Bindings) -> Bool {
        switch pattern {
        case .wildcard:
            return true
        case .binding(let name):
            if let bound = bindings[name] { return same(bound, value) }
            bindings.bind(name, value)
            return true
        case .regex(let body):
            guard let text = textOf(value), let regex = try? LinearRegex(body) else { return false }
            return regex.wholeMatch(text)
        case .string(let s):
            return textOf(value) == s
        case .name(let n):
            return textOf(value) == n
        case .constant(_, let v):
            return same(v, value)
        case .int(let i):
            return value == .int(i)
        case .bool(let b):
            return value == .bool(b)
        case .null:
            return value == .null
        case .list(let items):
            guard case .list(let values) = value, values.count == items.count else { return false }
            for (p, v) in zip(items, values) where !match(p, v, bindings: &bindings) { return false }
            return true
        case .dict(let entries):
            guard case .dict(let actual) = value, actual.count == entries.count else { return false }
            for entry in entries {
                guard let v = actual.first(where: { $0.key == entry.key })?.value,
                    match(entry.value, v, bindings: &bindings)
                else { return false }
            }
            return true
        case .mvpd(let id, let fields):
            guard case .mvpd(let m) = value, m.id == id else { return false }
            for field in fields {
                guard let v = m.field(field.key), match(field.value, v, bindings: &bindings) else { return false }
            }
            return true
        }
    }

    /// `expected`'s text with each bound `$name` written as its value: what an expectations file's
    /// masks compare with a callback's text, since a line's `$guid` stands for the GUID it took.
    public static func text(_ expected: CallSyntax, bindings: Bindings) -> String {
        func text(_ v: ValueSyntax) -> String {
            switch v {
            case .binding(let name): return bindings[name]?.description ?? v.description
            case .list(let items): return "[" + items.map(text).joined(separator: ", ") + "]"
            case .dict(let entries):
                return "{"
                    + entries.map { e in
                        (e.keyForm == .string ? Value.quote(e.writtenKey) : e.writtenKey) + ": " + text(e.value)
                    }.joined(separator: ", ") + "}"
            default: return v.description
            }
        }
        return expected.name + "("
            + expected.arguments.map { ($0.label.map { $0 + ": " } ?? "") + text($0.value) }.joined(separator: ", ")
            + ")"
    }

    /// The value a `<` line's pattern stands for once its `$names` are bound (a name as its text, which
    /// `same` compares with an MVPD's id); nil when it holds `_`, a `/regex/`, an `Id{...}` pattern or a
    /// name not bound yet: it stands for more than one value.
    public static func value(of pattern: ValueSyntax, bindings: Bindings) -> Value? {
        switch pattern {
        case .binding(let name): return bindings[name]
        case .name(let n): return .string(n)
        case .list(let items):
            var values: [Value] = []
            for item in items {
                guard let v = value(of: item, bindings: bindings) else { return nil }
                values.append(v)
            }
            return .list(values)
        case .dict(let entries):
            var values: [Value.Entry] = []
            for entry in entries {
                guard let v = value(of: entry.value, bindings: bindings) else { return nil }
                values.append(Value.Entry(entry.key, v))
            }
            return .dict(values)
        default: return pattern.literal
        }
    }

    /// An MVPD stands for its id wherever a string or name is expected.
    public static func textOf(_ value: Value) -> String? {
        switch value {
        case .string(let s): return s
        case .mvpd(let m): return m.id
        default: return nil
        }
    }

    public static func same(_ a: Value, _ b: Value) -> Bool {
        if a == b { return true }
        if let x = textOf(a), let y = textOf(b) { return x == y }
        return false
    }
}
