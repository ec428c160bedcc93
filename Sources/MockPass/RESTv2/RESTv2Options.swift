import PassModel

/// What a world says about REST API v2 beyond the MVPDs, users and requestors the v1/SDK families
/// already share with it. Every default is Adobe's documented behaviour; each other value is a
/// condition of the real service a test wants to meet (a degradation, a misconfiguration, a fault).
public struct RESTv2Options: Sendable {
    /// Adobe's token bucket per device (rest-api-v2.md 1.10). Off: no request is ever refused with 429.
    public var throttling: Bool = true
    /// The same bucket also on the other endpoints Adobe throttles: DCR (`/o/client/…`), REST v1
    /// (`/api/v1/…`), the SDK's `config` and the `regcode` service. Off by default: the SDK engine's
    /// answer to a 429 is the fidelity issue's (a world that turns it on sees the engine meet them).
    public var throttleLegacy: Bool = false
    /// How long a session code lives (`notAfter - notBefore`); Adobe's FAQ: 30 minutes.
    public var sessionTTL: Millis = .minutes(30)
    /// How long a media token lives; Adobe: "typically 7 minutes".
    public var mediaTokenTTL: Millis = .minutes(7)
    /// The most resources one decision request may name (`too_many_resources` past it).
    public var maxResources: Int = 100
    /// Apple's provider id per MVPD (`platformMappingId`); an MVPD not listed maps to its own id.
    public var platformMappingIDs: [PlatformMapping] = []
    /// Degradation rules, first match wins.
    public var degradations: [Degradation] = []
    /// TempPass MVPDs whose use is capped at a number of distinct resources.
    public var tempPassResourceLimits: [TempPassResourceLimit] = []
    /// Resources a user's parental controls deny.
    public var parentalControls: [ParentalControl] = []
    /// MVPDs authorized without asking them (decisions with `source: dummy`).
    public var dummyAuthorization: [String] = []
    /// Conditions of the MVPD or the platform that turn a call about an MVPD into an enhanced error code.
    public var faults: [Fault] = []
    /// MVPDs whose IdP logs REST v2 users in with OAuth2 and PKCE instead of SAML (`V2OAuth`).
    public var oauth2MVPDs: [String] = []
    /// MVPDs without a logout endpoint: a logout of their profile ends it at once (`complete`/`none`).
    public var noLogoutMVPDs: [String] = []
    /// The issuers (`iss`) of the external identity services whose `AD-Service-Token` Adobe trusts
    /// (single sign-on with a service token).
    public var serviceTokenIssuers: [String] = []
    /// The issuers of the platform identity tokens (`Adobe-Subject-Token`) Adobe trusts (single
    /// sign-on with platform identity: Amazon's, Roku's).
    public var platformIdentityIssuers: [String] = []
    /// Profile lifetimes per MVPD that differ from the requestor's `authn-ttl`.
    public var profileTTLs: [ProfileTTL] = []
    /// What Adobe's configuration says of a programmer beyond its id: its commercial name and domains.
    public var requestorConfigurations: [RequestorConfiguration] = []
    /// The optional flags Adobe's configuration gives an MVPD for a programmer, where the world sets them.
    public var mvpdConfigurations: [MVPDConfiguration] = []

    public init() {}

    /// A programmer's configuration at Adobe (the configuration answer's `requestor.name` and
    /// `requestor.domains`); nil: the defaults (its id; `adobe.com`, the domain every answer assumes).
    public struct RequestorConfiguration: Sendable {
        public var requestorID: String
        /// The commercial (brand) name; nil: the id.
        public var name: String?
        /// The domains listed to Adobe for it, in order; nil: `defaultDomains`.
        public var domains: [Domain]?
        public init(requestorID: String, name: String? = nil, domains: [Domain]? = nil) {
            self.requestorID = requestorID
            self.name = name
            self.domains = domains
        }
    }

    /// A domain listed to Adobe for a programmer; `mvpdInitiated`: the MVPD may start a login there.
    public struct Domain: Sendable, Hashable {
        public var name: String
        public var mvpdInitiated: Bool
        public init(name: String, mvpdInitiated: Bool = false) {
            self.name = name
            self.mvpdInitiated = mvpdInitiated
        }
    }

    /// The domain a programmer has when the world lists none: the `domainName` the engine, the SDK
    /// family's tokens and Adobe's samples use.
    public static let defaultDomains = [Domain(name: "adobe.com")]

    /// An MVPD's optional configuration flags; each nil one is absent from the configuration answer.
    public struct MVPDConfiguration: Sendable, Hashable {
        public var mvpdID: String
        /// `authPerAggregator`: one authentication serves every programmer of the aggregator.
        public var authPerAggregator: Bool?
        /// `passiveAuthnEnabled`: a passive (hidden) authentication may be tried.
        public var passiveAuthnEnabled: Bool?
        /// `authPerBrowserSession`: an authentication lasts as long as the browser session.
        public var authPerBrowserSession: Bool?
        /// `isProxy`: a proxied MVPD.
        public var isProxy: Bool?
        public init(
            mvpdID: String, authPerAggregator: Bool? = nil, passiveAuthnEnabled: Bool? = nil,
            authPerBrowserSession: Bool? = nil, isProxy: Bool? = nil
        ) {
            self.mvpdID = mvpdID
            self.authPerAggregator = authPerAggregator
            self.passiveAuthnEnabled = passiveAuthnEnabled
            self.authPerBrowserSession = authPerBrowserSession
            self.isProxy = isProxy
        }
    }

    public struct PlatformMapping: Sendable {
        public var mvpdID: String
        public var platformMappingID: String
        public init(mvpdID: String, platformMappingID: String) {
            self.mvpdID = mvpdID
            self.platformMappingID = platformMappingID
        }
    }

    /// An MVPD in degraded mode, as Adobe's degradation API sets it: decisions for it are answered
    /// by the rule instead of the MVPD (`source: degradation`).
    public struct Degradation: Sendable {
        public enum Rule: String, Sendable, CaseIterable {
            /// AuthZ-all: every decision is a permit, with or without a profile (Adobe's degraded access flows).
            case authorizeAll = "authorize-all"
            /// AuthN-all: devices need no profile; every decision is a permit.
            case authenticateAll = "authenticate-all"
            /// Every decision is a deny (`authorization_denied_by_degradation_rule`).
            case deny
        }

        public var mvpdID: String
        public var rule: Rule
        public init(mvpdID: String, rule: Rule) {
            self.mvpdID = mvpdID
            self.rule = rule
        }
    }

    public struct TempPassResourceLimit: Sendable {
        public var mvpdID: String
        public var resources: Int
        public init(mvpdID: String, resources: Int) {
            self.mvpdID = mvpdID
            self.resources = resources
        }
    }

    public struct ParentalControl: Sendable {
        public var mvpdID: String
        public var userName: String
        public var resource: String
        public init(mvpdID: String, userName: String, resource: String) {
            self.mvpdID = mvpdID
            self.userName = userName
            self.resource = resource
        }
    }

    /// The MVPD (or its platform configuration) answers `code`. A `configuration`-class code or a
    /// 500 fails the whole request naming the MVPD; any other fails each decision about it.
    public struct Fault: Sendable {
        public var mvpdID: String
        /// An enhanced error code's text (`network_connection_timeout`); unknown text is ignored.
        public var code: String
        public init(mvpdID: String, code: String) {
            self.mvpdID = mvpdID
            self.code = code
        }
    }

    public struct ProfileTTL: Sendable {
        public var mvpdID: String
        public var ttl: Millis
        public init(mvpdID: String, ttl: Millis) {
            self.mvpdID = mvpdID
            self.ttl = ttl
        }
    }

    func platformMappingID(of mvpdID: String) -> String {
        platformMappingIDs.first { $0.mvpdID == mvpdID }?.platformMappingID ?? mvpdID
    }

    func degradation(of mvpdID: String) -> Degradation.Rule? {
        degradations.first { $0.mvpdID == mvpdID }?.rule
    }

    /// The programmer's commercial name: the world's, else its id.
    public func requestorName(of requestorID: String) -> String {
        requestorConfigurations.first { $0.requestorID == requestorID }?.name ?? requestorID
    }

    /// The programmer's domains: the world's, else `defaultDomains`.
    public func domains(of requestorID: String) -> [Domain] {
        requestorConfigurations.first { $0.requestorID == requestorID }?.domains ?? RESTv2Options.defaultDomains
    }

    /// The MVPD's flags as the world sets them (none set: every flag nil).
    public func mvpdConfiguration(of mvpdID: String) -> MVPDConfiguration {
        mvpdConfigurations.first { $0.mvpdID == mvpdID } ?? MVPDConfiguration(mvpdID: mvpdID)
    }

    func fault(of mvpdID: String) -> V2ErrorCode? {
        faults.first { $0.mvpdID == mvpdID }.flatMap { V2ErrorCode(rawValue: $0.code) }
    }
}
