import PassModel

/// `rest-v2 …`: what the world says about REST API v2 beyond MVPDs, users and requestors
/// (SCENARIO-FORMAT.md, "World"; docs/WIRE.md, "REST API v2"). One setting a line; repeatable.
public enum RESTv2Decl: Hashable, Sendable {
    /// `rest-v2 throttling on|off|all` (`all`: DCR, REST v1, `config` and `regcode` too)
    case throttling(String)
    /// `rest-v2 session-ttl D`
    case sessionTTL(Millis)
    /// `rest-v2 media-token-ttl D`
    case mediaTokenTTL(Millis)
    /// `rest-v2 max-resources N`
    case maxResources(Int)
    /// `rest-v2 platform-mapping MVPD "ID"`
    case platformMapping(mvpd: String, id: String)
    /// `rest-v2 degrade MVPD authorize-all|authenticate-all|deny`
    case degrade(mvpd: String, rule: String)
    /// `rest-v2 temppass-resources MVPD N`
    case tempPassResources(mvpd: String, count: Int)
    /// `rest-v2 parental-control USER at MVPD deny R, …`
    case parentalControl(user: String, mvpd: String, resources: [String])
    /// `rest-v2 dummy-authorization MVPD`
    case dummyAuthorization(mvpd: String)
    /// `rest-v2 fault MVPD CODE`
    case fault(mvpd: String, code: String)
    /// `rest-v2 profile-ttl MVPD D`
    case profileTTL(mvpd: String, ttl: Millis)
    /// `rest-v2 oauth2 MVPD`
    case oauth2(mvpd: String)
    /// `rest-v2 no-logout MVPD`: the MVPD has no logout endpoint
    case noLogout(mvpd: String)
    /// `rest-v2 service-token "ISSUER"`: an identity service whose `AD-Service-Token`s Adobe trusts
    case serviceToken(issuer: String)
    /// `rest-v2 platform-identity "ISSUER"`: a platform whose `Adobe-Subject-Token`s Adobe trusts
    case platformIdentity(issuer: String)
    /// `rest-v2 requestor ID [name "NAME"] [domains D, …] [mvpd-initiated D, …]`
    case requestor(RequestorSettings)
    /// `rest-v2 mvpd ID [auth-per-aggregator B] [passive-authn B] [auth-per-browser-session B] [proxy B]`
    case mvpd(MVPDSettings)

    /// What Adobe's configuration says of a programmer: its commercial name and its domains (those of
    /// `domains`, then those of `mvpd-initiated`, which an MVPD may start a login for); nil: not set here.
    public struct RequestorSettings: Hashable, Sendable {
        public var id: String
        public var name: String?
        public var domains: [Domain]?
        public init(id: String, name: String? = nil, domains: [Domain]? = nil) {
            self.id = id
            self.name = name
            self.domains = domains
        }
    }

    public struct Domain: Hashable, Sendable {
        public var name: String
        public var mvpdInitiated: Bool
        public init(name: String, mvpdInitiated: Bool) {
            self.name = name
            self.mvpdInitiated = mvpdInitiated
        }
    }

    /// An MVPD's optional configuration flags (`authPerAggregator`, `passiveAuthnEnabled`,
    /// `authPerBrowserSession`, `isProxy`); nil: not set here.
    public struct MVPDSettings: Hashable, Sendable {
        public var id: String
        public var authPerAggregator: Bool?
        public var passiveAuthnEnabled: Bool?
        public var authPerBrowserSession: Bool?
        public var isProxy: Bool?
        public init(
            id: String, authPerAggregator: Bool? = nil, passiveAuthnEnabled: Bool? = nil,
            authPerBrowserSession: Bool? = nil, isProxy: Bool? = nil
        ) {
            self.id = id
            self.authPerAggregator = authPerAggregator
            self.passiveAuthnEnabled = passiveAuthnEnabled
            self.authPerBrowserSession = authPerBrowserSession
            self.isProxy = isProxy
        }
    }

    static let requestorOptions = ["name", "domains", "mvpd-initiated"]
    static let mvpdOptions = ["auth-per-aggregator", "passive-authn", "auth-per-browser-session", "proxy"]

    public static let degradationRules = ["authorize-all", "authenticate-all", "deny"]

    /// The enhanced error codes a `fault` may name: those an MVPD or a platform configuration
    /// answers (rest-api-v2.md 1.6; the mock's `V2ErrorCode`, checked equal by a test).
    public static let faultCodes = [
        "invalid_configuration_user_metadata_certificate", "invalid_configuration_temporary_access",
        "invalid_configuration_platform", "invalid_configuration_platform_id", "invalid_configuration_platform_trait",
        "invalid_configuration_platform_category_trait", "invalid_configuration_platform_services",
        "invalid_configuration_mvpd_platform", "invalid_configuration_mvpd_platform_boarding_status",
        "invalid_configuration_mvpd_platform_profile_exchange", "authenticated_profile_missing",
        "authenticated_profile_expired", "authenticated_profile_invalidated",
        "temporary_access_duration_limit_exceeded",
        "temporary_access_resources_limit_exceeded", "authorization_denied_by_hba_policies",
        "authorization_denied_by_session_invalidated", "identity_not_recognized_by_mvpd", "network_received_error",
        "network_connection_timeout", "maximum_execution_time_exceeded", "internal_server_error",
    ]

    static let settings = [
        "throttling", "session-ttl", "media-token-ttl", "max-resources", "platform-mapping", "degrade",
        "temppass-resources", "parental-control", "dummy-authorization", "fault", "profile-ttl", "oauth2",
        "no-logout", "service-token", "platform-identity", "requestor", "mvpd",
    ]
}

extension FileParser {
    mutating func restV2Statement(_ c: inout LineCursor) throws(Diagnostic) -> WorldStatement {
        let setting = try c.requireWord("a REST v2 setting (\(RESTv2Decl.settings.joined(separator: ", ")))")
        func mvpd(_ c: inout LineCursor) throws(Diagnostic) -> String {
            let id = try c.requireWord("an MVPD id")
            try mvpds.check(id, in: c)
            return id.text
        }
        func oneOf(_ c: inout LineCursor, _ words: [String], _ what: String) throws(Diagnostic) -> String {
            let w = try c.requireWord(what)
            guard words.contains(w.text) else {
                throw c.diagnostic(
                    "unknown \(what) '\(w.text)' (expected \(words.joined(separator: ", ")))", at: w.start)
            }
            return w.text
        }
        let decl: RESTv2Decl
        switch setting.text {
        case "throttling": decl = .throttling(try oneOf(&c, ["on", "off", "all"], "throttling mode"))
        case "session-ttl": decl = .sessionTTL(try c.duration())
        case "media-token-ttl": decl = .mediaTokenTTL(try c.duration())
        case "max-resources": decl = .maxResources(try c.integer("resource count", in: 1...100_000))
        case "platform-mapping":
            let id = try mvpd(&c)
            decl = .platformMapping(mvpd: id, id: try c.requireString("the platform mapping id in quotes").text)
        case "degrade":
            let id = try mvpd(&c)
            decl = .degrade(mvpd: id, rule: try oneOf(&c, RESTv2Decl.degradationRules, "degradation rule"))
        case "temppass-resources":
            let id = try mvpd(&c)
            decl = .tempPassResources(mvpd: id, count: try c.integer("resource count", in: 1...100_000))
        case "parental-control":
            let user = try c.requireWord("a user name")
            try users.check(user, in: c)
            guard c.keyword("at") else { throw c.diagnostic("expected 'at' and the user's MVPD", at: c.pos) }
            let id = try mvpd(&c)
            guard c.keyword("deny") else { throw c.diagnostic("expected 'deny' and the resources", at: c.pos) }
            decl = .parentalControl(user: user.text, mvpd: id, resources: try c.list("a resource id").map(\.text))
        case "dummy-authorization": decl = .dummyAuthorization(mvpd: try mvpd(&c))
        case "fault":
            let id = try mvpd(&c)
            decl = .fault(mvpd: id, code: try oneOf(&c, RESTv2Decl.faultCodes, "enhanced error code"))
        case "profile-ttl":
            let id = try mvpd(&c)
            decl = .profileTTL(mvpd: id, ttl: try c.duration())
        case "oauth2": decl = .oauth2(mvpd: try mvpd(&c))
        case "no-logout": decl = .noLogout(mvpd: try mvpd(&c))
        case "service-token":
            decl = .serviceToken(issuer: try c.requireString("the identity service's issuer (iss) in quotes").text)
        case "platform-identity":
            decl = .platformIdentity(issuer: try c.requireString("the platform's issuer (iss) in quotes").text)
        case "requestor": decl = .requestor(try requestorSettings(&c))
        case "mvpd":
            var settings = RESTv2Decl.MVPDSettings(id: try mvpd(&c))
            var options = OptionReader(RESTv2Decl.mvpdOptions)
            guard !c.atEnd() else {
                throw c.diagnostic(
                    "expected a flag (\(OptionReader.english(RESTv2Decl.mvpdOptions))) and true or false", at: c.pos)
            }
            while let option = try options.next(&c) {
                let value = try c.requireWord("true or false after '\(option)'")
                guard value.text == "true" || value.text == "false" else {
                    throw c.diagnostic("'\(option)' takes true or false, not '\(value.text)'", at: value.start)
                }
                let flag = value.text == "true"
                switch option {
                case "auth-per-aggregator": settings.authPerAggregator = flag
                case "passive-authn": settings.passiveAuthnEnabled = flag
                case "auth-per-browser-session": settings.authPerBrowserSession = flag
                default: settings.isProxy = flag
                }
            }
            decl = .mvpd(settings)
        default:
            throw c.diagnostic(
                "unknown REST v2 setting '\(setting.text)'"
                    + Suggestion.hint(for: setting.text, among: RESTv2Decl.settings),
                at: setting.start)
        }
        return .restV2(decl)
    }
}

extension FileParser {
    /// `ID [name "NAME"] [domains D, …] [mvpd-initiated D, …]`, at least one option.
    mutating func requestorSettings(_ c: inout LineCursor) throws(Diagnostic) -> RESTv2Decl.RequestorSettings {
        let id = try c.requireWord("a requestor id")
        try requestors.check(id, in: c)
        var settings = RESTv2Decl.RequestorSettings(id: id.text)
        guard !c.atEnd() else {
            throw c.diagnostic(
                "expected \(OptionReader.english(RESTv2Decl.requestorOptions)) after the requestor", at: c.pos)
        }
        var options = OptionReader(RESTv2Decl.requestorOptions)
        var plain: [RESTv2Decl.Domain] = []
        var initiated: [RESTv2Decl.Domain] = []
        var seen: Set<String> = []
        while let option = try options.next(&c) {
            switch option {
            case "name":
                let name = try c.requireString("the programmer's name in quotes")
                guard !name.text.isEmpty else { throw c.diagnostic("the programmer's name is empty", at: name.start) }
                settings.name = name.text
            default:
                for domain in try c.list("a domain name") {
                    if let problem = FileParser.domainProblem(domain.text) {
                        throw c.diagnostic("invalid domain '\(domain.text)': \(problem)", at: domain.start)
                    }
                    guard seen.insert(domain.text.lowercased()).inserted else {
                        throw c.diagnostic("domain '\(domain.text)' is listed twice", at: domain.start)
                    }
                    let d = RESTv2Decl.Domain(name: domain.text, mvpdInitiated: option == "mvpd-initiated")
                    if d.mvpdInitiated { initiated.append(d) } else { plain.append(d) }
                }
            }
        }
        if !seen.isEmpty { settings.domains = plain + initiated }
        return settings
    }

    /// Why `name` is not a host name (dot-separated labels of letters, digits and inner hyphens,
    /// RFC 1123), else nil.
    static func domainProblem(_ name: String) -> String? {
        guard name.utf8.count <= 253 else { return "longer than 253 characters" }
        for label in name.split(separator: ".", omittingEmptySubsequences: false) {
            guard !label.isEmpty else { return "an empty label" }
            guard label.utf8.count <= 63 else { return "a label longer than 63 characters" }
            guard
                label.unicodeScalars.allSatisfy({
                    ("a"..."z").contains($0) || ("A"..."Z").contains($0)
                        || ("0"..."9").contains($0) || $0 == "-"
                })
            else { return "a label of other characters than letters, digits and hyphens" }
            guard label.first != "-", label.last != "-" else { return "a label that starts or ends with a hyphen" }
        }
        return nil
    }
}
