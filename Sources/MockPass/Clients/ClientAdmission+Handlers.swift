import Crypto
import PassModel
import PassXML

/// Root services of an SP host (real-clients.md "yt-dlp's flow"; facts §1 "Registration"): Dynamic
/// Client Registration and device individualisation, plus the gate that makes a requestor declared
/// with a software statement or a key pair accept only registered or signed clients.
extension ClientAdmission {
    /// The answer header a device sends back on later requests (with `Ap_21: deviceId`).
    static let fingerprintHeader = "pass_sfp"

    /// `POST /o/client/register`, JSON `{"software_statement": S, "redirect_uri"?: U}` → 201 with every
    /// field of Adobe's "Retrieve client credentials" page: `client_id`, `client_secret`,
    /// `client_id_issued_at` (s), `redirect_uris` (U, when given), `grant_types`, `scopes`. Refusals are
    /// the page's (400 `{"error": CODE}`, nothing stored): a body that is not a JSON object, a statement
    /// missing, empty or not a string → `invalid_request`; a statement no requestor of the world
    /// declares → `invalid_software_statement` (so unknown clients cannot fill the store); a
    /// `redirect_uri` that is not a string, empty, over `mock-value-bytes` or not an absolute URI →
    /// `invalid_redirect_uri`. A `null` redirect_uri is none; other members are ignored (RFC 7591).
    /// The DCR pages list `X-Device-Info` among a request's headers; clients in use (yt-dlp, the JS
    /// SDK, the engine) send none, so a missing one passes, and one that is not what REST v2 reads
    /// there (Base64 of a JSON object with its required keys) is `invalid_request`.
    static func checkDeviceInfo(_ r: IncomingRequest) throws(HandlerFailure) {
        guard r.request.headers.first(lowercased: "x-device-info") != nil else { return }
        do throws(V2Failure) {
            _ = try V2Device.deviceInfo(r.request.headers)
        } catch {
            throw .dcr(.invalidRequest, error.explanation)
        }
    }

    /// Draws only from `context.registrationRandom`.
    mutating func registerClient(_ r: IncomingRequest, in context: inout MockContext, at now: Instant)
        throws(HandlerFailure) -> HTTPResponse
    {
        try Self.checkDeviceInfo(r)
        let body: Value
        do throws(HandlerFailure) {
            body = try r.jsonObject()
        } catch {
            throw .dcr(.invalidRequest, error.message)
        }
        let statement: String
        switch body["software_statement"] {
        case nil, .null?: throw .dcr(.invalidRequest, "missing software_statement")
        case .string(let s)?:
            guard !s.isEmpty else { throw .dcr(.invalidRequest, "software_statement is empty") }
            statement = s
        case _?: throw .dcr(.invalidRequest, "software_statement is not a string")
        }
        guard context.world.requestors.contains(where: { $0.softwareStatement == statement }) else {
            throw .dcr(.invalidSoftwareStatement, "no requestor is registered with this software statement")
        }
        var redirectURIs: [Value] = []
        switch body["redirect_uri"] {
        case nil, .null?: break
        case .string(let uri)?:
            if let problem = DCRWire.redirectURIProblem(uri) { throw .dcr(.invalidRedirectURI, problem) }
            redirectURIs = [.string(uri)]
        case _?: throw .dcr(.invalidRedirectURI, "redirect_uri is not a string")
        }
        let clientID = context.registrationRandom.hex(32)
        let secret = context.registrationRandom.hex(48)
        registeredClients.set(
            clientID, RegisteredClient(secret: secret, softwareStatement: statement),
            until: now + context.limits.registeredClientTTL)
        let answer = Value.dict([
            Value.Entry("client_id", .string(clientID)),
            Value.Entry("client_secret", .string(secret)),
            Value.Entry("client_id_issued_at", .int(Int(now.milliseconds / 1000))),
            Value.Entry("redirect_uris", .list(redirectURIs)),
            Value.Entry("grant_types", .list([.string(DCRWire.grantType)])),
            Value.Entry("scopes", .list(DCRWire.scopes.map(Value.string))),
        ])
        return HTTPResponse(status: 201, contentType: Reply.json, text: answer.jsonText)
    }

    /// `POST /o/client/token`, form (or query) `grant_type=client_credentials`, `client_id`,
    /// `client_secret` → 201 with every field of Adobe's "Retrieve access token" page: `id` (derived
    /// from the token), `access_token`, `created_at` (ms), `expires_in` (s: the `token-ttl` of the first
    /// requestor declaring the client's statement), `token_type`. Refusals are the page's (400
    /// `{"error": CODE}`, nothing stored): a parameter missing, empty or repeated, or an
    /// `Authorization: Basic` beside the form's secret → `invalid_request`; a grant type other than
    /// `client_credentials` and `refresh_token` → `unsupported_grant_type`; an unknown or expired
    /// client or a wrong secret → `invalid_client`; `refresh_token`, which no client of the mock
    /// holds → `unauthorized_client`.
    mutating func issueAccessToken(_ r: IncomingRequest, in context: inout MockContext, at now: Instant)
        throws(HandlerFailure) -> HTTPResponse
    {
        try Self.checkDeviceInfo(r)
        func single(_ name: String) throws(HandlerFailure) -> String {
            let values = r.parameters.filter { $0.0 == name }
            guard values.count <= 1 else { throw .dcr(.invalidRequest, "parameter \(name) is repeated") }
            guard let v = values.first?.1, !v.isEmpty else { throw .dcr(.invalidRequest, "missing parameter \(name)") }
            return v
        }
        let grant = try single("grant_type")
        let clientID = try single("client_id")
        let secret = try single("client_secret")
        if let header = r.request.headers.first(lowercased: "authorization"), header.lowercased().hasPrefix("basic ") {
            throw .dcr(.invalidRequest, "the client authenticates twice (Authorization: Basic and client_secret)")
        }
        guard DCRWire.knownGrantTypes.contains(grant) else {
            throw .dcr(.unsupportedGrantType, "grant_type must be client_credentials")
        }
        guard let client = registeredClients.value(clientID, at: now), client.secret == secret else {
            throw .dcr(.invalidClient, "unknown client or wrong secret")
        }
        guard grant == DCRWire.grantType else {
            throw .dcr(.unauthorizedClient, "the client's grant_types hold only client_credentials")
        }
        let ttl =
            context.world.requestors.first { $0.softwareStatement == client.softwareStatement }?.tokenTTL ?? .hours(6)
        let token = context.registrationRandom.hex(64)
        accessTokens.set(
            token, AccessToken(softwareStatement: client.softwareStatement, expires: now + ttl),
            until: now + ttl)
        let answer = Value.dict([
            Value.Entry("id", .string(DCRWire.tokenID(token))),
            Value.Entry("access_token", .string(token)),
            Value.Entry("created_at", .int(Int(now.milliseconds))),
            Value.Entry("expires_in", .int(Int(ttl.value / 1000))),
            Value.Entry("token_type", .string("bearer")),
        ])
        return HTTPResponse(status: 201, contentType: Reply.json, text: answer.jsonText)
    }

    /// `POST /indiv/devices`, JSON `{"fingerprint": F}` → `{"deviceId": D}` and a `pass_sfp` header.
    /// Both derive from the fingerprint alone (SHA-256), so the mock keeps nothing and the same
    /// device always gets the same id; neither is checked on later requests.
    static func individualiseDevice(_ r: IncomingRequest) throws(HandlerFailure) -> HTTPResponse {
        let body = try r.jsonObject()
        guard let fingerprint = body["fingerprint"]?.stringValue, !fingerprint.isEmpty else {
            throw .json(400, "missing fingerprint")
        }
        let digest = SHA256.hash(data: Array(("indiv:" + fingerprint).utf8)).map { String($0, radix: 16).leftPadded(2) }
            .joined()
        let deviceID = String(digest.prefix(40))
        let answer = Value.dict([Value.Entry("deviceId", .string(deviceID))])
        return HTTPResponse(
            status: 200, contentType: Reply.json, text: answer.jsonText,
            headers: [(ClientAdmission.fingerprintHeader, String(digest.suffix(24)))])
    }

    // MARK: - The gate

    /// Refuses (401, nothing changed) a request that names a requestor declared with a software
    /// statement but carries no live Bearer token of a client registered with it, and a second-screen
    /// call (`/reggie/v1`, `/api/v1`) of a requestor declared with a key pair whose signature does not
    /// verify. Browser pages (the login and logout redirects) carry neither, so they pass.
    mutating func admit(_ r: IncomingRequest, in context: MockContext, at now: Instant) throws(HandlerFailure) {
        // DCR is how a client gets its token: it names no requestor and is never gated.
        guard !r.endpoint.isClientRegistration else { return }
        guard let requestorID = try ClientAdmission.requestorNamed(by: r),
            let requestor = context.world.requestor(requestorID)
        else {
            return
        }
        let browserPage = r.endpoint.isBrowserPage
        if let statement = requestor.softwareStatement, !browserPage, !r.endpoint.isWebOnly {
            try requireBearer(r, statement: statement, at: now)
        }
        if let key = requestor.key, !browserPage, ClientAdmission.isSecondScreenPath(r.path) {
            let window = context.limits.signatureWindow
            let signing = RequestSignature.Key(publicKey: key.publicKey, secret: signingKeys.key(for: key.secret))
            let signature = try RequestSignature.verify(
                r, requestorID: requestorID, key: signing, at: now, window: window)
            let nonceKey = key.publicKey + " " + signature.nonce
            guard nonces.value(nonceKey, at: now) == nil else {
                throw .unauthorized("nonce \(signature.nonce) was already used")
            }
            nonces.set(nonceKey, true, until: now + window + window)
        }
    }

    /// The token comes as `Authorization: Bearer T`, or as an `access_token` parameter, which is how
    /// EPlusTV's NESN client sends it to the regcode service (Fixtures/clients/replays), and how the
    /// engine sends it beside a signed `Authorization` header (docs/CONFORMANCE.md).
    private func requireBearer(_ r: IncomingRequest, statement: String, at now: Instant) throws(HandlerFailure) {
        let token: String
        let parameter = r.parameter("access_token").flatMap { $0.isEmpty ? nil : $0 }
        if let header = r.request.headers.first(lowercased: "authorization"),
            parameter == nil || ClientAdmission.isBearer(header)
        {
            let parts = header.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "bearer" else {
                throw .unauthorized("Authorization is not a Bearer access token")
            }
            token = String(parts[1])
        } else if let parameter {
            token = parameter
        } else {
            throw .unauthorized("missing Authorization: Bearer access token")
        }
        guard let access = accessTokens.value(token, at: now) else {
            throw .unauthorized("unknown or expired access token")
        }
        guard access.softwareStatement == statement else {
            throw .unauthorized("access token of a client registered for another requestor")
        }
    }

    static func isBearer(_ header: String) -> Bool { header.lowercased().hasPrefix("bearer ") }

    /// REST v1 and the regcode service: what a key pair's signature covers, and what answers REST errors.
    static func isSecondScreenPath(_ path: String) -> Bool {
        path.hasPrefix(RoutePrefix.registrationServiceV1) || path.hasPrefix(RoutePrefix.restV1)
    }

    /// The requestor a request is for: the path's (`/config/{r}`, `/reggie/v1/{r}/regcode`,
    /// `/api/v1/config/{r}`), else `requestor_id` or `requestor`, else its signature's. A request
    /// that names two different ones (the path and a parameter, two parameters, a parameter twice)
    /// is refused: the client gate checks this requestor and the route serves it, so they must be
    /// one (an open requestor's `requestor_id` on a signing requestor's path got 201 unsigned).
    static func requestorNamed(by r: IncomingRequest) throws(HandlerFailure) -> String? {
        var first: (id: String, source: String)?
        func name(_ id: String, _ source: String) throws(HandlerFailure) {
            guard let f = first else {
                first = (id, source)
                return
            }
            guard f.id == id else {
                throw .badRequest(
                    "the request names two requestors: \(Value.quote(f.id)) (\(f.source)) and "
                        + "\(Value.quote(id)) (\(source))")
            }
        }
        if let id = pathRequestor(r.path) { try name(id, "its path") }
        for (n, v) in r.parameters where !v.isEmpty && (n == "requestor_id" || n == "requestor") { try name(v, n) }
        // Last: the signature is checked against what the request names otherwise.
        return first?.id ?? signedRequestorID(r)
    }

    /// The requestor a path names, if it names one.
    static func pathRequestor(_ path: String) -> String? {
        // Every path that names one holds `config` or `regcode`: the others (most requests) are not split.
        guard path.containsBytes("config") || path.containsBytes("regcode") else { return nil }
        // Outer optionals: a bridged text (no contiguous bytes), a path that is not ASCII.
        if let ascii = path.utf8.withContiguousStorageIfAvailable(asciiPathRequestor), let requestor = ascii {
            return requestor
        }
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        if segments.count == 2, segments[0] == "config" { return String(segments[1]) }
        if segments.count == 4, segments[0] == "api", segments[1] == "v1", segments[2] == "config" {
            return String(segments[3])
        }
        if segments.count == 4, segments[0] == "reggie", segments[1] == "v1", segments[3] == "regcode" {
            return String(segments[2])
        }
        return nil
    }
}

extension ClientAdmission {
    /// `pathRequestor` of an ASCII path, over its bytes (where a byte is a character, so the
    /// segments are the same), without splitting the text; nil when the path is not ASCII, else
    /// what `pathRequestor` answers.
    private static func asciiPathRequestor(_ b: UnsafeBufferPointer<UInt8>) -> String?? {
        guard !b.contains(where: { $0 >= 0x80 }) else { return nil }
        // The first four non-empty segments, and how many there are (counted to five at most).
        var segments: [Range<Int>] = []
        segments.reserveCapacity(5)
        var i = 0
        while i < b.count, segments.count < 5 {
            while i < b.count, b[i] == UInt8(ascii: "/") { i += 1 }
            let start = i
            while i < b.count, b[i] != UInt8(ascii: "/") { i += 1 }
            if i > start { segments.append(start..<i) }
        }
        func segment(_ k: Int, is text: StaticString) -> Bool {
            let bytes = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
            return b[segments[k]].elementsEqual(bytes)
        }
        func string(_ k: Int) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: b[segments[k]]), as: UTF8.self)
        }
        if segments.count == 2, segment(0, is: "config") { return .some(string(1)) }
        if segments.count == 4, segment(0, is: "api"), segment(1, is: "v1"), segment(2, is: "config") {
            return .some(string(3))
        }
        if segments.count == 4, segment(0, is: "reggie"), segment(1, is: "v1"), segment(3, is: "regcode") {
            return .some(string(2))
        }
        return .some(nil)
    }

    /// The `requestor_id=` field of a signed `Authorization` header: Kodi's `checkauthn` names its
    /// requestor only there.
    static func signedRequestorID(_ r: IncomingRequest) -> String? {
        guard let header = r.request.headers.first(lowercased: "authorization"),
            let start = header.literalRange(of: "requestor_id=")
        else { return nil }
        let id = header[start.upperBound...].prefix { $0 != "," && $0 != " " }
        return id.isEmpty ? nil : String(id)
    }
}

extension IncomingRequest {
    /// The body as a JSON object (any `Content-Type`: clients label it differently), else 400.
    func jsonObject() throws(HandlerFailure) -> Value {
        try (xml.jsonBody ?? PreparedXML.jsonObject(request.bodyText)).get()
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
