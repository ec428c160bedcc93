import PassModel

/// One step of a scenario, in file order.
public enum Step: Hashable, Sendable {
    /// `> CALL` / `NAME> CALL`. `app` is nil without a prefix; `app>` names the first app explicitly.
    case call(app: String?, CallSyntax)
    /// `< CALLBACK` / `NAME< CALLBACK`: the arguments are patterns. `at`: `< CALLBACK at T`, the
    /// simulated time since the scenario's start at which it must be delivered.
    case expect(app: String?, CallSyntax, at: Millis? = nil)
    case userLogin(user: String, password: String)
    case userBack
    case userPick(mvpd: String, asUser: String?)
    case userPickOther
    case userCancel
    case userEnterCode(user: String, password: String)
    /// `user authenticate $CODE as "NAME" ["PASSWORD"]`: the user completes a REST API v2 login in
    /// the device's browser for the session an earlier `http` step created (`V2LoginStep`).
    case userAuthenticate(V2LoginStep)
    /// `browser at PATTERN`
    case browserAt(ValueSyntax)
    /// `clock +D`
    case clock(Millis)
    case net(NetTarget, NetAction)
    /// `seen SP METHOD PATH [with key="value" ...]`; with `unseen`, `unseen SP METHOD PATH [with ...]`:
    /// the SP received no such request since the previous `seen` on it.
    case seen(sp: String, method: String, path: PathPattern, with: [SeenParameter], unseen: Bool = false)
    /// `lint passes RULE` / `lint breaks RULE`: the requests so far pass or break a client rule
    /// (docs/LINT.md; the rule id is checked when the step runs).
    case lint(breaks: Bool, rule: String)
    /// `http METHOD SP PATH [header "N: V" ...] [form "..." | json "..."] expect STATUS [code CODE]
    /// [header "N: V" ...] [with F=P ...]`:
    /// a raw request of the app's own HTTP client (a REST API v2 client, not the SDK) and its answer.
    case http(HTTPStep)
}

/// The request and the expected answer of an `http` step (SCENARIO-FORMAT.md, Steps).
public struct HTTPStep: Hashable, Sendable {
    /// The body of the request, as written; the runtime adds the matching `Content-Type` unless a
    /// header of the step gives one.
    public enum Body: Hashable, Sendable {
        case form(String)
        case json(String)
    }

    public var method: String
    /// The SP whose host (scheme, host and port of its URL) receives the request.
    public var sp: String
    /// From the host's root (the SP's base path is not added), `$name`s bound earlier substituted.
    public var path: String
    /// `header "Name: value"`, in order; `$name`s in the value are substituted.
    public var headers: [SeenParameter]
    public var body: Body?
    public var status: Int
    /// `code CODE` and `with FIELD=PATTERN`: a dotted path into the JSON answer (`decisions.0.source`)
    /// and the pattern its value must match; `code CODE` is `with code="CODE"`.
    public var fields: [HTTPField]
    /// `expect … header "Name: value"`: headers the answer must carry with exactly that value.
    public var answerHeaders: [SeenParameter]

    public init(
        method: String, sp: String, path: String, headers: [SeenParameter] = [], body: Body? = nil,
        status: Int, fields: [HTTPField] = [], answerHeaders: [SeenParameter] = []
    ) {
        self.answerHeaders = answerHeaders
        self.method = method
        self.sp = sp
        self.path = path
        self.headers = headers
        self.body = body
        self.status = status
        self.fields = fields
    }
}

extension HTTPStep {
    /// The `$name`s of `text` (a `$` followed by identifier scalars), in order.
    public static func bindingNames(in text: String) -> [String] {
        var names: [String] = []
        var current: String?
        for scalar in text.unicodeScalars {
            if scalar == "$" {
                if let name = current, !name.isEmpty { names.append(name) }
                current = ""
            } else if current != nil, Value.isIdentifierScalar(scalar) {
                current?.unicodeScalars.append(scalar)
            } else {
                if let name = current, !name.isEmpty { names.append(name) }
                current = nil
            }
        }
        if let name = current, !name.isEmpty { names.append(name) }
        return names
    }

    /// `text` with each `$name` replaced by `lookup(name)`; nil when some name has no value.
    public static func substitute(_ text: String, _ lookup: (String) -> String?) -> String? {
        guard text.unicodeScalars.contains("$") else { return text }
        var out = ""
        var name: String?
        func flush() -> Bool {
            guard let n = name else { return true }
            name = nil
            if n.isEmpty {
                out += "$"
                return true
            }
            guard let v = lookup(n) else { return false }
            out += v
            return true
        }
        for scalar in text.unicodeScalars {
            if scalar == "$" {
                guard flush() else { return nil }
                name = ""
            } else if name != nil, Value.isIdentifierScalar(scalar) {
                name?.unicodeScalars.append(scalar)
            } else {
                guard flush() else { return nil }
                out.unicodeScalars.append(scalar)
            }
        }
        guard flush() else { return nil }
        return out
    }
}

/// One `with FIELD=PATTERN` of an `http` step.
public struct HTTPField: Hashable, Sendable {
    public var path: String
    public var pattern: ValueSyntax

    public init(path: String, pattern: ValueSyntax) {
        self.path = path
        self.pattern = pattern
    }
}

public enum NetTarget: Hashable, Sendable {
    case sp(String)
    case mvpd(String)
}

public enum NetAction: Hashable, Sendable {
    case down
    case up
    case silent
    case latency(Millis)
    /// The next `count` requests (whose path matches the regex body, when given) get `status`
    /// (nil: the default 503); with `body` (`net SP answer`), that body: an answer that is not what
    /// the contract says, in the mock's place (bad input).
    /// `operation` (`net SP fail N OPERATION`): the requests of that operation on the run's wire
    /// (`WireOperation`), in place of a path regex.
    case fail(count: Int, path: String?, status: Int?, body: String? = nil, operation: WireOperation.ID? = nil)
}

/// The path of a `seen` step: relative to the SP's URL, or a regex body the path must match whole.
public enum PathPattern: Hashable, Sendable {
    case literal(String)
    case regex(String)
    /// `seen SP OPERATION`: the operation's request on whichever wire the run speaks (`WireOperation`).
    case operation(WireOperation.ID)
}

/// `key="value"` of a `seen ... with`.
public struct SeenParameter: Hashable, Sendable {
    public var key: String
    public var value: String

    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}
