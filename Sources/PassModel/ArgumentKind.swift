/// What one argument of a call or callback holds. The DSL's parser and builder, the port codec, the
/// canonical text and the vocabulary's round-trip test all read arguments by this kind, so a new
/// call or callback is described once (`Call.Name`, `Callback.Name`) and every place follows.
public enum ArgumentKind: Hashable, Sendable {
    /// A string; the DSL also takes a name or a string constant.
    case text
    /// An MVPD id, or nil; written bare when it lexes as a name.
    case mvpdIDOrNil
    case bool
    case int
    /// A dictionary (a JSON object on the port).
    case dict
    /// A list of strings.
    case textList
    /// A list of SP URLs; the DSL also takes the world's SP names.
    case serviceProviders
    /// A list of MVPDs (objects on the port).
    case mvpds
    /// An MVPD, or nil.
    case mvpdOrNil
    /// A list of strings and nils.
    case textOrNilList
    /// Any value.
    case any

    /// Whether nil is one of its values, so that a missing argument of this kind is nil, not an error.
    public var takesNil: Bool {
        switch self {
        case .mvpdIDOrNil, .mvpdOrNil, .any: return true
        default: return false
        }
    }

    /// The value in its canonical form (strings for names and MVPD ids, `.null` for nil), or nil
    /// when it is not of this kind.
    public func canonical(_ value: Value) -> Value? {
        func text(_ v: Value) -> String? {
            switch v {
            case .string(let s): return s
            case .mvpd(let m): return m.id
            default: return nil
            }
        }
        func texts(_ v: Value) -> Value? {
            guard let items = v.listValue else { return nil }
            var out: [Value] = []
            for item in items {
                guard let s = text(item) else { return nil }
                out.append(.string(s))
            }
            return .list(out)
        }
        switch self {
        case .any: return value
        case .text: return text(value).map(Value.string)
        case .mvpdIDOrNil: return value == .null ? .null : text(value).map(Value.string)
        case .bool: return value.boolValue.map(Value.bool)
        case .int: return value.intValue.map(Value.int)
        case .dict:
            if case .dict = value { return value }
            return nil
        case .textList, .serviceProviders: return texts(value)
        case .mvpds:
            guard let items = value.listValue,
                items.allSatisfy({ if case .mvpd = $0 { return true } else { return false } })
            else { return nil }
            return value
        case .mvpdOrNil:
            if value == .null { return value }
            if case .mvpd = value { return value }
            return nil
        case .textOrNilList:
            guard let items = value.listValue, items.allSatisfy({ $0 == .null || $0.stringValue != nil }) else {
                return nil
            }
            return value
        }
    }

    /// How a message names what it takes: "must be a string".
    public var what: String {
        switch self {
        case .text: return "a string"
        case .mvpdIDOrNil: return "an MVPD id or nil"
        case .bool: return "true or false"
        case .int: return "an integer"
        case .dict: return "a dictionary"
        case .textList, .serviceProviders: return "a list of strings"
        case .mvpds: return "a list of MVPDs"
        case .mvpdOrNil: return "an MVPD or nil"
        case .textOrNilList: return "a list of strings and nils"
        case .any: return "a value"
        }
    }
}

/// An argument that does not fit its parameter: which one, and what it takes.
public struct ArgumentError: Error, Hashable, Sendable, CustomStringConvertible {
    public var parameter: String
    public var expected: String
    public init(parameter: String, expected: String) {
        self.parameter = parameter
        self.expected = expected
    }
    public var description: String { "\(parameter) must be \(expected)" }
}
