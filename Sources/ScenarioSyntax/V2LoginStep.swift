import PassModel

/// `user authenticate $CODE as "NAME" ["PASSWORD"]` (SCENARIO-FORMAT.md, Steps): the scenario's user
/// completes a REST API v2 login in the device's browser. `$CODE` is the session code an earlier
/// `http POST SP /api/v2/REQUESTOR/sessions…` step bound with `with code=$CODE`; the parser resolves
/// which SP and programmer that session belongs to, so the runtime opens
/// `{SP origin}/api/v2/authenticate/{REQUESTOR}/{code}` (rest-api-v2.md 1.3) without guessing.
public struct V2LoginStep: Hashable, Sendable {
    /// The `$name` the session code is bound to (without the `$`).
    public var code: String
    /// The SP whose host created the session (the `http` step's SP).
    public var sp: String
    /// The programmer of the session: the `{serviceProvider}` segment of its path.
    public var requestor: String
    /// A declared user of the world.
    public var user: String
    /// nil: the user's own password, as the world declares it. Another one types a wrong password.
    public var password: String?

    public init(code: String, sp: String, requestor: String, user: String, password: String? = nil) {
        self.code = code
        self.sp = sp
        self.requestor = requestor
        self.user = user
        self.password = password
    }

    /// The step as written (the SP and programmer are implied by the code's session, not written).
    public var text: String {
        "user authenticate $\(code) as \(Value.quote(user))" + (password.map { " " + Value.quote($0) } ?? "")
    }

    /// The SP-relative path of the user agent's way to the MVPD for `code`, as the session answer's
    /// `url` writes it (`/api/v2/authenticate/{serviceProvider}/{code}`), each segment escaped.
    public func path(code value: String) -> String {
        V2Route.authenticate(serviceProvider: requestor, code: value).path
    }

    /// The programmer of a REST API v2 session-creating request: `POST /api/v2/{REQ}/sessions` or its
    /// resume `POST /api/v2/{REQ}/sessions/{code}` (not the partner `sessions/sso/…`). nil for any
    /// other method or path. The query, if any, is ignored.
    public static func sessionRequestor(method: String, path: String) -> String? {
        guard method == "POST" else { return nil }
        let bare =
            path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? path
        let parts = bare.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 5 || parts.count == 6, parts[0].isEmpty, parts[1] == "api", parts[2] == "v2",
            !parts[3].isEmpty, parts[4] == "sessions"
        else { return nil }
        if parts.count == 6, parts[5].isEmpty || parts[5] == "sso" { return nil }
        return parts[3]
    }
}
