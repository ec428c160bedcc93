/// A callback of the `EntitlementDelegate` protocol, as the engine delivers it to the app.
///
/// Its vocabulary (`Callback.Name`: the DSL name and the positional arguments with their kinds and
/// constants) is written once, below; the DSL's names, the port codec and the canonical text follow.
public enum Callback: Hashable, Sendable {
    case setRequestorComplete(status: Int)
    case setAuthenticationStatus(status: Int, errorCode: String)
    case displayProviderDialog([MVPD])
    /// `useSVC` is nil for the one-argument `navigateToUrl:` and set for `navigateToUrl:useSVC:`.
    case navigateToUrl(String, useSVC: Bool?)
    case setToken(token: String, resource: String)
    case tokenRequestFailed(resource: String, errorCode: String, details: String)
    case preauthorizedResources([String])
    case selectedProvider(MVPD?)
    case setMetadataStatus(value: Value, encrypted: Bool, opcode: Int, arguments: Value)
    case presentTvProviderDialog(shown: [MVPD], featured: [MVPD])
    case dismissTvProviderDialog(shown: [MVPD], featured: [MVPD])
    case status(code: String, message: String?)
    case sendTrackingData(event: Int, data: [String?])

    public enum Name: String, CaseIterable, Hashable, Sendable {
        case setRequestorComplete, setAuthenticationStatus, displayProviderDialog, navigateToUrl
        case setToken, tokenRequestFailed, preauthorizedResources, selectedProvider, setMetadataStatus
        case presentTvProviderDialog, dismissTvProviderDialog, status, sendTrackingData
    }

    /// One positional (or labelled) argument of a callback.
    public struct Parameter: Hashable, Sendable {
        public var label: String?
        public var name: String
        public var kind: ArgumentKind
        /// Only the last arguments may be optional: the SDK's shorter overload leaves them out.
        public var optional: Bool
        /// The constants whose symbol the canonical text prints for the value.
        public var symbols: [String]

        public init(
            _ name: String, _ kind: ArgumentKind, label: String? = nil, optional: Bool = false, symbols: [String] = []
        ) {
            self.name = name
            self.kind = kind
            self.label = label
            self.optional = optional
            self.symbols = symbols
        }
    }

    /// One argument as delivered, with the constant's symbol to print when it has one.
    public struct Argument: Hashable, Sendable {
        public var label: String?
        public var value: Value
        public var symbol: String?
        public init(_ value: Value, label: String? = nil, symbols: [String] = []) {
            self.label = label
            self.value = value
            self.symbol = Constants.symbol(for: value, among: symbols)
        }
    }

    public var kind: Name {
        switch self {
        case .setRequestorComplete: return .setRequestorComplete
        case .setAuthenticationStatus: return .setAuthenticationStatus
        case .displayProviderDialog: return .displayProviderDialog
        case .navigateToUrl: return .navigateToUrl
        case .setToken: return .setToken
        case .tokenRequestFailed: return .tokenRequestFailed
        case .preauthorizedResources: return .preauthorizedResources
        case .selectedProvider: return .selectedProvider
        case .setMetadataStatus: return .setMetadataStatus
        case .presentTvProviderDialog: return .presentTvProviderDialog
        case .dismissTvProviderDialog: return .dismissTvProviderDialog
        case .status: return .status
        case .sendTrackingData: return .sendTrackingData
        }
    }

    public var name: String { kind.rawValue }

    /// The arguments in the positional order of SCENARIO-FORMAT.md.
    public var arguments: [Argument] {
        zip(kind.parameters, values).map { p, v in Argument(v, label: p.label, symbols: p.symbols) }
    }

    /// The argument values in canonical form (MVPDs as `.mvpd`), optional ones left out when absent.
    public var values: [Value] {
        func mvpds(_ ms: [MVPD]) -> Value { .list(ms.map(Value.mvpd)) }
        switch self {
        case .setRequestorComplete(let s): return [.int(s)]
        case .setAuthenticationStatus(let s, let code): return [.int(s), .string(code)]
        case .displayProviderDialog(let ms): return [mvpds(ms)]
        case .navigateToUrl(let url, let svc): return [.string(url)] + (svc.map { [.bool($0)] } ?? [])
        case .setToken(let token, let resource): return [.string(token), .string(resource)]
        case .tokenRequestFailed(let resource, let code, let details):
            return [.string(resource), .string(code), .string(details)]
        case .preauthorizedResources(let rs): return [.list(rs.map(Value.string))]
        case .selectedProvider(let m): return [m.map(Value.mvpd) ?? .null]
        case .setMetadataStatus(let value, let encrypted, let opcode, let args):
            return [value, .bool(encrypted), .int(opcode), args]
        case .presentTvProviderDialog(let shown, let featured), .dismissTvProviderDialog(let shown, let featured):
            return [mvpds(shown), mvpds(featured)]
        case .status(let code, let message): return [.string(code)] + (message.map { [.string($0)] } ?? [])
        case .sendTrackingData(let event, let data):
            return [.int(event), .list(data.map { $0.map(Value.string) ?? .null })]
        }
    }

    /// The callback of `name` with these values, each checked against its parameter's kind.
    public init(_ name: Name, values given: [Value]) throws(ArgumentError) {
        let ps = name.parameters
        guard given.count <= ps.count, given.count >= ps.filter({ !$0.optional }).count else {
            throw ArgumentError(parameter: name.rawValue, expected: "given \(ps.count) argument(s)")
        }
        var v: [Value] = []
        for (p, raw) in zip(ps, given) {
            guard let c = p.kind.canonical(raw) else { throw ArgumentError(parameter: p.name, expected: p.kind.what) }
            v.append(c)
        }
        func at(_ i: Int) -> Value? { i < v.count ? v[i] : nil }
        func int(_ i: Int) throws(ArgumentError) -> Int {
            guard let x = at(i)?.intValue else {
                throw ArgumentError(parameter: ps[i].name, expected: ArgumentKind.int.what)
            }
            return x
        }
        func text(_ i: Int) throws(ArgumentError) -> String {
            guard let x = at(i)?.stringValue else {
                throw ArgumentError(parameter: ps[i].name, expected: ArgumentKind.text.what)
            }
            return x
        }
        func bool(_ i: Int) throws(ArgumentError) -> Bool {
            guard let x = at(i)?.boolValue else {
                throw ArgumentError(parameter: ps[i].name, expected: ArgumentKind.bool.what)
            }
            return x
        }
        func mvpds(_ i: Int) -> [MVPD] {
            (at(i)?.listValue ?? []).compactMap { if case .mvpd(let m) = $0 { return m } else { return nil } }
        }
        switch name {
        case .setRequestorComplete: self = .setRequestorComplete(status: try int(0))
        case .setAuthenticationStatus: self = .setAuthenticationStatus(status: try int(0), errorCode: try text(1))
        case .displayProviderDialog: self = .displayProviderDialog(mvpds(0))
        case .navigateToUrl:
            let svc: Bool? = at(1) == nil ? nil : try bool(1)
            self = .navigateToUrl(try text(0), useSVC: svc)
        case .setToken: self = .setToken(token: try text(0), resource: try text(1))
        case .tokenRequestFailed:
            self = .tokenRequestFailed(resource: try text(0), errorCode: try text(1), details: try text(2))
        case .preauthorizedResources: self = .preauthorizedResources((at(0)?.listValue ?? []).compactMap(\.stringValue))
        case .selectedProvider:
            if case .mvpd(let m)? = at(0) { self = .selectedProvider(m) } else { self = .selectedProvider(nil) }
        case .setMetadataStatus:
            self = .setMetadataStatus(
                value: at(0) ?? .null, encrypted: try bool(1), opcode: try int(2), arguments: at(3) ?? .null)
        case .presentTvProviderDialog: self = .presentTvProviderDialog(shown: mvpds(0), featured: mvpds(1))
        case .dismissTvProviderDialog: self = .dismissTvProviderDialog(shown: mvpds(0), featured: mvpds(1))
        case .status:
            let message: String? = at(1) == nil ? nil : try text(1)
            self = .status(code: try text(0), message: message)
        case .sendTrackingData:
            self = .sendTrackingData(event: try int(0), data: (at(1)?.listValue ?? []).map(\.stringValue))
        }
    }
}

extension Callback.Name {
    /// The arguments in the SDK's positional order.
    public var parameters: [Callback.Parameter] {
        typealias P = Callback.Parameter
        switch self {
        case .setRequestorComplete: return [P("status", .int)]
        case .setAuthenticationStatus:
            return [P("status", .int), P("errorCode", .text, symbols: Constants.authenticationErrors)]
        case .displayProviderDialog: return [P("mvpds", .mvpds)]
        case .navigateToUrl: return [P("url", .text), P("useSVC", .bool, optional: true)]
        case .setToken: return [P("token", .text), P("resource", .text)]
        case .tokenRequestFailed:
            return [
                P("resource", .text), P("errorCode", .text, symbols: Constants.authorizationErrors),
                P("errorDescription", .text),
            ]
        case .preauthorizedResources: return [P("resources", .textList)]
        case .selectedProvider: return [P("mvpd", .mvpdOrNil)]
        case .setMetadataStatus:
            return [
                P("metadata", .any), P("encrypted", .bool), P("forKey", .int, symbols: Constants.metadataOpcodes),
                P("arguments", .any),
            ]
        case .presentTvProviderDialog, .dismissTvProviderDialog:
            return [P("mvpds", .mvpds), P("featured", .mvpds, label: "featured")]
        case .status: return [P("code", .text, symbols: Constants.statusCodes), P("message", .text, optional: true)]
        case .sendTrackingData:
            return [P("forEventType", .int, symbols: Constants.trackingEvents), P("data", .textOrNilList)]
        }
    }
}

extension Callback: CustomStringConvertible {
    /// The canonical text: `setAuthenticationStatus(0, PROVIDER_NOT_SELECTED_ERROR)`.
    public var description: String {
        let args = arguments.map { arg in
            (arg.label.map { $0 + ": " } ?? "") + (arg.symbol ?? arg.value.description)
        }
        return name + "(" + args.joined(separator: ", ") + ")"
    }
}
