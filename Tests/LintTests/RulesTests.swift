import MockPass
import PassModel
import Testing

@testable import Lint

/// A journal written as (milliseconds, method, path, answer) rows; every REST v2 call carries the
/// three headers of a good client unless told otherwise.
private struct J {
    /// A header or a parameter, as a row writes it.
    struct Pair {
        var name: String
        var value: String
        init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    var entries: [LoggedRequest] = []
    static let good: [Pair] = [
        .init("Authorization", "Bearer T1"), .init("AP-Device-Identifier", "fingerprint ZGV2aWNl"),
        .init("X-Device-Info", "eyJtb2RlbCI6IngifQ=="),
    ]

    mutating func add(
        _ t: Int64, _ method: String, _ path: String, _ status: Int? = 200, headers: [Pair] = J.good,
        params: [Pair] = [], code: String? = nil, action: String? = nil, host: LoggedRequest.Host = .sp("SP"),
        resources: [String] = [], denied: [String] = [], profiles: [String]? = nil, retryAfter: Int? = nil
    ) {
        var r = LoggedRequest(
            host: host, time: Instant(milliseconds: 1_767_225_600_000 + t), method: method, path: path,
            parameters: params.map { .init(name: $0.name, value: $0.value) },
            headers: HTTPHeaders(headers.map { HTTPHeader($0.name, $0.value) }), status: status,
            errorCode: code, errorAction: action, resources: resources)
        r.deniedResources = denied
        r.profiles = profiles
        r.retryAfter = retryAfter
        entries.append(r)
    }

    var journal: Journal { Journal(entries) }
}

private let sessions = "/api/v2/REQ/sessions"
private let config = "/api/v2/REQ/configuration"
private let poll = "/api/v2/REQ/profiles/code/ABC"
private let authorize = "/api/v2/REQ/decisions/authorize/MVPD"
private let preauthorize = "/api/v2/REQ/decisions/preauthorize/MVPD"
private let logout = "/api/v2/REQ/logout/MVPD"
private let token = "/o/client/token"

/// Each rule with a journal that passes it and one that breaks it.
private let cases: [(rule: String, pass: J, breaks: J)] = {
    var out: [(String, J, J)] = []
    func pair(_ id: String, _ make: (inout J, Bool) -> Void) {
        var p = J(), b = J()
        make(&p, false)
        make(&b, true)
        out.append((id, p, b))
    }
    pair("v2.registered-application-scoping") { j, bad in
        j.add(
            0, "GET", "/api/v2/REQ/profiles", bad ? 401 : 200, code: bad ? "invalid_access_token_service_provider" : nil
        )
    }
    pair("v2.client-credentials-caching") { j, bad in
        j.add(0, "POST", "/o/client/register", headers: [])
        j.add(100, "POST", token, headers: [])
        if bad { j.add(60_000, "POST", "/o/client/register", headers: []) }
        j.add(70_000, "GET", "/api/v2/REQ/profiles")
    }
    pair("v2.access-token-caching") { j, bad in
        j.add(0, "POST", token, headers: [], params: [.init("client_id", "C")])
        if !bad { j.add(5_000, "GET", "/api/v2/REQ/profiles", 401) }
        j.add(60_000, "POST", token, headers: [], params: [.init("client_id", "C")])
        j.add(70_000, "GET", "/api/v2/REQ/profiles")
    }
    pair("v2.configuration-retrieval") { j, bad in
        j.add(0, "GET", config)
        j.add(5_000, "POST", authorize)
        if bad { j.add(600_000, "GET", config) } else { j.add(600_000, "GET", logout); j.add(700_000, "GET", config) }
    }
    pair("v2.polling-stopping") { j, bad in
        j.add(0, "GET", poll)
        j.add(5_000, "GET", poll)
        j.add(10_000, "POST", authorize)
        if bad { j.add(15_000, "GET", poll) }
    }
    // A v2 poll answers 200 each time: the one that found the profile is the success.
    pair("v2.polling-stopping") { j, bad in
        j.add(0, "GET", poll, profiles: [])
        j.add(5_000, "GET", poll, profiles: ["M"])
        if bad { j.add(10_000, "GET", poll, profiles: ["M"]) }
    }
    pair("v2.polling-configuring") { j, bad in
        j.add(0, "GET", poll)
        j.add(bad ? 1_000 : 3_000, "GET", poll)
    }
    for (id, path) in [("v2.preauthorization-retry", preauthorize), ("v2.authorization-retry", authorize)] {
        pair(id) { j, bad in
            for i in 0..<(bad ? 5 : 4) {
                j.add(Int64(i) * 2_000, "POST", path, 500, code: "network_connection_timeout", action: "retry")
            }
        }
    }
    for (id, header) in [
        ("v2.authorization-header", "Authorization"), ("v2.device-identifier", "AP-Device-Identifier"),
        ("v2.device-info", "X-Device-Info"),
    ] {
        pair(id) { j, bad in
            j.add(0, "GET", "/api/v2/REQ/profiles", headers: bad ? J.good.filter { $0.name != header } : J.good)
        }
    }
    pair("v2.stable-device-identifier") { j, bad in
        j.add(0, "GET", "/api/v2/REQ/profiles")
        var other = J.good
        if bad { other[1] = .init("AP-Device-Identifier", "fingerprint b3RoZXI=") }
        j.add(5_000, "GET", "/api/v2/REQ/profiles", headers: other)
    }
    pair("v2.follow-api-references") { j, bad in
        var params: [J.Pair] = [.init("mvpd", "M"), .init("domainName", "d"), .init("redirectUrl", "u")]
        if bad { params.append(.init("resource", "R")) }
        j.add(0, "POST", sessions, params: params)
    }
    pair("v2.enhanced-error-handling") { j, bad in
        j.add(0, "POST", authorize, 403, code: "authenticated_profile_missing", action: "authentication")
        j.add(2_000, "POST", bad ? authorize : sessions)
    }
    // A decision for another resource after a deny is another call, not a repeat.
    pair("v2.enhanced-error-handling") { j, bad in
        j.add(
            0, "POST", authorize, code: "authorization_denied_by_mvpd", action: "none", resources: ["HBO"],
            denied: ["HBO"])
        j.add(2_000, "POST", authorize, resources: [bad ? "HBO" : "CNN"], denied: bad ? ["HBO"] : [])
    }
    pair("live.refusal-loop") { j, bad in
        for i in 0..<(bad ? 5 : 4) { j.add(Int64(i) * 10_000, "GET", "/authorize", 403, headers: []) }
    }
    pair("v2.access-token-validation") { j, bad in
        j.add(0, "GET", "/api/v2/REQ/profiles", 401)
        if !bad { j.add(1_000, "POST", token, headers: []) }
        j.add(2_000, "GET", "/api/v2/REQ/profiles")
    }
    pair("v2.configuration-caching") { j, bad in
        j.add(0, "GET", config)
        j.add(bad ? 10_000 : 300_000, "GET", config)
    }
    pair("v2.no-automatic-logout") { j, bad in
        j.add(0, "POST", authorize, 403, code: "authorization_denied_by_mvpd", action: "none")
        j.add(bad ? 2_000 : 60_000, "GET", logout)
    }
    pair("throttle.wait-after-429") { j, bad in
        j.add(0, "GET", "/api/v2/REQ/profiles", 429)
        j.add(bad ? 300 : 1_200, "GET", "/api/v2/REQ/profiles")
    }
    // Longer than 1 s when the 429's Retry-After says so.
    pair("throttle.wait-after-429") { j, bad in
        j.add(0, "GET", "/api/v2/REQ/profiles", 429, retryAfter: 3)
        j.add(bad ? 2_000 : 3_000, "GET", "/api/v2/REQ/profiles")
    }
    // A deny among several decisions is a deny.
    pair("v2.no-automatic-logout") { j, bad in
        j.add(0, "POST", authorize, resources: ["CNN", "HBO"], denied: ["HBO"])
        j.add(bad ? 2_000 : 60_000, "GET", logout)
    }
    pair("throttle.within-bucket") { j, bad in
        j.add(0, "GET", "/api/v2/REQ/profiles", bad ? 429 : 200)
    }
    pair("live.session-storm") { j, bad in
        for i in 0..<(bad ? 4 : 3) { j.add(Int64(i) * 10_000, "POST", sessions) }
    }
    return out
}()

@Suite struct RulesTests {
    @Test(arguments: cases.map(\.rule))
    func aClientThatPassesAndOneThatBreaks(_ id: String) throws {
        let rule = try #require(Rules.rule(id), "no rule \(id)")
        let c = try #require(cases.first { $0.rule == id })
        let passed = rule.check(c.pass.journal)
        guard case .passed = passed else { Issue.record("\(id) on the passing client: \(passed)"); return }
        let broken = rule.check(c.breaks.journal)
        guard case .broken(let violations) = broken else {
            Issue.record("\(id) on the breaking client: \(broken)"); return
        }
        #expect(!violations.isEmpty && violations.allSatisfy { !$0.evidence.isEmpty })
    }

    /// REST v2 refuses a decision inside a 200 (`decisions[].error`); the mock's journal gives such an
    /// answer its refusal's code (`LoggedRequest.record`), and the liveness and retry rules count it.
    @Test func aDecisionRefusedInsideA200IsARefusal() throws {
        for id in ["live.refusal-loop", "v2.authorization-retry"] {
            let rule = try #require(Rules.rule(id))
            var loop = J(), granted = J()
            for i in 0..<5 {
                loop.add(
                    Int64(i) * 10_000, "POST", authorize, 200, code: "authorization_denied_by_mvpd", action: "none")
                granted.add(Int64(i) * 10_000, "POST", authorize, 200)
            }
            guard case .broken = rule.check(loop.journal) else { Issue.record("\(id) missed the loop"); continue }
            guard case .passed = rule.check(granted.journal) else {
                Issue.record("\(id) on granted decisions"); continue
            }
        }
        var deny = J()
        deny.add(0, "POST", authorize, 200, code: "authorization_denied_by_mvpd", action: "none")
        deny.add(2_000, "GET", logout)
        let noLogout = try #require(Rules.rule("v2.no-automatic-logout"))
        guard case .broken = noLogout.check(deny.journal) else {
            Issue.record("a logout after a refusal inside a 200"); return
        }
    }

    /// A rule without a case above must be one no journal can show: not applicable on every case.
    @Test func everyRuleWithoutACaseIsNeverJudged() {
        let covered = Set(cases.map(\.rule))
        for rule in Rules.all where !covered.contains(rule.id) {
            for c in cases {
                for j in [c.pass.journal, c.breaks.journal] {
                    guard case .notApplicable = rule.check(j) else {
                        Issue.record("\(rule.id) judged a journal but has no passing and breaking case")
                        return
                    }
                }
            }
        }
    }

    @Test func idsAreUniqueAndEveryRuleCitesItsSource() {
        #expect(Set(Rules.all.map(\.id)).count == Rules.all.count)
        for rule in Rules.all {
            #expect(rule.citation.contains("Checklist") || rule.citation.contains("throttling-mechanism"), "\(rule.id)")
            #expect(!rule.families.isEmpty)
        }
    }

    /// Every mandatory row of the checklist's sections 1-9 has a rule citing it (23 rows).
    @Test func everyMandatoryChecklistRowHasARule() {
        let rows = [
            "Registered Application Scoping", "Client Credentials Caching", "Access Tokens Caching",
            "Configuration Retrieval",
            "TV Provider Selection Caching", "Polling Mechanism Starting", "Polling Mechanism Stopping",
            "Polling Mechanism Configuring", "Profiles Caching", "Preauthorization Decisions Retrieval",
            "Preauthorization Decisions Retrieval Retry", "Preauthorization Decisions Caching",
            "Authorization Decisions Retrieval", "Authorization Decisions Retrieval Retry", "Logout Support",
            "Send Authorization Header", "Send AP-Device-Identifier Header", "Send X-Device-Info Header",
            "Stable Device Identifier", "Follow APIs References", "Enhanced Error Code Handling Support",
            "HTTP Error Handling Support", "Lifecycle Testing",
        ]
        for row in rows {
            #expect(
                Rules.all.contains {
                    $0.severity == .mandatory && $0.citation.contains("Mandatory") && $0.citation.contains("\"\(row)\"")
                }, "\(row)")
        }
    }

    @Test func aRuleThatNeedsAnswersIsNotApplicableWithoutThem() {
        var j = J()
        j.add(0, "GET", "/api/v2/REQ/profiles", nil)
        guard case .notApplicable(let why) = Rules.rule("throttle.within-bucket")!.check(j.journal) else {
            Issue.record("judged without statuses")
            return
        }
        #expect(why.contains("status"))
        // Header rules need no answer.
        guard case .passed = Rules.rule("v2.device-info")!.check(j.journal) else {
            Issue.record("header rule not judged"); return
        }
    }

    /// A new code stops the old one's polling, not the other way round.
    @Test func pollingAnOldCodeAfterANewOneIsTheOldOnesFault() {
        var j = J()
        j.add(0, "GET", poll)
        j.add(5_000, "GET", "/api/v2/REQ/profiles/code/NEW")
        j.add(10_000, "GET", "/api/v2/REQ/profiles/code/NEW")
        j.add(15_000, "GET", poll)
        j.add(20_000, "GET", "/api/v2/REQ/profiles/code/NEW")
        guard case .broken(let violations) = Rules.rule("v2.polling-stopping")!.check(j.journal) else {
            Issue.record("polling an old code after a new one not found")
            return
        }
        #expect(violations.count == 1)
        #expect(violations.first?.evidence.last?.path == poll)
    }

    /// Following an error's action changes the request: a fixed parameter after action none, a new
    /// token after application-registration. Only the same call sent unchanged breaks the rule
    /// (found writing Scenarios/lint/enhanced-error-handling-passes.scenario).
    @Test func aCorrectedRequestFollowsTheErrorsAction() {
        let rule = Rules.rule("v2.enhanced-error-handling")!
        var fixed = J()
        fixed.add(
            0, "POST", sessions, 400, params: [.init("mvpd", "Nowhere")], code: "invalid_parameter_mvpd", action: "none"
        )
        fixed.add(2_000, "POST", sessions, params: [.init("mvpd", "M")])
        guard case .passed = rule.check(fixed.journal) else {
            Issue.record("a fixed parameter judged a repeat"); return
        }
        var renewed = J()
        renewed.add(
            0, "GET", config, 401, code: "invalid_access_token_client_application", action: "application-registration")
        renewed.add(1_000, "POST", token, headers: [])
        var newToken = J.good
        newToken[0] = .init("Authorization", "Bearer T2")
        renewed.add(2_000, "GET", config, headers: newToken)
        guard case .passed = rule.check(renewed.journal) else {
            Issue.record("a call with a new token judged a repeat"); return
        }
        var same = J()
        same.add(
            0, "POST", sessions, 400, params: [.init("mvpd", "Nowhere")], code: "invalid_parameter_mvpd", action: "none"
        )
        same.add(
            2_000, "POST", sessions, 400, params: [.init("mvpd", "Nowhere")], code: "invalid_parameter_mvpd",
            action: "none")
        guard case .broken = rule.check(same.journal) else { Issue.record("the same request again not found"); return }
    }

    /// The SDKs register through DCR too: the REST v2 registration rows do not judge them.
    @Test func registrationRulesNeedARESTv2Client() {
        var j = J()
        j.add(0, "POST", "/o/client/register", headers: [])
        j.add(10_000, "POST", "/o/client/register", headers: [])
        j.add(20_000, "GET", "/adobe-services/config/REQ", headers: [])
        guard case .notApplicable = Rules.rule("v2.client-credentials-caching")!.check(j.journal) else {
            Issue.record("an SDK's registration judged by the REST v2 checklist")
            return
        }
    }

    @Test func reportExitStatusFollowsMandatoryViolations() {
        let storm = cases.first { $0.rule == "live.session-storm" }!
        #expect(LintReport(storm.breaks.journal).exitStatus == 1)
        let bucket = cases.first { $0.rule == "throttle.within-bucket" }!
        let report = LintReport(bucket.breaks.journal)
        #expect(report.verdict("throttle.within-bucket")?.name == "broken")
        #expect(report.exitStatus == 0, "a recommended rule alone does not fail")
        #expect(report.text.contains("warning: throttle.within-bucket"))
        #expect(report.text.contains("#1 @0.000s GET /api/v2/REQ/profiles -> 429"))
        #expect(report.junit.contains("<failure"))
        #expect(report.json.jsonText.contains("\"verdict\":\"broken\""))
    }
}
