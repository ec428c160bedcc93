import PassModel

/// Who may drive the admin endpoint, and how parameters reach it. A web page the user visits can
/// send requests to loopback ports (a form post, or `fetch` with a text body) and can point a name it
/// controls at 127.0.0.1 (DNS rebinding); so every request must carry the token as a header (which a
/// page cannot add without a CORS preflight the endpoint never grants), name the endpoint's own
/// address in `Host`, come from no foreign `Origin`, and put its parameters in a JSON body.
struct AdminGate: Sendable {
    enum AdminCheck {
        /// Through the gate, with the JSON body's fields.
        case pass([String: String])
        case refuse(HTTPResponse)
    }

    private let token: [UInt8]
    /// Lowercased `host:port` values the `Host` header may take.
    let allowedHosts: [String]

    /// The only query parameters accepted, by path: paging the log is a GET with no body.
    static let queryParameters: [String: Set<String>] = [
        AdminRoute.log.path: ["after", "limit"], AdminRoute.lint.path: ["format"],
    ]

    init(token: String, port: Int, ownHosts: [String]) {
        self.token = Array(token.utf8)
        var hosts: [String] = []
        for h in ["127.0.0.1", "localhost", "[::1]"] + ownHosts where !PublicHost.isWildcard(h) {
            let value = "\(h.lowercased()):\(port)"
            if !hosts.contains(value) { hosts.append(value) }
        }
        allowedHosts = hosts
    }

    /// The request's JSON parameters, or the refusal to send instead.
    func check(_ request: HTTPRequest) -> AdminCheck {
        let hosts = request.headers.all("Host")
        guard hosts.count == 1, let host = hosts.first, allowedHosts.contains(host.lowercased()) else {
            let given = hosts.isEmpty ? "no Host header" : "Host \(hosts.joined(separator: ", "))"
            return .refuse(
                AdminGate.refusal(
                    403, "\(given) is not this admin endpoint's address (\(allowedHosts.joined(separator: ", ")))"))
        }
        for origin in request.headers.all("Origin") {
            guard origin.lowercased().hasPrefix("http://"),
                allowedHosts.contains(String(origin.lowercased().dropFirst(7)))
            else {
                return .refuse(AdminGate.refusal(403, "Origin \(origin) is not this admin endpoint"))
            }
        }
        guard authorized(request.headers.all("Authorization")) else {
            var refusal = AdminGate.refusal(
                401,
                "the admin endpoint needs the header Authorization: Bearer TOKEN "
                    + "(the admin-token line passim serve printed, or its --admin-token)")
            refusal.headers.add("WWW-Authenticate", #"Bearer realm="passim admin""#)
            return .refuse(refusal)
        }
        let url = URLParts(request.url)
        if let query = url?.query, !query.isEmpty {
            let allowed = request.method == "GET" ? AdminGate.queryParameters[url?.path ?? ""] ?? [] : []
            if let name = query.map(\.0).first(where: { !allowed.contains($0) }) {
                return .refuse(
                    AdminGate.refusal(
                        400,
                        "query parameter \(name): admin parameters come in a JSON body "
                            + "(Content-Type: application/json)"))
            }
        }
        guard request.method == "POST" else {
            if !request.body.isEmpty {
                return .refuse(AdminGate.refusal(400, "a \(request.method) request takes no body"))
            }
            return .pass([:])
        }
        return AdminGate.parameters(request)
    }

    /// A POST's body: a JSON object of strings and integers, nothing nested.
    static func parameters(_ request: HTTPRequest) -> AdminCheck {
        let type = request.headers["Content-Type"] ?? ""
        let mediaType = type.split(separator: ";").first.map { $0.trimmingSpaces.lowercased() } ?? ""
        guard mediaType == "application/json" else {
            return .refuse(
                refusal(
                    415,
                    "admin requests take a JSON body with Content-Type: application/json, "
                        + "not \(type.isEmpty ? "no Content-Type" : type)"))
        }
        let value: Value
        do {
            value = try Value(jsonText: request.bodyText, maxDepth: 1)
        } catch {
            return .refuse(refusal(400, "the body is not a flat JSON object: \(error.message)"))
        }
        guard case .dict(let entries) = value else {
            return .refuse(refusal(400, "the body must be a JSON object, e.g. {\"advance\":\"30s\"}"))
        }
        var parameters: [String: String] = [:]
        for entry in entries {
            switch entry.value {
            case .string(let s): parameters[entry.key] = s
            case .int(let i): parameters[entry.key] = String(i)
            default: return .refuse(refusal(400, "\(entry.key) must be a string or an integer"))
            }
        }
        return .pass(parameters)
    }

    static func refusal(_ status: Int, _ message: String) -> HTTPResponse {
        let reason =
            [400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 415: "Unsupported Media Type"][status] ?? ""
        return HTTPResponse(status: status, contentType: ServerCore.text, text: "\(status) \(reason): \(message)\n")
    }

    /// Compares every byte whatever the first difference, so the time taken says nothing about the token.
    private func authorized(_ values: [String]) -> Bool {
        guard values.count == 1, let value = values.first, value.lowercased().hasPrefix("bearer ") else { return false }
        let given = Array(value.utf8.dropFirst(7))
        var difference: UInt8 = 0
        for i in 0..<token.count {
            difference |= token[i] ^ (i < given.count ? given[i] : 0)
        }
        return difference == 0 && given.count == token.count && !token.isEmpty
    }
}

extension Substring {
    var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
