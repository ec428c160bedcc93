/// A callback of the `EntitlementDelegate` protocol, as the engine delivers it to the app.
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

    /// One positional (or labelled) argument, with the constant's symbol to print when it has one.
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

    public var name: String {
        switch self {
        case .setRequestorComplete: return "setRequestorComplete"
        case .setAuthenticationStatus: return "setAuthenticationStatus"
        case .displayProviderDialog: return "displayProviderDialog"
        case .navigateToUrl: return "navigateToUrl"
        case .setToken: return "setToken"
        case .tokenRequestFailed: return "tokenRequestFailed"
        case .preauthorizedResources: return "preauthorizedResources"
        case .selectedProvider: return "selectedProvider"
        case .setMetadataStatus: return "setMetadataStatus"
        case .presentTvProviderDialog: return "presentTvProviderDialog"
        case .dismissTvProviderDialog: return "dismissTvProviderDialog"
        case .status: return "status"
        case .sendTrackingData: return "sendTrackingData"
        }
    }

    /// The arguments in the positional order of SCENARIO-FORMAT.md.
    public var arguments: [Argument] {
        switch self {
        case .setRequestorComplete(let s):
            return [Argument(.int(s))]
        case .setAuthenticationStatus(let s, let code):
            return [Argument(.int(s)), Argument(.string(code), symbols: Constants.authenticationErrors)]
        case .displayProviderDialog(let mvpds):
            return [Argument(.list(mvpds.map(Value.mvpd)))]
        case .navigateToUrl(let url, let svc):
            return [Argument(.string(url))] + (svc.map { [Argument(.bool($0))] } ?? [])
        case .setToken(let token, let resource):
            return [Argument(.string(token)), Argument(.string(resource))]
        case .tokenRequestFailed(let resource, let code, let details):
            return [Argument(.string(resource)), Argument(.string(code), symbols: Constants.authorizationErrors), Argument(.string(details))]
        case .preauthorizedResources(let rs):
            return [Argument(.list(rs.map(Value.string)))]
        case .selectedProvider(let m):
            return [Argument(m.map(Value.mvpd) ?? .null)]
        case .setMetadataStatus(let value, let encrypted, let opcode, let args):
            return [Argument(value), Argument(.bool(encrypted)), Argument(.int(opcode), symbols: Constants.metadataOpcodes), Argument(args)]
        case .presentTvProviderDialog(let shown, let featured), .dismissTvProviderDialog(let shown, let featured):
            return [Argument(.list(shown.map(Value.mvpd))), Argument(.list(featured.map(Value.mvpd)), label: "featured")]
        case .status(let code, let message):
            return [Argument(.string(code), symbols: Constants.statusCodes)] + (message.map { [Argument(.string($0))] } ?? [])
        case .sendTrackingData(let event, let data):
            return [Argument(.int(event), symbols: Constants.trackingEvents), Argument(.list(data.map { $0.map(Value.string) ?? .null }))]
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
