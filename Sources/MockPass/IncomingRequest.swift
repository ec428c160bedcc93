import PassModel

/// A request that reached a known host, with what every handler reads from it.
struct IncomingRequest: Sendable {
    var request: HTTPRequest
    /// Relative to the host's base URL.
    var path: String
    /// What the host serves at `path`, recognised once (`Endpoint`).
    let endpoint: Endpoint
    var parameters: [(String, String)]
    var cookies: Cookies
    /// Filled by `RequestPreparer` (see `PreparedXML`).
    var xml = PreparedXML()

    /// `query`: the URL's query fields, from the split the host was found with (not parsed again).
    /// `parameters` is what `HTTPRequest.parameters` gives: the query, then a urlencoded body's fields.
    /// `documents`: whether to parse the XML and JSON the endpoint reads (`PreparedXML`).
    init(
        _ request: HTTPRequest, host: LoggedRequest.Host, path: String, query: [(String, String)],
        documents: Bool = false
    ) {
        // The parts are made as locals and the XML prepared from them, so that no copy of the
        // whole request is made to read it while it is being written (two copies per request).
        let endpoint = Endpoint(host: host, method: request.method, path: path)
        var parameters = query
        if let type = request.headers.first(lowercased: "content-type"), IncomingRequest.isForm(type) {
            parameters += FormCoding.decode(bytes: request.body)
        }
        if documents { xml = PreparedXML(endpoint: endpoint, parameters: parameters, body: request.body) }
        self.request = request
        self.path = path
        self.endpoint = endpoint
        self.parameters = parameters
        cookies = Cookies(request.headers)
    }

    /// Whether a `Content-Type` names a urlencoded form (its lowercase starts with the type). An
    /// ASCII value is compared by bytes, ignoring ASCII case, without a lowercased copy; any other
    /// goes through `lowercased()` (a non-ASCII character may lowercase to ASCII).
    static func isForm(_ contentType: String) -> Bool {
        let ascii = contentType.utf8.withContiguousStorageIfAvailable { type -> Bool? in
            guard !type.contains(where: { $0 >= 0x80 }) else { return nil }
            let form: StaticString = "application/x-www-form-urlencoded"
            let f = UnsafeBufferPointer(start: form.utf8Start, count: form.utf8CodeUnitCount)
            return type.count >= f.count
                && type.prefix(f.count).elementsEqual(f) { a, b in
                    (a >= UInt8(ascii: "A") && a <= UInt8(ascii: "Z") ? a | 0x20 : a) == b
                }
        }
        if let ascii, let answer = ascii { return answer }
        return contentType.lowercased().hasPrefix("application/x-www-form-urlencoded")
    }

    var method: String { request.method }

    func parameter(_ name: String) -> String? { parameters.first { $0.0 == name }?.1 }

    /// A parameter that must be present and non-empty.
    func required(_ name: String) throws(HandlerFailure) -> String {
        guard let v = parameter(name), !v.isEmpty else { throw .badRequest("missing parameter \(name)") }
        return v
    }

    func expect(_ method: String) throws(HandlerFailure) {
        guard request.method == method else { throw .methodNotAllowed(method) }
    }
}
