import PassModel

/// One request that reached a host the mock serves, as scenarios and tests inspect it.
public struct LoggedRequest: Hashable, Sendable {
    public enum Host: Hashable, Sendable {
        /// An SP, by name.
        case sp(String)
        /// An MVPD's identity provider, by MVPD id.
        case idp(String)
    }

    /// A query or form field.
    public struct Parameter: Hashable, Sendable {
        public var name: String
        public var value: String
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public var host: Host
    public var time: Instant
    public var method: String
    /// Relative to the host's base URL, without query, e.g. `/config/REQ1`.
    public var path: String
    /// Query parameters, then urlencoded form fields, in order.
    public var parameters: [Parameter]
    public var headers: HTTPHeaders
    /// What answered in the mock's place: an injected failure (`net … fail`, admin `"fail"`), e.g.
    /// `injected failure 500`; nil for a request the mock answered. A journal of what was sent keeps
    /// every request, as WireMock's and MockServer's do.
    public var fault: String?
    /// The answer's HTTP status, set once the mock has answered (nil for an entry read from a log
    /// that did not record it).
    public var status: Int?
    /// The enhanced error code (`code`) and `action` of a JSON refusal, when its body carried them
    /// (REST v2 errors, rest-api-v2.md 1.6); nil otherwise.
    public var errorCode: String?
    public var errorAction: String?
    /// The resources a REST v2 decisions request names in its JSON body (`resources`, rest-api-v2.md
    /// 1.3), in order: where v2 puts what the SDK's authorize and preauthorize sent as `resource_id`.
    /// Empty for any other request (no other JSON body is journaled).
    public var resources: [String]
    /// The resources a REST v2 decisions answer refused, in its order: a client that asks again for
    /// another resource after a deny changed the call (the lint's rules read it). Empty otherwise.
    public var deniedResources: [String] = []
    /// The MVPDs of the profiles a REST v2 profiles answer (a 200 of `profiles`, `profiles/{mvpd}`,
    /// `profiles/code/{code}`) held, in order: an empty list is a poll that found no profile yet, a
    /// non-empty one the poll that ends polling. nil for every other answer.
    public var profiles: [String]?
    /// A 429's or a 503's `Retry-After`, in seconds (how long the client must wait); nil without one.
    public var retryAfter: Int?

    public init(
        host: Host, time: Instant, method: String, path: String, parameters: [Parameter],
        headers: HTTPHeaders, fault: String? = nil, status: Int? = nil, errorCode: String? = nil,
        errorAction: String? = nil, resources: [String] = []
    ) {
        self.fault = fault
        self.host = host
        self.time = time
        self.method = method
        self.path = path
        self.parameters = parameters
        self.headers = headers
        self.status = status
        self.errorCode = errorCode
        self.errorAction = errorAction
        self.resources = resources
    }

    /// Records the answer: its status and, for a JSON refusal of at most 64 KiB, the top-level
    /// `code` and `action` (an enhanced error code's), each cut to 128 bytes. A REST v2 decision
    /// answer is a 200 whose refusals are inside (rest-api-v2.md 1.3, `decisions[].error`): when
    /// every decision is refused, the first one's code and action are the answer's, so the journal
    /// shows the call refused as an HTTP refusal would be.
    public mutating func record(_ response: HTTPResponse) {
        status = response.status
        // Only the statuses that ask a client to wait carry one (RFC 9110, 10.2.3); no other answer's
        // headers are searched.
        if response.status == 429 || response.status == 503 {
            retryAfter = response.headers["Retry-After"].flatMap { Int($0.trimmingSpaces) }.flatMap {
                $0 >= 0 ? $0 : nil
            }
        }
        // Only a decisions or a profiles answer is read inside a 2xx: no other success is parsed (the
        // log is written under the server's lock).
        let success = (200..<300).contains(response.status)
        // `literalRange`: the paths are ASCII, and Foundation's search bridged each one per request.
        let decisions = success && path.literalRange(of: "/decisions/") != nil
        let profilesAnswer = success && path.hasPrefix(V2Route.prefix) && path.literalRange(of: "/profiles") != nil
        guard response.status >= 400 || decisions || profilesAnswer, response.body.count <= 65_536,
            response.body.first == UInt8(ascii: "{"),
            let value = try? Value(jsonText: response.bodyText, maxDepth: 5)
        else { return }
        if profilesAnswer {
            guard case .dict(let found)? = value["profiles"] else { return }
            profiles = found.map { LoggedRequest.truncated($0.key, limit: 128) }
            return
        }
        var refusal = value
        if decisions {
            guard let all = value["decisions"]?.listValue, let first = all.first else { return }
            deniedResources = all.compactMap { d in
                d["authorized"]?.boolValue == false
                    ? d["resource"]?.stringValue.map { LoggedRequest.truncated($0, limit: 128) } : nil
            }
            guard all.allSatisfy({ $0["authorized"]?.boolValue == false }), let error = first["error"] else { return }
            refusal = error
        }
        errorCode = refusal["code"]?.stringValue.map { LoggedRequest.truncated($0, limit: 128) }
        errorAction = refusal["action"]?.stringValue.map { LoggedRequest.truncated($0, limit: 128) }
    }

    /// What the entry costs a log bounded by bytes: its text, plus a fixed overhead for the entry
    /// and for each field (an estimate of the memory it holds, not an exact count).
    public var size: Int {
        var total = 64 + method.utf8.count + path.utf8.count + (fault?.utf8.count ?? 0)
        // Each list on its own: a concatenated copy of them for every request logged is not needed.
        for r in resources { total += 32 + r.utf8.count }
        for r in deniedResources { total += 32 + r.utf8.count }
        for r in profiles ?? [] { total += 32 + r.utf8.count }
        for p in parameters { total += 32 + p.name.utf8.count + p.value.utf8.count }
        for h in headers.fields { total += 32 + h.name.utf8.count + h.value.utf8.count }
        return total
    }

    /// The JSON object a REST v2 request's `AP-TempPass-Identity` header carries (Base64 of it,
    /// rest-api-v2.md 1.4): where v2 puts the data the SDK sent as a promotional TempPass's
    /// `generic_data`. nil without such a header.
    public var tempPassIdentity: Value? { jsonObject(header: "AP-TempPass-Identity") }

    /// The JSON object a header carries as Base64; nil without the header or when it is not one.
    public func jsonObject(header name: String) -> Value? {
        headers.first(lowercased: name.lowercased()).flatMap { StrictBase64.jsonObject($0.trimmingSpaces) }
    }

    /// The `resources` strings of a decisions request's JSON body, each as the log keeps a value; none
    /// when the body is not such JSON (the handler refuses it) or is larger than 64 KiB.
    static func resources(ofDecisionsBody body: [UInt8], limit: Int?) -> [String] {
        guard body.count <= 65_536,
            let list = (try? Value(jsonText: String(decoding: body, as: UTF8.self)))?["resources"]?.listValue
        else { return [] }
        return list.compactMap { $0.stringValue.map { truncated($0, limit: limit) } }
    }

    /// `value` as the log keeps it: past `limit` bytes, cut at a character boundary and marked
    /// `…[truncated N bytes]`, N being the bytes left out.
    public static func truncated(_ value: String, limit: Int?) -> String {
        guard let limit, value.utf8.count > limit else { return value }
        let utf8 = value.utf8
        var end = utf8.index(utf8.startIndex, offsetBy: limit)
        // Back to the start of a scalar: UTF-8 continuation bytes are 10xxxxxx.
        while end > utf8.startIndex, utf8[end] & 0xC0 == 0x80 { end = utf8.index(before: end) }
        let kept = value[..<end]
        return kept + "…[truncated \(value.utf8.count - kept.utf8.count) bytes]"
    }

    /// The device the request came from, as the throttle keys it (`HTTPHeaders.throttleKey`):
    /// `ip ADDRESS` from `X-Forwarded-For`, else `device ID` from `AP-Device-Identifier`, else
    /// `anonymous`. What `passim lint` counts per device, so the lint and the throttle agree.
    public var device: String { headers.throttleKey }

    /// The first parameter with this name.
    public func parameter(_ name: String) -> String? {
        parameters.first { $0.name == name }?.value
    }
}
