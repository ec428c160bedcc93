/// A call of the AccessEnabler API, as the app makes it.
///
/// Its vocabulary (`Call.Name`: the DSL name, the arguments with their kinds, labels and port
/// fields) is written once, below; the DSL's parser and builder, the port codec, the oracle
/// and the fuzzer derive theirs from it (docs/CONTRIBUTING.md).
public enum Call: Hashable, Sendable {
    /// `init(softwareStatement:)`, or the deprecated `init` (nil).
    case initialize(softwareStatement: String?)
    case setOptions([Value.Entry])
    /// `serviceProviders` are URLs; nil means the default SP. The deprecated forms add a signed
    /// requestor id (and on tvOS a secret and public key).
    case setRequestor(
        requestorID: String, serviceProviders: [String]?, signedRequestorID: String? = nil, secret: String? = nil,
        publicKey: String? = nil)
    case checkAuthentication
    case getAuthentication(forceAuthn: Bool, data: Value?, filter: Value?)
    case setSelectedProvider(String?)
    case handleExternalURL(String)
    case getSelectedProvider
    case checkAuthorization(resource: String, data: Value?)
    case getAuthorization(resource: String, data: Value?)
    case checkPreauthorizedResources([String], cache: Bool)
    case getMetadata(Value)
    case logout
    case getAuthenticationToken
    /// The SDK's version, a getter that returns at once (docs/CONFORMANCE.md, choice 48).
    case getVersion

    /// The API's methods, in the order the docs list them (`passim doc` keeps it).
    public enum Name: String, CaseIterable, Hashable, Sendable {
        case initialize = "init"
        case setOptions, setRequestor, checkAuthentication, getAuthentication, setSelectedProvider
        case handleExternalURL, getSelectedProvider, checkAuthorization, getAuthorization
        case checkPreauthorizedResources, getMetadata, logout, getAuthenticationToken, getVersion
    }

    public var kind: Name {
        switch self {
        case .initialize: return .initialize
        case .setOptions: return .setOptions
        case .setRequestor: return .setRequestor
        case .checkAuthentication: return .checkAuthentication
        case .getAuthentication: return .getAuthentication
        case .setSelectedProvider: return .setSelectedProvider
        case .handleExternalURL: return .handleExternalURL
        case .getSelectedProvider: return .getSelectedProvider
        case .checkAuthorization: return .checkAuthorization
        case .getAuthorization: return .getAuthorization
        case .checkPreauthorizedResources: return .checkPreauthorizedResources
        case .getMetadata: return .getMetadata
        case .logout: return .logout
        case .getAuthenticationToken: return .getAuthenticationToken
        case .getVersion: return .getVersion
        }
    }

    public var name: String { kind.rawValue }

    /// Calls made before the engine is configured wait in a queue (BEHAVIOR.md, "Queueing").
    public var isQueuedUntilConfigured: Bool { kind.isQueuedUntilConfigured }
}

extension Call.Name {
    /// The arguments, in the order the DSL takes and writes them. Made once per name: every call a
    /// fuzz run makes reads them twice.
    public var parameters: [Call.Parameter] {
        Call.Name.parameterTable[Call.Name.allCases.firstIndex(of: self) ?? 0]
    }

    private static let parameterTable = allCases.map(\.makeParameters)

    private var makeParameters: [Call.Parameter] {
        typealias P = Call.Parameter
        let withData = P(label: "withData", name: "withData", field: "data", kind: .any)
        switch self {
        case .initialize:
            return [P(label: "softwareStatement", name: "softwareStatement", kind: .text, positional: true)]
        case .setOptions: return [P(label: nil, name: "options", kind: .dict, required: true)]
        case .setRequestor:
            return [
                P(label: nil, name: "requestorID", kind: .text, required: true),
                P(label: "signedRequestorID", name: "signedRequestorID", kind: .text),
                // The seeds' selector spells it `setSignedRequestorId:`; the DSL takes both.
                P(
                    label: "setSignedRequestorId", name: "setSignedRequestorId", field: "signedRequestorID",
                    kind: .text, aliasOf: "signedRequestorID"),
                P(label: "serviceProviders", name: "serviceProviders", kind: .serviceProviders),
                P(label: "secret", name: "secret", kind: .text),
                P(label: "publicKey", name: "publicKey", kind: .text),
            ]
        case .checkAuthentication, .getSelectedProvider, .logout, .getAuthenticationToken, .getVersion: return []
        case .getAuthentication:
            return [
                P(label: "filter", name: "filter", kind: .any),
                P(
                    label: "forceAuthn", name: "forceAuthn", kind: .bool, positional: true,
                    positionalUnlessGiven: "filter", defaultValue: .bool(false)),
                withData,
            ]
        case .setSelectedProvider: return [P(label: nil, name: "mvpd", kind: .mvpdIDOrNil, required: true)]
        case .handleExternalURL: return [P(label: nil, name: "url", kind: .text, required: true)]
        case .checkAuthorization, .getAuthorization:
            return [P(label: nil, name: "resource", kind: .text, required: true), withData]
        case .checkPreauthorizedResources:
            return [
                P(label: nil, name: "resources", kind: .textList, required: true),
                P(label: "cache", name: "cache", kind: .bool, defaultValue: .bool(true)),
            ]
        case .getMetadata: return [P(label: nil, name: "key", kind: .any, required: true)]
        }
    }

    /// The fields of the port's `args` object, in the order it writes them (docs/PORTING.md).
    public var fields: [String] {
        switch self {
        case .setRequestor: return ["requestorID", "serviceProviders", "signedRequestorID", "secret", "publicKey"]
        case .getAuthentication: return ["forceAuthn", "data", "filter"]
        default: return parameters.filter { $0.aliasOf == nil }.map(\.field)
        }
    }

    /// Calls made before the engine is configured wait in a queue (BEHAVIOR.md, "Queueing").
    public var isQueuedUntilConfigured: Bool {
        switch self {
        case .checkAuthentication, .getAuthentication, .checkAuthorization, .getAuthorization,
            .checkPreauthorizedResources, .getMetadata, .logout:
            return true
        default:
            return false
        }
    }
}

extension Call {
    /// One argument of a call.
    public struct Parameter: Hashable, Sendable {
        /// nil: written without a label.
        public var label: String?
        /// How messages and the usage line name it.
        public var name: String
        /// The port's field for it (an alias shares its primary's).
        public var field: String
        public var kind: ArgumentKind
        public var required: Bool
        /// A labelled parameter that may also be written without its label.
        public var positional: Bool
        /// With an argument of this label, an unlabelled argument is not taken for this one.
        public var positionalUnlessGiven: String?
        /// An alias taken only when the parameter of this label was not given.
        public var aliasOf: String?
        /// Its value when absent; canonical text leaves it out unless a later argument is written.
        public var defaultValue: Value?

        public init(
            label: String?, name: String, field: String? = nil, kind: ArgumentKind, required: Bool = false,
            positional: Bool = false, positionalUnlessGiven: String? = nil, aliasOf: String? = nil,
            defaultValue: Value? = nil
        ) {
            self.label = label
            self.name = name
            self.field = field ?? name
            self.kind = kind
            self.required = required
            self.positional = positional
            self.positionalUnlessGiven = positionalUnlessGiven
            self.aliasOf = aliasOf
            self.defaultValue = defaultValue
        }
    }

    /// The call of `name` with these arguments by port field (absent or `.null`: not given), each
    /// checked against its parameter's kind; absent ones take their default.
    public init(_ name: Name, fields given: [String: Value]) throws(ArgumentError) {
        try self.init(name, field: { given[$0] })
    }

    /// `init(_:fields:)` with the fields as pairs, the first of a field counting: what the DSL's
    /// calls build (a fuzz run builds one per call: a small list is searched faster than a
    /// dictionary hashes its keys).
    public init(_ name: Name, fieldList given: [(String, Value)]) throws(ArgumentError) {
        try self.init(name, field: { f in given.first { $0.0 == f }?.1 })
    }

    private init(_ name: Name, field given: (String) -> Value?) throws(ArgumentError) {
        var values = Fields()
        for p in name.parameters where p.aliasOf == nil {
            let raw = given(p.field).flatMap { $0 == .null ? nil : $0 }
            guard let v = raw else {
                if let d = p.defaultValue {
                    values.set(p.field, d)
                } else if p.required && !p.kind.takesNil {
                    throw ArgumentError(parameter: p.field, expected: p.kind.what)
                }
                continue
            }
            guard let c = p.kind.canonical(v) else { throw ArgumentError(parameter: p.field, expected: p.kind.what) }
            if c != .null { values.set(p.field, c) }
        }
        let a = values
        switch name {
        case .initialize: self = .initialize(softwareStatement: try a.optionalText("softwareStatement"))
        case .setOptions: self = .setOptions(try a.entries("options"))
        case .setRequestor:
            self = .setRequestor(
                requestorID: try a.text("requestorID"), serviceProviders: try a.optionalTexts("serviceProviders"),
                signedRequestorID: try a.optionalText("signedRequestorID"),
                secret: try a.optionalText("secret"), publicKey: try a.optionalText("publicKey"))
        case .checkAuthentication: self = .checkAuthentication
        case .getAuthentication:
            self = .getAuthentication(forceAuthn: try a.bool("forceAuthn"), data: a["data"], filter: a["filter"])
        case .setSelectedProvider: self = .setSelectedProvider(try a.optionalText("mvpd"))
        case .handleExternalURL: self = .handleExternalURL(try a.text("url"))
        case .getSelectedProvider: self = .getSelectedProvider
        case .checkAuthorization: self = .checkAuthorization(resource: try a.text("resource"), data: a["data"])
        case .getAuthorization: self = .getAuthorization(resource: try a.text("resource"), data: a["data"])
        case .checkPreauthorizedResources:
            self = .checkPreauthorizedResources(try a.texts("resources"), cache: try a.bool("cache"))
        case .getMetadata: self = .getMetadata(a["key"] ?? .null)
        case .logout: self = .logout
        case .getAuthenticationToken: self = .getAuthenticationToken
        case .getVersion: self = .getVersion
        }
    }

    /// The arguments by port field, in canonical form; nil ones are left out.
    public var fields: [String: Value] {
        func texts(_ xs: [String]) -> Value { .list(xs.map(Value.string)) }
        var out: [String: Value?]
        switch self {
        case .initialize(let st): out = ["softwareStatement": st.map(Value.string)]
        case .setOptions(let entries): out = ["options": .dict(entries)]
        case .setRequestor(let id, let sps, let signed, let secret, let key):
            out = [
                "requestorID": .string(id), "serviceProviders": sps.map(texts),
                "signedRequestorID": signed.map(Value.string),
                "secret": secret.map(Value.string), "publicKey": key.map(Value.string),
            ]
        case .checkAuthentication, .getSelectedProvider, .logout, .getAuthenticationToken, .getVersion: out = [:]
        case .getAuthentication(let force, let data, let filter):
            out = ["forceAuthn": .bool(force), "data": data, "filter": filter]
        case .setSelectedProvider(let id): out = ["mvpd": id.map(Value.string)]
        case .handleExternalURL(let url): out = ["url": .string(url)]
        case .checkAuthorization(let r, let data), .getAuthorization(let r, let data):
            out = ["resource": .string(r), "data": data]
        case .checkPreauthorizedResources(let rs, let cache): out = ["resources": texts(rs), "cache": .bool(cache)]
        case .getMetadata(let key): out = ["key": key]
        }
        return out.compactMapValues { $0 }
    }

    /// The canonical arguments by field (a handful at most, kept in a list), and typed reads of
    /// them: a miss here is a parameter table that disagrees with the cases above, reported like a
    /// bad argument rather than trapped.
    private struct Fields {
        private var pairs: [(String, Value)] = []
        mutating func set(_ field: String, _ value: Value) {
            if let i = pairs.firstIndex(where: { $0.0 == field }) {
                pairs[i].1 = value
            } else {
                pairs.append((field, value))
            }
        }
        subscript(_ field: String) -> Value? { pairs.first { $0.0 == field }?.1 }

        func text(_ f: String) throws(ArgumentError) -> String {
            guard let s = self[f]?.stringValue else {
                throw ArgumentError(parameter: f, expected: ArgumentKind.text.what)
            }
            return s
        }
        func optionalText(_ f: String) throws(ArgumentError) -> String? {
            guard self[f] != nil else { return nil }
            return try text(f)
        }
        func bool(_ f: String) throws(ArgumentError) -> Bool {
            guard let b = self[f]?.boolValue else {
                throw ArgumentError(parameter: f, expected: ArgumentKind.bool.what)
            }
            return b
        }
        func entries(_ f: String) throws(ArgumentError) -> [Value.Entry] {
            guard case .dict(let e)? = self[f] else {
                throw ArgumentError(parameter: f, expected: ArgumentKind.dict.what)
            }
            return e
        }
        func texts(_ f: String) throws(ArgumentError) -> [String] {
            guard let items = self[f]?.listValue else {
                throw ArgumentError(parameter: f, expected: ArgumentKind.textList.what)
            }
            var out: [String] = []
            for item in items {
                guard let s = item.stringValue else {
                    throw ArgumentError(parameter: f, expected: ArgumentKind.textList.what)
                }
                out.append(s)
            }
            return out
        }
        func optionalTexts(_ f: String) throws(ArgumentError) -> [String]? {
            guard self[f] != nil else { return nil }
            return try texts(f)
        }
    }
}

extension Call: CustomStringConvertible {
    /// The canonical text of SCENARIO-FORMAT.md, labels Swift style: each argument given, in the
    /// DSL's order; one at its default only when a later one is written.
    public var description: String {
        let values = fields
        var args: [String] = []
        for p in kind.parameters.reversed() where p.aliasOf == nil {
            let v = values[p.field]
            let written: Bool
            if let d = p.defaultValue { written = v != d || !args.isEmpty } else { written = v != nil || p.required }
            guard written else { continue }
            let text: String
            switch (p.kind, v) {
            case (_, nil): text = "nil"
            case (.mvpdIDOrNil, .string(let id)?): text = Value.key(id)
            case (_, let v?): text = v.description
            }
            args.insert((p.label.map { $0 + ": " } ?? "") + text, at: 0)
        }
        return name + "(" + args.joined(separator: ", ") + ")"
    }
}
