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
    /// `browser at PATTERN`
    case browserAt(ValueSyntax)
    /// `clock +D`
    case clock(Millis)
    case net(NetTarget, NetAction)
    /// `seen SP METHOD PATH [with key="value" ...]`; with `unseen`, `unseen SP METHOD PATH [with ...]`:
    /// the SP received no such request since the previous `seen` on it.
    case seen(sp: String, method: String, path: PathPattern, with: [SeenParameter], unseen: Bool = false)
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
    /// (nil: the default 503).
    case fail(count: Int, path: String?, status: Int?)
}

/// The path of a `seen` step: relative to the SP's URL, or a regex body the path must match whole.
public enum PathPattern: Hashable, Sendable {
    case literal(String)
    case regex(String)
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
