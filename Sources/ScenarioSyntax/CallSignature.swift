import PassModel

/// The arguments each call takes, checked when the file is parsed: a wrong count, an unknown label or
/// a value of the wrong type is an error of the file (exit 2, with a caret), found before the scenario
/// runs rather than as a failure of the step. Mirrors how `CallBuilder` (Scenario) takes them, which
/// still checks the `$names` only a run can resolve.
struct CallSignature {
    enum Kind {
        /// A string, a name, or a string constant.
        case text
        case textOrNil
        case bool
        case dict
        /// A list of strings or names.
        case textList
        case any

        var what: String {
            switch self {
            case .text: return "a string"
            case .textOrNil: return "an MVPD id or nil"
            case .bool: return "true or false"
            case .dict: return "a dictionary"
            case .textList: return "a list of strings"
            case .any: return "a value"
            }
        }
    }

    struct Parameter {
        /// nil: written without a label.
        var label: String?
        /// How the usage line names it.
        var name: String
        var kind: Kind
        var required = false
        /// A labelled parameter that may also be written without its label.
        var positional = false
        /// With an argument of this label, an unlabelled argument is not taken for this one.
        var positionalUnlessGiven: String?
        /// An alias taken only when the parameter of this label was not given.
        var aliasOf: String?
    }

    var parameters: [Parameter]

    static func signature(of call: String) -> CallSignature? { table[call] }

    private static let table: [String: CallSignature] = [
        "init": CallSignature(parameters: [
            Parameter(label: "softwareStatement", name: "softwareStatement", kind: .text, positional: true)]),
        "setOptions": CallSignature(parameters: [Parameter(label: nil, name: "options", kind: .dict, required: true)]),
        "setRequestor": CallSignature(parameters: [
            Parameter(label: nil, name: "requestorID", kind: .text, required: true),
            Parameter(label: "signedRequestorID", name: "signedRequestorID", kind: .text),
            Parameter(label: "setSignedRequestorId", name: "setSignedRequestorId", kind: .text, aliasOf: "signedRequestorID"),
            Parameter(label: "serviceProviders", name: "serviceProviders", kind: .textList),
            Parameter(label: "secret", name: "secret", kind: .text),
            Parameter(label: "publicKey", name: "publicKey", kind: .text),
        ]),
        "checkAuthentication": CallSignature(parameters: []),
        "getSelectedProvider": CallSignature(parameters: []),
        "logout": CallSignature(parameters: []),
        "getAuthenticationToken": CallSignature(parameters: []),
        "getAuthentication": CallSignature(parameters: [
            Parameter(label: "filter", name: "filter", kind: .any),
            Parameter(label: "forceAuthn", name: "forceAuthn", kind: .bool, positional: true, positionalUnlessGiven: "filter"),
            Parameter(label: "withData", name: "withData", kind: .any),
        ]),
        "setSelectedProvider": CallSignature(parameters: [Parameter(label: nil, name: "mvpd", kind: .textOrNil, required: true)]),
        "handleExternalURL": CallSignature(parameters: [Parameter(label: nil, name: "url", kind: .text, required: true)]),
        "checkAuthorization": resourceCall,
        "getAuthorization": resourceCall,
        "checkPreauthorizedResources": CallSignature(parameters: [
            Parameter(label: nil, name: "resources", kind: .textList, required: true),
            Parameter(label: "cache", name: "cache", kind: .bool),
        ]),
        "getMetadata": CallSignature(parameters: [Parameter(label: nil, name: "key", kind: .any, required: true)]),
    ]

    private static let resourceCall = CallSignature(parameters: [
        Parameter(label: nil, name: "resource", kind: .text, required: true),
        Parameter(label: "withData", name: "withData", kind: .any),
    ])

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
                if p.required { return ("missing argument \(p.label.map { "'\($0):'" } ?? p.name) of \(call.name)" + expected, nil) }
                continue
            }
            let argument = remaining.remove(at: i)
            if !CallSignature.fits(argument.value, p.kind) {
                return ("\(call.name)'s \(p.name) takes \(p.kind.what), not \(CallSignature.brief(argument.value))", argument)
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
        case .textOrNil:
            if case .null = value { return true }
            if case .constant(_, .null) = value { return true }
            return isText(value)
        case .bool:
            if case .bool = value { return true }
            if case .constant(_, .bool) = value { return true }
            return false
        case .dict:
            if case .dict = value { return true }
            if case .constant(_, .dict) = value { return true }
            return false
        case .textList:
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
