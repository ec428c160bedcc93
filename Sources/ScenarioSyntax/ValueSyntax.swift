import PassModel

/// A value or pattern as written in a call, an expectation, `browser at` or a `meta` entry.
///
/// Names stay names: whether `Comcast` is an MVPD id or `main` an SP is for the runner to decide,
/// since only the world knows.
public indirect enum ValueSyntax: Hashable, Sendable {
    case string(String)
    case int(Int)
    case bool(Bool)
    case null
    /// An identifier naming a constant of `PassModel.Constants`, with the value it stands for.
    case constant(symbol: String, value: Value)
    /// Any other identifier: an MVPD id, an SP name, a resource.
    case name(String)
    case list([ValueSyntax])
    case dict([DictEntrySyntax])
    /// `_`: matches any one value (expectations only).
    case wildcard
    /// `/body/`: a string the regex matches whole; `\/` in the source is `/` here. Checked to compile.
    case regex(String)
    /// `$name`: bound on first use in an expectation; a call may pass a bound one.
    case binding(String)
    /// `Id{field: value, ...}`: an MVPD with the fields that must match (expectations only).
    case mvpd(id: String, fields: [DictEntrySyntax])

    /// True when this value or anything inside it is a pattern (`_`, regex, `$name`, `Id{...}`).
    public var containsPattern: Bool {
        switch self {
        case .wildcard, .regex, .binding, .mvpd: return true
        case .list(let items): return items.contains { $0.containsPattern }
        case .dict(let entries): return entries.contains { $0.value.containsPattern }
        case .string, .int, .bool, .null, .constant, .name: return false
        }
    }

    /// The plain value, with `resolve` deciding what a name stands for; nil when it contains a
    /// pattern or `resolve` returns nil for one of its names.
    public func literal(resolvingName resolve: (String) -> Value?) -> Value? {
        switch self {
        case .string(let s): return .string(s)
        case .int(let i): return .int(i)
        case .bool(let b): return .bool(b)
        case .null: return .null
        case .constant(_, let value): return value
        case .name(let n): return resolve(n)
        case .list(let items):
            var values: [Value] = []
            for item in items {
                guard let v = item.literal(resolvingName: resolve) else { return nil }
                values.append(v)
            }
            return .list(values)
        case .dict(let entries):
            var values: [Value.Entry] = []
            for entry in entries {
                guard let v = entry.value.literal(resolvingName: resolve) else { return nil }
                values.append(Value.Entry(entry.key, v))
            }
            return .dict(values)
        case .wildcard, .regex, .binding, .mvpd: return nil
        }
    }

    /// The plain value when it has no names and no patterns (a `meta` value always qualifies).
    public var literal: Value? { literal(resolvingName: { _ in nil }) }
}

/// A `key: value` entry of a dictionary or of an `Id{...}` MVPD pattern.
public struct DictEntrySyntax: Hashable, Sendable {
    /// How the key was written.
    public enum KeyForm: Hashable, Sendable {
        case identifier
        /// A constant symbol such as `METADATA_OPCODE_KEY`; `key` holds its value.
        case constant
        case string
    }

    /// The key as written: the identifier or symbol, or the string's contents.
    public var writtenKey: String
    public var keyForm: KeyForm
    /// The key the dictionary has: `METADATA_OPCODE_KEY` resolves to `"opCode"`.
    public var key: String
    public var value: ValueSyntax

    public init(writtenKey: String, keyForm: KeyForm, key: String, value: ValueSyntax) {
        self.writtenKey = writtenKey
        self.keyForm = keyForm
        self.key = key
        self.value = value
    }

    /// An identifier key (`{zip: ...}`): written and resolved alike.
    public init(_ key: String, _ value: ValueSyntax) {
        self.init(writtenKey: key, keyForm: .identifier, key: key, value: value)
    }
}

/// `name(args)`, a call of the app or an expected callback.
public struct CallSyntax: Hashable, Sendable {
    public var name: String
    public var arguments: [ArgumentSyntax]
    /// Where the name is.
    public var location: SourceLocation

    public init(name: String, arguments: [ArgumentSyntax], location: SourceLocation) {
        self.name = name
        self.arguments = arguments
        self.location = location
    }
}

/// One argument: positional or `label: value`, Swift style.
public struct ArgumentSyntax: Hashable, Sendable {
    public var label: String?
    public var value: ValueSyntax
    /// Where the argument (its label, when it has one) starts.
    public var location: SourceLocation

    public init(label: String? = nil, value: ValueSyntax, location: SourceLocation) {
        self.label = label
        self.value = value
        self.location = location
    }
}

extension ValueSyntax: CustomStringConvertible {
    /// The text as a scenario writes it.
    public var description: String {
        switch self {
        case .string(let s): return Value.quote(s)
        case .int(let i): return String(i)
        case .bool(let b): return b ? "true" : "false"
        case .null: return "nil"
        case .constant(let symbol, _): return symbol
        case .name(let n): return n
        case .list(let items): return "[" + items.map(\.description).joined(separator: ", ") + "]"
        case .dict(let entries): return "{" + entries.map(\.description).joined(separator: ", ") + "}"
        case .wildcard: return "_"
        case .regex(let body): return "/" + body.replacingSlashes() + "/"
        case .binding(let n): return "$" + n
        case .mvpd(let id, let fields): return id + "{" + fields.map(\.description).joined(separator: ", ") + "}"
        }
    }
}

extension DictEntrySyntax: CustomStringConvertible {
    public var description: String {
        (keyForm == .string ? Value.quote(writtenKey) : writtenKey) + ": " + value.description
    }
}

extension CallSyntax: CustomStringConvertible {
    /// `name(label: value, ...)` as a scenario writes it.
    public var description: String {
        name + "(" + arguments.map(\.description).joined(separator: ", ") + ")"
    }
}

extension ArgumentSyntax: CustomStringConvertible {
    public var description: String { (label.map { $0 + ": " } ?? "") + value.description }
}

extension String {
    /// A regex body back in its `/…/` form, where a slash must be escaped.
    fileprivate func replacingSlashes() -> String {
        var out = ""
        for scalar in unicodeScalars {
            if scalar == "/" { out += "\\/" } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }
}
