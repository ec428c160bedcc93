import Foundation
@testable import MockPass
import PassModel
import Scenario
import ScenarioSyntax
import Testing

/// `rest-v2 …` world statements (SCENARIO-FORMAT.md, "World") as the mock's options.
@Suite struct RESTv2WorldTests {
    static let world = """
        sp main "https://sp.auth.test"
        mvpd Comcast "Comcast" at main sso supported
        mvpd Dish "DISH" at main
        mvpd Free "Free preview" at main temppass 10m
        user alice "secret" at Comcast allow CNN, HBO
        requestor REQ1
        rest-v2 throttling off
        rest-v2 session-ttl 10m
        rest-v2 media-token-ttl 5m
        rest-v2 max-resources 20
        rest-v2 platform-mapping Comcast "comcast-apple"
        rest-v2 degrade Dish deny
        rest-v2 degrade Dish authorize-all
        rest-v2 temppass-resources Free 3
        rest-v2 parental-control alice at Comcast deny HBO, MAX
        rest-v2 dummy-authorization Dish
        rest-v2 fault Comcast network_connection_timeout
        rest-v2 profile-ttl Comcast 2h
        rest-v2 oauth2 Dish
        rest-v2 requestor REQ1 name "Passim TV" domains passim.test
        rest-v2 requestor REQ1 mvpd-initiated partner.test
        rest-v2 mvpd Dish auth-per-aggregator true passive-authn false
        rest-v2 mvpd Dish passive-authn true proxy false
        """

    @Test func everySettingReachesTheMocksOptionsAndALaterLineWins() throws {
        let o = WorldBuilder.setup(for: try ScenarioParser.parseWorld(Self.world, path: "w")).world.restV2
        #expect(o.throttling == false)
        #expect(o.throttleLegacy == false)
        let all = WorldBuilder.setup(
            for: try ScenarioParser.parseWorld(
                "sp main \"https://sp.auth.test\"\nrequestor R\nrest-v2 throttling all\n",
                path: "a")
        ).world.restV2
        #expect(all.throttling && all.throttleLegacy)
        #expect(o.sessionTTL == .minutes(10))
        #expect(o.mediaTokenTTL == .minutes(5))
        #expect(o.maxResources == 20)
        #expect(o.platformMappingID(of: "Comcast") == "comcast-apple")
        #expect(o.platformMappingID(of: "Dish") == "Dish")
        #expect(o.degradation(of: "Dish") == .authorizeAll)
        #expect(o.tempPassResourceLimits.map(\.resources) == [3])
        #expect(o.parentalControls.map(\.resource) == ["HBO", "MAX"])
        #expect(o.dummyAuthorization == ["Dish"])
        #expect(o.fault(of: "Comcast") == .networkConnectionTimeout)
        #expect(o.profileTTLs.first?.ttl == .hours(2))
        #expect(o.oauth2MVPDs == ["Dish"])
        // A later line replaces what it sets and keeps the rest: the name stays, the domains are the new list.
        #expect(o.requestorName(of: "REQ1") == "Passim TV")
        #expect(o.domains(of: "REQ1") == [.init(name: "partner.test", mvpdInitiated: true)])
        #expect(o.domains(of: "OTHER") == RESTv2Options.defaultDomains)
        #expect(o.requestorName(of: "OTHER") == "OTHER")
        #expect(
            o.mvpdConfiguration(of: "Dish")
                == .init(mvpdID: "Dish", authPerAggregator: true, passiveAuthnEnabled: true, isProxy: false))
        #expect(o.mvpdConfiguration(of: "Comcast") == .init(mvpdID: "Comcast"))
        // Without any line: Adobe's defaults.
        let plain = WorldBuilder.setup(
            for: try ScenarioParser.parseWorld("sp main \"https://sp.auth.test\"\nrequestor R\n", path: "p")
        ).world.restV2
        #expect(
            plain.throttling && plain.sessionTTL == .minutes(30) && plain.mediaTokenTTL == .minutes(7)
                && plain.maxResources == 100)
    }

    @Test(arguments: [
        ("rest-v2 speed fast", "unknown REST v2 setting 'speed'"),
        ("rest-v2 throttling maybe", "unknown throttling mode 'maybe'"),
        ("rest-v2 degrade Nobody deny", "Nobody"),
        ("rest-v2 degrade Dish sometimes", "unknown degradation rule 'sometimes'"),
        ("rest-v2 fault Dish made_up_code", "unknown enhanced error code 'made_up_code'"),
        ("rest-v2 parental-control bob at Dish deny X", "bob"),
        ("rest-v2 max-resources 0", "invalid resource count '0'"),
        ("rest-v2 requestor NOBODY name \"N\"", "undeclared requestor 'NOBODY'"),
        ("rest-v2 requestor R domains bad_domain.test", "invalid domain 'bad_domain.test'"),
        ("rest-v2 mvpd Dish proxy yes", "'proxy' takes true or false, not 'yes'"),
        ("rest-v2 mvpd Dish proxy", "expected true or false after 'proxy'"),
    ])
    func aBadLineIsAnErrorOfTheFile(line: String, message: String) {
        let text = "sp main \"https://sp.auth.test\"\nmvpd Dish \"DISH\" at main\nrequestor R\n" + line + "\n"
        #expect(throws: Diagnostic.self) { _ = try ScenarioParser.parseWorld(text, path: "w") }
        do {
            _ = try ScenarioParser.parseWorld(text, path: "w")
        } catch {
            #expect(error.description.contains(message), "\(error.description)")
        }
    }

    /// The codes a `fault` line may name are exactly the mock's world-reachable ones.
    @Test func faultCodesAreTheMocksOwn() {
        let reachable = V2ErrorCode.allCases.filter {
            ($0.action != .none && $0 != .tooManyResources && $0.action != .applicationRegistration)
                || $0 == .internalServerError
        }
        #expect(Set(RESTv2Decl.faultCodes) == Set(reachable.map(\.rawValue)))
        #expect(RESTv2Decl.faultCodes.allSatisfy { V2ErrorCode(rawValue: $0) != nil })
    }

    /// Every kind of `rest-v2` statement (each degradation rule apart) is pinned by some scenario of the
    /// suite (docs/WIRE.md, "REST API v2", lists which): a new kind fails here until it has one.
    @Test func everyKindOfStatementHasAScenario() throws {
        func kind(_ d: RESTv2Decl) -> String {
            switch d {
            case .throttling(let mode): return "throttling " + mode
            case .sessionTTL: return "session-ttl"
            case .mediaTokenTTL: return "media-token-ttl"
            case .maxResources: return "max-resources"
            case .platformMapping: return "platform-mapping"
            case .degrade(_, let rule): return "degrade " + rule
            case .tempPassResources: return "temppass-resources"
            case .parentalControl: return "parental-control"
            case .dummyAuthorization: return "dummy-authorization"
            case .fault: return "fault"
            case .profileTTL: return "profile-ttl"
            case .oauth2: return "oauth2"
            case .noLogout: return "no-logout"
            case .serviceToken: return "service-token"
            case .platformIdentity: return "platform-identity"
            case .requestor: return "requestor"
            case .mvpd: return "mvpd"
            }
        }
        let all = Set<String>([
            "throttling on", "throttling off", "throttling all", "session-ttl", "media-token-ttl",
            "max-resources", "platform-mapping", "temppass-resources", "parental-control",
            "dummy-authorization", "fault", "profile-ttl", "oauth2", "no-logout", "service-token",
            "platform-identity", "requestor", "mvpd",
        ])
        .union(RESTv2Decl.degradationRules.map { "degrade " + $0 })
        var pinned: Set<String> = []
        let root = packageRoot + "/Scenarios"
        let files = try #require(FileManager.default.enumerator(atPath: root)).compactMap { $0 as? String }.filter {
            $0.hasSuffix(".scenario")
        }
        for file in files {
            for decl in try ScenarioParser.parse(fileAt: root + "/" + file).restV2 { pinned.insert(kind(decl)) }
        }
        #expect(all.subtracting(pinned).sorted() == [], "rest-v2 statements no scenario uses")
    }
}
