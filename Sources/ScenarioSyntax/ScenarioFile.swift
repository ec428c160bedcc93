import PassModel

/// A parsed `.scenario` file: its header, its world and its steps, names already checked.
public struct ScenarioFile: Hashable, Sendable {
    /// The app every `> CALL` without a prefix talks to; `app> CALL` names it too.
    public static let firstAppName = "app"
    public static let defaultSVCScheme = "adbe.u-passim://adobe.com"

    public var path: String
    public var title: String
    /// The first comment line(s) before `scenario`, `#` and one space stripped, joined by " ".
    public var description: String?
    public var tags: [String]
    public var platform: Platform
    public var device: DeviceType
    /// `wire v2`: the apps' engines speak REST API v2; `passim run --wire` overrides it.
    public var wire: EngineWire = .sdk
    /// nil: the runner's default fixed seed.
    public var seed: UInt64?
    /// Apps declared with `app NAME`, in order; the first app (`app`) is implicit and not listed.
    public var apps: [Located<String>]
    /// `app NAME wire W`: an app with its own wire (a world with both faces). A scenario
    /// with one (or with `second-screen wire`) is written for both wires at once: `passim run
    /// --wire` leaves its wires as written (the first app's is the header's `wire`).
    public var appWires: [String: EngineWire] = [:]
    /// `second-screen wire W`: the wire of the second screen's web app where a tvOS user enters the
    /// code (`user enter-code`); nil: the code's own. Adobe asks both screens to move to v2 together
    /// (rest-api-v2.md 1.1): one that did not cannot use the other's code.
    public var secondScreenWire: EngineWire?
    public var svcScheme: String
    public var world: [Located<WorldStatement>]
    public var steps: [Located<Step>]

    public init(
        path: String, title: String, description: String? = nil, tags: [String] = [],
        platform: Platform = .ios, device: DeviceType = .mobile, seed: UInt64? = nil,
        apps: [Located<String>] = [], svcScheme: String = ScenarioFile.defaultSVCScheme,
        world: [Located<WorldStatement>] = [], steps: [Located<Step>] = []
    ) {
        self.path = path
        self.title = title
        self.description = description
        self.tags = tags
        self.platform = platform
        self.device = device
        self.seed = seed
        self.apps = apps
        self.svcScheme = svcScheme
        self.world = world
        self.steps = steps
    }

    /// The round trip of a host whose line names none (SCENARIO-FORMAT.md: `latency`, `idp-latency`).
    public static let defaultRoundTrip = Millis(10)

    /// The longest round trip any host of the world has, at any point of the scenario (its `sp` and
    /// `mvpd` lines, its `net … latency` steps): the unit of an expectations file's `timing` rule.
    public var longestRoundTrip: Millis {
        let declared =
            sps.map { $0.latency ?? Self.defaultRoundTrip } + mvpds.map { $0.idpLatency ?? Self.defaultRoundTrip }
        return (declared + steppedLatencies).max() ?? Self.defaultRoundTrip
    }

    /// The latencies the `net … latency` steps set, in file order.
    public var steppedLatencies: [Millis] {
        steps.compactMap { step -> Millis? in
            if case .net(_, .latency(let d)) = step.value { return d }
            return nil
        }
    }

    public var sps: [SPDecl] {
        world.compactMap { if case .sp(let d) = $0.value { return d } else { return nil } }
    }

    /// Every `mvpd` line, in file order (an MVPD declared at several SPs may appear more than once).
    public var mvpds: [MVPDDecl] {
        world.compactMap { if case .mvpd(let d) = $0.value { return d } else { return nil } }
    }

    public var users: [UserDecl] {
        world.compactMap { if case .user(let d) = $0.value { return d } else { return nil } }
    }

    public var requestors: [RequestorDecl] {
        world.compactMap { if case .requestor(let d) = $0.value { return d } else { return nil } }
    }

    /// The `default-sp` name, else nil (the runner then uses the first `sp`).
    public var defaultSP: String? {
        world.lazy.compactMap { if case .defaultSP(let n) = $0.value { return n } else { return nil } }.first
    }

    /// The `rest-v2` settings, in file order (a later line wins where two set the same thing).
    public var restV2: [RESTv2Decl] {
        world.compactMap { if case .restV2(let d) = $0.value { return d } else { return nil } }
    }

    /// Every app name, the implicit first app included, in declaration order.
    public var appNames: [String] { [ScenarioFile.firstAppName] + apps.map(\.value) }
}

/// A statement describing the world the scenario runs in.
public enum WorldStatement: Hashable, Sendable {
    case sp(SPDecl)
    case mvpd(MVPDDecl)
    case user(UserDecl)
    case requestor(RequestorDecl)
    case defaultSP(String)
    /// `rest-v2 …` (FileParser+RESTv2.swift).
    case restV2(RESTv2Decl)
}

/// `sp NAME "URL" [latency D] [unreachable] [silent]`
public struct SPDecl: Hashable, Sendable {
    public var name: String
    public var url: String
    /// nil: the default round trip (10ms).
    public var latency: Millis?
    public var unreachable: Bool
    public var silent: Bool

    public init(name: String, url: String, latency: Millis? = nil, unreachable: Bool = false, silent: Bool = false) {
        self.name = name
        self.url = url
        self.latency = latency
        self.unreachable = unreachable
        self.silent = silent
    }
}

/// `mvpd ID "Display Name" at SP[, SP...] [logo "URL"] [sso picker|supported] [temppass D]
/// [promo-temppass D] [svc] [idp-latency D] [idp-down] [saml MODE]`
public struct MVPDDecl: Hashable, Sendable {
    public var id: String
    public var displayName: String
    public var sps: [String]
    public var logo: String?
    /// Set by `sso`: the MVPD has `enablePlatformServices` and this boarding status.
    public var sso: BoardingStatus?
    /// A TempPass MVPD, with its TTL.
    public var tempPass: Millis?
    /// A promotional TempPass MVPD, with its TTL.
    public var promoTempPass: Millis?
    /// Requires SFSafariViewController under `handleSVC`.
    public var svc: Bool
    /// nil: the default IdP round trip (10ms).
    public var idpLatency: Millis?
    public var idpDown: Bool
    /// nil: the default, `signed`.
    public var saml: SAMLMode?

    /// How the MVPD's IdP sends its SAML Response.
    public enum SAMLMode: String, Hashable, Sendable, CaseIterable {
        case signed, unsigned, tampered, expired
        case wrongAudience = "wrong-audience"
    }

    public init(
        id: String, displayName: String, sps: [String], logo: String? = nil, sso: BoardingStatus? = nil,
        tempPass: Millis? = nil, promoTempPass: Millis? = nil, svc: Bool = false,
        idpLatency: Millis? = nil, idpDown: Bool = false, saml: SAMLMode? = nil
    ) {
        self.id = id
        self.displayName = displayName
        self.sps = sps
        self.logo = logo
        self.sso = sso
        self.tempPass = tempPass
        self.promoTempPass = promoTempPass
        self.svc = svc
        self.idpLatency = idpLatency
        self.idpDown = idpDown
        self.saml = saml
    }
}

/// `user NAME "PASSWORD" at MVPD [allow R, ...] [deny R, ... ["message"]] [meta KEY=JSON ...] [encrypted KEY, ...]`
public struct UserDecl: Hashable, Sendable {
    public var name: String
    public var password: String
    public var mvpd: String
    public var allow: [String]
    public var deny: [String]
    public var denyMessage: String?
    public var meta: [MetaEntry]
    public var encrypted: [String]

    public init(
        name: String, password: String, mvpd: String, allow: [String] = [], deny: [String] = [],
        denyMessage: String? = nil, meta: [MetaEntry] = [], encrypted: [String] = []
    ) {
        self.name = name
        self.password = password
        self.mvpd = mvpd
        self.allow = allow
        self.deny = deny
        self.denyMessage = denyMessage
        self.meta = meta
        self.encrypted = encrypted
    }
}

/// `KEY=JSON` of a user's `meta`. The value holds no names or patterns, so `value.literal` is never nil.
public struct MetaEntry: Hashable, Sendable {
    public var key: String
    public var value: ValueSyntax

    public init(key: String, value: ValueSyntax) {
        self.key = key
        self.value = value
    }
}

/// `requestor …`: the mock's own requestor type (PassModel), defaults applied as the line is read.
public typealias RequestorDecl = Requestor
