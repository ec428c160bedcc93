import PassModel
import PassXML

/// A request with all the work that reads only the request done: the URL split and matched to a
/// host, form fields and cookies decoded, the entry for the log built (values truncated), and every
/// XML document it carries parsed (base64 SAML messages, tokens, MRSS resources). Made by
/// `RequestPreparer` without touching the mock's state, so a server can make it outside its lock
/// and off its event loop; `MockPass.handle(_:at:)` then only does the state transitions.
public struct PreparedRequest: Sendable {
    let request: HTTPRequest
    /// nil when no host of the world serves the URL.
    let incoming: IncomingRequest?
    let host: LoggedRequest.Host?
    let logged: LoggedRequest?

    /// The host the request is for, if the world has it.
    public var target: LoggedRequest.Host? { host }
}

/// What `prepare` needs of a mock: its host table and its log limit. A value, cheap to copy out
/// from under a lock.
public struct RequestPreparer: Sendable {
    let hosts: HostTable
    let logValueBytes: Int?

    /// Which host serves this URL (`MockPass.host(for:)`).
    public func host(for url: String) -> LoggedRequest.Host? { target(of: url)?.host }

    /// The URL split and matched to the host that serves it: what `prepare` starts with. A caller
    /// that asked for the host first hands it back to `prepare(_:target:)`, so the URL of a request
    /// is split and matched once (the simulation asks for every request's host before sending it).
    public func target(of url: String) -> Target? {
        guard let parts = URLParts(url), let (host, path) = hosts.match(parts) else { return nil }
        return Target(url: url, parts: parts, host: host, path: path)
    }

    /// Where a URL goes, as `target(of:)` found it.
    public struct Target: Sendable {
        /// The URL it was found for: `prepare(_:target:)` uses it only for a request to that URL.
        public let url: String
        let parts: URLParts
        public let host: LoggedRequest.Host
        let path: String
    }

    /// Only the log entry (no XML or JSON parsed): what a request answered by an injected failure needs.
    public func prepareForJournal(_ request: HTTPRequest) -> PreparedRequest {
        prepare(request, documents: false)
    }

    public func prepare(_ request: HTTPRequest) -> PreparedRequest { prepare(request, documents: true) }

    /// `prepare(request)`, from the target `target(of:)` found for its URL (any other is not used).
    public func prepare(_ request: HTTPRequest, target: Target?) -> PreparedRequest {
        prepare(request, documents: true, target: target)
    }

    private func prepare(_ request: HTTPRequest, documents: Bool, target known: Target? = nil) -> PreparedRequest {
        guard let target = known?.url == request.url ? known : target(of: request.url) else {
            return PreparedRequest(request: request, incoming: nil, host: nil, logged: nil)
        }
        let (host, path) = (target.host, target.path)
        let incoming = IncomingRequest(
            request, host: host, path: path, query: target.parts.query, documents: documents)
        let limit = logValueBytes
        var headers = request.headers
        if let limit {
            // Written only when cut: the hot path's headers stay shared with the request, not copied.
            for i in headers.fields.indices where headers.fields[i].value.utf8.count > limit {
                headers.fields[i].value = LoggedRequest.truncated(headers.fields[i].value, limit: limit)
            }
        }
        var resources: [String] = []
        switch incoming.endpoint {
        case .restV2(.authorize?), .restV2(.preauthorize?):
            resources = LoggedRequest.resources(ofDecisionsBody: request.body, limit: limit)
        default: break
        }
        // The time is the handling's, set by `MockPass.handle`.
        let logged = LoggedRequest(
            host: host, time: .simulationStart, method: request.method, path: path,
            parameters: incoming.parameters.map {
                LoggedRequest.Parameter(name: $0.0, value: LoggedRequest.truncated($0.1, limit: limit))
            },
            headers: headers, resources: resources)
        return PreparedRequest(request: request, incoming: incoming, host: host, logged: logged)
    }
}

/// The XML a request carries, parsed by what its endpoint reads. A handler that finds a document
/// not prepared (nil) parses it itself, so preparing is an optimisation, never a change of answer.
struct PreparedXML: Sendable {
    var samlResponse: Result<SAMLResponse, HandlerFailure>?
    var logoutResponse: Result<LogoutResponse, HandlerFailure>?
    var authnRequest: Result<AuthnRequest, HandlerFailure>?
    var logoutRequest: Result<LogoutRequest, HandlerFailure>?
    var authnToken: Result<AuthnToken, HandlerFailure>?
    var authzToken: Result<AuthzToken, HandlerFailure>?
    /// One per `resource_id` parameter, in order.
    var resourceNames: [Result<String, HandlerFailure>]?
    /// The JSON body of the endpoints that read one (`IncomingRequest.jsonObject`): parsed here, off
    /// the server's lock, so a large body delays only its own answer.
    var jsonBody: Result<Value, HandlerFailure>?

    init() {}

    /// By the request's endpoint (`IncomingRequest.endpoint`, which its host chose), from its
    /// parameters (`IncomingRequest.parameters`) and body.
    init(endpoint: Endpoint, parameters: [(String, String)], body: [UInt8]) {
        func present(_ name: String) -> String? {
            parameters.first { $0.0 == name }.flatMap { $0.1.isEmpty ? nil : $0.1 }
        }
        // A typed run's handle is no XML: the handler looks it up (`MockContext.typedMessage`), or,
        // in a mock not in typed mode, decodes it itself and refuses it as malformed.
        func saml(_ name: String) -> String? { present(name).flatMap { TypedSAMLStore.isHandle($0) ? nil : $0 } }
        switch endpoint {
        case .service(.assertionConsumer, _), .route(.tokenExchange, _):
            samlResponse = saml("SAMLResponse").map(PreparedXML.samlResponse)
        case .service(.logoutResponse, _):
            logoutResponse = saml("SAMLResponse").map(PreparedXML.logoutResponse)
        case .route(.authorizeDevice, _), .service(.webAuthorize, _), .route(.preauthorize, _):
            authnToken = present("authentication_token").map(PreparedXML.authnToken)
            resourceNames = parameters.filter { $0.0 == "resource_id" }.map { PreparedXML.resourceName($0.1) }
        case .route(.deviceShortAuthorize, _), .service(.webShortAuthorize, _):
            authzToken = present("authz_token").map(PreparedXML.authzToken)
        case .route(.clientRegister, _), .service(.individualisation, _):
            jsonBody = PreparedXML.jsonObject(String(decoding: body, as: UTF8.self))
        case .idp(.sso), .idp(.login): authnRequest = saml("SAMLRequest").map(PreparedXML.authnRequest)
        case .idp(.slo): logoutRequest = saml("SAMLRequest").map(PreparedXML.logoutRequest)
        case .route, .service, .restV2, .configFamily, .idp, .unknown: break
        }
    }

    static func samlResponse(_ encoded: String) -> Result<SAMLResponse, HandlerFailure> {
        Result { () throws(HandlerFailure) in
            try decodeSAML(encoded, "SAMLResponse") { (b) throws(PassXMLError) in try SAML.parseResponse(b) }
        }
    }

    static func logoutResponse(_ encoded: String) -> Result<LogoutResponse, HandlerFailure> {
        Result { () throws(HandlerFailure) in
            try decodeSAML(encoded, "LogoutResponse") { (b) throws(PassXMLError) in try SAML.parseLogoutResponse(b) }
        }
    }

    static func authnRequest(_ encoded: String) -> Result<AuthnRequest, HandlerFailure> {
        Result { () throws(HandlerFailure) in
            try decodeSAML(encoded, "SAMLRequest") { (b) throws(PassXMLError) in try SAML.parseAuthnRequest(b) }
        }
    }

    static func logoutRequest(_ encoded: String) -> Result<LogoutRequest, HandlerFailure> {
        Result { () throws(HandlerFailure) in
            try decodeSAML(encoded, "LogoutRequest") { (b) throws(PassXMLError) in try SAML.parseLogoutRequest(b) }
        }
    }

    static func authnToken(_ text: String) -> Result<AuthnToken, HandlerFailure> {
        Result { () throws(HandlerFailure) in
            do throws(PassXMLError) {
                return try AuthnTokenXML.parse(Array(text.utf8))
            } catch {
                throw .badRequest("malformed authentication_token: \(error.message)")
            }
        }
    }

    static func authzToken(_ text: String) -> Result<AuthzToken, HandlerFailure> {
        Result { () throws(HandlerFailure) in
            do throws(PassXMLError) {
                return try AuthzTokenXML.parse(Array(text.utf8))
            } catch {
                throw .badRequest("malformed authz_token: \(error.message)")
            }
        }
    }

    static func jsonObject(_ text: String) -> Result<Value, HandlerFailure> {
        Result { () throws(HandlerFailure) in
            let value: Value
            do throws(JSONError) {
                value = try Value(jsonText: text)
            } catch {
                throw .json(400, "malformed JSON body: \(error.message)")
            }
            guard case .dict = value else { throw .json(400, "the JSON body is not an object") }
            return value
        }
    }

    static func resourceName(_ resource: String) -> Result<String, HandlerFailure> {
        Result { () throws(HandlerFailure) in try MockContext.resourceName(resource) }
    }

    /// Decodes a posted SAML message (base64 of XML); any failure is a 400 with PassXML's reason.
    static func decodeSAML<T>(
        _ base64: String, _ what: String,
        _ parse: ([UInt8]) throws(PassXMLError) -> T
    ) throws(HandlerFailure) -> T {
        do {
            return try parse(try SAML.decodeFromPost(base64))
        } catch {
            throw malformed(what, error.message)
        }
    }

    /// The refusal of a SAML form field that holds no message: bytes that do not decode, or a typed
    /// run's handle the mock does not hold.
    static func malformed(_ what: String, _ reason: String) -> HandlerFailure {
        .badRequest("malformed \(what): \(reason)")
    }
}

/// The handlers' way to the request's XML: the prepared result, else parsed now.
extension IncomingRequest {
    func samlResponse(_ encoded: String) throws(HandlerFailure) -> SAMLResponse {
        try (xml.samlResponse ?? PreparedXML.samlResponse(encoded)).get()
    }

    func logoutResponse(_ encoded: String) throws(HandlerFailure) -> LogoutResponse {
        try (xml.logoutResponse ?? PreparedXML.logoutResponse(encoded)).get()
    }

    func authnRequest(_ encoded: String) throws(HandlerFailure) -> AuthnRequest {
        try (xml.authnRequest ?? PreparedXML.authnRequest(encoded)).get()
    }

    func logoutRequest(_ encoded: String) throws(HandlerFailure) -> LogoutRequest {
        try (xml.logoutRequest ?? PreparedXML.logoutRequest(encoded)).get()
    }

    func authnToken(_ text: String) throws(HandlerFailure) -> AuthnToken {
        try (xml.authnToken ?? PreparedXML.authnToken(text)).get()
    }

    func authzToken(_ text: String) throws(HandlerFailure) -> AuthzToken {
        try (xml.authzToken ?? PreparedXML.authzToken(text)).get()
    }

    /// The names of the `resource_id` parameters, in order (`resources` are their values).
    func resourceNames(_ resources: [String]) throws(HandlerFailure) -> [String] {
        let results = xml.resourceNames ?? resources.map(PreparedXML.resourceName)
        var names: [String] = []
        for (resource, result) in zip(resources, results) {
            guard !resource.isEmpty else { throw .badRequest("empty resource_id") }
            names.append(try result.get())
        }
        return names
    }
}
