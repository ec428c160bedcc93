import Entitlement
import PassModel
import ScenarioSyntax

/// A step the file asks for that cannot be carried out: a bad argument, a feature of a later issue.
struct StepError: Error {
    var message: String
    var location: SourceLocation
}

/// Turns a `> call(...)` into an API call, resolving SP names, constants and bound `$names`.
/// The parser has already checked each call's arguments against `CallSignature` (ScenarioSyntax),
/// so what fails here is what only a run knows: the value a `$name` was bound to.
struct CallBuilder {
    var spURLs: [String: String]
    var bindings: Bindings

    func build(_ syntax: CallSyntax) throws(StepError) -> Call {
        var args = Arguments(syntax: syntax, builder: self)
        let call: Call
        switch syntax.name {
        case "init":
            call = .initialize(softwareStatement: try args.optionalString("softwareStatement", positional: true))
        case "setOptions":
            guard case .dict(let entries)? = try args.value(nil, required: true) else { throw args.error("setOptions takes a dictionary") }
            call = .setOptions(entries)
        case "setRequestor":
            let id = try args.string(nil)
            var signed = try args.optionalString("signedRequestorID")
            if signed == nil { signed = try args.optionalString("setSignedRequestorId") }
            var sps: [String]?
            if let list = try args.value("serviceProviders", required: false) {
                guard case .list(let items) = list else { throw args.error("serviceProviders: takes a list") }
                var urls: [String] = []
                for item in items {
                    guard let s = Matcher.textOf(item) else { throw args.error("serviceProviders: lists SP names or URLs") }
                    urls.append(spURLs[s] ?? s)
                }
                sps = urls
            }
            call = .setRequestor(requestorID: id, serviceProviders: sps, signedRequestorID: signed,
                                 secret: try args.optionalString("secret"), publicKey: try args.optionalString("publicKey"))
        case "checkAuthentication": call = .checkAuthentication
        case "getSelectedProvider": call = .getSelectedProvider
        case "logout": call = .logout
        case "getAuthenticationToken": call = .getAuthenticationToken
        case "getAuthentication":
            let filter = try args.value("filter", required: false)
            var force = false
            if let f = try args.value("forceAuthn", required: false, positional: filter == nil) {
                guard case .bool(let b) = f else { throw args.error("forceAuthn: takes true or false") }
                force = b
            }
            call = .getAuthentication(forceAuthn: force, data: try args.value("withData", required: false), filter: filter)
        case "setSelectedProvider":
            let v = try args.value(nil, required: true)
            if v == .null { call = .setSelectedProvider(nil) }
            else if let id = v.flatMap(Matcher.textOf) { call = .setSelectedProvider(id) }
            else { throw args.error("setSelectedProvider takes an MVPD id or nil") }
        case "handleExternalURL":
            call = .handleExternalURL(try args.string(nil))
        case "checkAuthorization", "getAuthorization":
            let r = try args.string(nil)
            let data = try args.value("withData", required: false)
            call = syntax.name == "checkAuthorization" ? .checkAuthorization(resource: r, data: data) : .getAuthorization(resource: r, data: data)
        case "checkPreauthorizedResources":
            guard case .list(let items)? = try args.value(nil, required: true) else { throw args.error("checkPreauthorizedResources takes a list") }
            var resources: [String] = []
            for item in items {
                guard let s = Matcher.textOf(item) else { throw args.error("resources are strings") }
                resources.append(s)
            }
            var cache = true
            if let c = try args.value("cache", required: false) {
                guard case .bool(let b) = c else { throw args.error("cache: takes true or false") }
                cache = b
            }
            call = .checkPreauthorizedResources(resources, cache: cache)
        case "getMetadata":
            guard let v = try args.value(nil, required: true) else { throw args.error("getMetadata takes a dictionary") }
            call = .getMetadata(v)
        default:
            throw StepError(message: "unknown call '\(syntax.name)'", location: syntax.location)
        }
        try args.finish()
        return call
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
                throw StepError(message: "'\(arg.value)' is not a value a call can take (unbound $name or pattern)", location: arg.location)
            }
            return v
        }

        mutating func string(_ label: String?) throws(StepError) -> String {
            guard let v = try value(label, required: true), let s = Matcher.textOf(v) else { throw error("expected a string") }
            return s
        }

        mutating func optionalString(_ label: String?, positional: Bool = false) throws(StepError) -> String? {
            guard let v = try value(label, required: false, positional: positional) else { return nil }
            guard let s = Matcher.textOf(v) else { throw error("'\(label ?? "argument")' takes a string") }
            return s
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
