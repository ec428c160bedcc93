/// A call of the AccessEnabler API, as the app makes it.
public enum Call: Hashable, Sendable {
    /// `init(softwareStatement:)`, or the deprecated `init` (nil).
    case initialize(softwareStatement: String?)
    case setOptions([Value.Entry])
    /// `serviceProviders` are URLs; nil means the default SP. The deprecated forms add a signed
    /// requestor id (and on tvOS a secret and public key).
    case setRequestor(requestorID: String, serviceProviders: [String]?, signedRequestorID: String? = nil, secret: String? = nil, publicKey: String? = nil)
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

    public var name: String {
        switch self {
        case .initialize: return "init"
        case .setOptions: return "setOptions"
        case .setRequestor: return "setRequestor"
        case .checkAuthentication: return "checkAuthentication"
        case .getAuthentication: return "getAuthentication"
        case .setSelectedProvider: return "setSelectedProvider"
        case .handleExternalURL: return "handleExternalURL"
        case .getSelectedProvider: return "getSelectedProvider"
        case .checkAuthorization: return "checkAuthorization"
        case .getAuthorization: return "getAuthorization"
        case .checkPreauthorizedResources: return "checkPreauthorizedResources"
        case .getMetadata: return "getMetadata"
        case .logout: return "logout"
        case .getAuthenticationToken: return "getAuthenticationToken"
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

extension Call: CustomStringConvertible {
    /// The canonical text of SCENARIO-FORMAT.md, labels Swift style.
    public var description: String {
        func s(_ x: String) -> String { Value.quote(x) }
        var args: [String] = []
        switch self {
        case .initialize(let st): if let st { args = ["softwareStatement: " + s(st)] }
        case .setOptions(let entries): args = [Value.dict(entries).description]
        case .setRequestor(let id, let sps, let signed, let secret, let key):
            args = [s(id)]
            if let signed { args.append("signedRequestorID: " + s(signed)) }
            if let sps { args.append("serviceProviders: " + Value.list(sps.map(Value.string)).description) }
            if let secret { args.append("secret: " + s(secret)) }
            if let key { args.append("publicKey: " + s(key)) }
        case .checkAuthentication, .getSelectedProvider, .logout, .getAuthenticationToken: break
        case .getAuthentication(let force, let data, let filter):
            if let filter { args.append("filter: " + filter.description) }
            if force || data != nil { args.append("forceAuthn: " + (force ? "true" : "false")) }
            if let data { args.append("withData: " + data.description) }
        case .setSelectedProvider(let id): args = [id.map(Value.key) ?? "nil"]
        case .handleExternalURL(let url): args = [s(url)]
        case .checkAuthorization(let r, let data), .getAuthorization(let r, let data):
            args = [s(r)] + (data.map { ["withData: " + $0.description] } ?? [])
        case .checkPreauthorizedResources(let rs, let cache):
            args = [Value.list(rs.map(Value.string)).description] + (cache ? [] : ["cache: false"])
        case .getMetadata(let v): args = [v.description]
        }
        return name + "(" + args.joined(separator: ", ") + ")"
    }
}
