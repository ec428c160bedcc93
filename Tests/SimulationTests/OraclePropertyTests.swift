import Entitlement
import MockPass
import PassModel
import PassXML
import Testing
@testable import Simulation

/// Each property of `PropertySet` alone, fed observations by hand (no oracle, no engine): for each,
/// a sequence it must accept and one with the bug it must catch. A property registered without an
/// entry in `cases` fails `everyRegisteredPropertyHasItsCases`.
@Suite struct OraclePropertyTests {
    static let t0 = Instant.simulationStart
    static let context = OracleContext(world: CallbackOracleTests.world, configuration: EngineConfiguration())
    static let tail: [String?] = ["mobile", "ios", "iOS"]
    static let guidA = String(repeating: "a", count: 32)
    static let guidB = String(repeating: "b", count: 32)

    /// One step of a hand-built sequence: an observation at an instant, with the token model as the
    /// flow model would hold it.
    struct Step {
        var observation: Observation
        var at: Instant = OraclePropertyTests.t0
        var token = TokenModel()
    }

    struct Case {
        var accepts: [Step]
        /// Caught at its last step.
        var rejects: [Step]
    }

    static func preauthorize(_ token: String) -> HTTPRequest {
        .form("https://sp.test/preauthorize", [("authentication_token", token), ("resource_id", "R1")])
    }

    static func sent(_ request: HTTPRequest, askedBeforeLogout: Bool = false) -> Step {
        Step(
            observation: .sent(
                request, authnToken: OracleRequest(request).authnToken ?? .text(""),
                askedBeforeLogout: askedBeforeLogout))
    }

    static let held = TokenModel(
        holder: .token(mvpd: "M1", expires: t0 + .hours(1)), lastGUID: guidA, pastGUIDs: [guidA])

    /// The cases, by property id.
    static let cases: [String: Case] = [
        TrackingProperty.id: Case(
            accepts: [
                Step(
                    observation: .terminal(
                        .setAuthenticationStatus(status: 1, errorCode: ""),
                        next: .sendTrackingData(event: 0, data: ["true", "M1", guidA, "false"] + tail)))
            ],
            rejects: [Step(observation: .terminal(.setAuthenticationStatus(status: 1, errorCode: ""), next: nil))]),
        AuthzDroppedProperty.id: Case(
            accepts: [
                Step(observation: .authnTokenChanged(outstanding: [])),
                Step(observation: .authorizeSent(resource: "R1")),
                Step(observation: .tokenDelivered(resource: "R1")),
            ],
            rejects: [
                Step(observation: .authorizeSent(resource: "R1")),
                Step(observation: .authnTokenChanged(outstanding: [])),
                Step(observation: .tokenDelivered(resource: "R1")),
            ]),
        LogoutTokenProperty.id: Case(
            // A flow asked before the logout may still send the token it is bound to (BEHAVIOR.md, Overlapping calls).
            accepts: [
                sent(preauthorize("<old/>")), Step(observation: .logout),
                sent(preauthorize("<old/>"), askedBeforeLogout: true),
            ],
            rejects: [sent(preauthorize("<old/>")), Step(observation: .logout), sent(preauthorize("<old/>"))]),
        TempPassProperty.id: Case(
            accepts: [
                Step(observation: .authenticated(mvpd: "T", guid: guidA, fresh: true)),
                Step(
                    observation: .authenticated(mvpd: "T", guid: guidB, fresh: true), at: t0 + .minutes(2) + Millis(-1)),
            ],
            rejects: [
                Step(observation: .authenticated(mvpd: "T", guid: guidA, fresh: true)),
                Step(observation: .authenticated(mvpd: "T", guid: guidB, fresh: true), at: t0 + .minutes(2)),
            ]),
        TimersProperty.id: Case(
            accepts: [
                Step(observation: .timerStarted(TimerID(1), at: t0)), Step(observation: .timerFired(TimerID(1))),
                Step(observation: .timerStarted(TimerID(1), at: t0)), Step(observation: .timerCancelled(TimerID(1))),
                Step(observation: .quiescent),
            ],
            rejects: [Step(observation: .timerStarted(TimerID(1), at: t0)), Step(observation: .quiescent)]),
        TTLProperty.id: Case(
            accepts: [
                Step(observation: .checkAnswered(status: 1), at: t0 + .hours(1) + Millis(-1), token: held),
                Step(observation: .checkAnswered(status: 0), at: t0 + .hours(1), token: held),
            ],
            rejects: [Step(observation: .checkAnswered(status: 1), at: t0 + .hours(1), token: held)]),
    ]

    /// What a property finds over `steps`, step by step.
    static func run(
        _ type: any OracleProperty.Type, _ steps: [Step], context: OracleContext = OraclePropertyTests.context
    ) -> [[String]] {
        func go<P: OracleProperty>(_: P.Type) -> [[String]] {
            var property = P()
            return steps.map { step in
                var found: [String] = []
                if P.observes.contains(step.observation.kind) {
                    property.check(step.observation, at: step.at, context: context, token: step.token, found: &found)
                }
                return found
            }
        }
        return go(type)
    }

    /// iOS: `setRequestor` may adopt, through the shared store, the very token a logout retired,
    /// issued again to another app (a TempPass still running; the campaign's false finding, kept as
    /// `regressions/logout-then-adopt-the-temppass-token-another-app-was-issued-again`). tvOS apps
    /// share nothing: there the token is still retired.
    @Test func anIOSAppReconfiguredMayAdoptARetiredTokenAgain() {
        let steps = [
            Self.sent(Self.preauthorize("<old/>")), Step(observation: .logout), Step(observation: .reconfigured),
            Self.sent(Self.preauthorize("<old/>")),
        ]
        #expect(Self.run(LogoutTokenProperty.self, steps).allSatisfy { $0.isEmpty })
        let tvos = OracleContext(world: CallbackOracleTests.world, configuration: EngineConfiguration(platform: .tvos))
        #expect(Self.run(LogoutTokenProperty.self, steps, context: tvos).last?.isEmpty == false)
    }

    /// A token the SP issued again after the logout that retired it (a TempPass still running) may
    /// be sent again; another retired one may not; an issue the oracle could not read excuses all.
    @Test func aTokenIssuedAgainMayBeSentAgain() {
        let token = AuthnToken(
            guid: "g", requestorID: "REQ1", domainName: "adobe.com", expires: Self.t0 + .hours(1),
            mvpdID: "TempPass", deviceID: "d", nameID: "", sessionIndex: "")
        let issued = AuthnTokenXML.build(token)
        let before = [
            Self.sent(Self.preauthorize(issued)), Self.sent(Self.preauthorize("<other/>")), Step(observation: .logout),
        ]
        let again = [Self.sent(Self.preauthorize(issued)), Self.sent(Self.preauthorize("<other/>"))]
        let found = Self.run(LogoutTokenProperty.self, before + [Step(observation: .tokenIssued(token))] + again)
        #expect(found.map(\.isEmpty) == [true, true, true, true, true, false])
        let unread = Self.run(LogoutTokenProperty.self, before + [Step(observation: .tokenIssued(nil))] + again)
        #expect(unread.allSatisfy { $0.isEmpty })
    }

    /// An authorization asked with a token adopted through the shared store at an iOS `setRequestor`
    /// names it, though this app never saw its GUID, once that token was replaced or cleared unseen
    /// (the campaign's false finding, kept as
    /// `regressions/authorization-names-the-token-adopted-at-set-requestor`); without that, an unseen
    /// GUID is caught (and CallbackOracleTests: a replaced token that was seen is no excuse).
    @Test func anAuthorizationMayNameATokenAdoptedAtSetRequestor() {
        var replaced = TokenModel(
            holder: .token(mvpd: "M1", expires: Self.t0 + .hours(1)), lastGUID: Self.guidB, pastGUIDs: [Self.guidB])
        replaced.unseenReplaced = true
        #expect(
            Self.run(
                TrackingProperty.self,
                [Step(observation: .authorizedWith(mvpd: "M1", guid: Self.guidA), token: replaced)]
            ).allSatisfy { $0.isEmpty })
        replaced.unseenReplaced = false
        #expect(
            Self.run(
                TrackingProperty.self,
                [Step(observation: .authorizedWith(mvpd: "M1", guid: Self.guidA), token: replaced)]
            ).last?.isEmpty == false)
    }

    @Test func everyRegisteredPropertyHasItsCases() {
        let ids = PropertySet.all.map { $0.id }
        #expect(Set(ids) == Set(OraclePropertyTests.cases.keys))
        #expect(Set(ids).count == ids.count, "one entry per property")
        for type in PropertySet.all { #expect(!type.clause.isEmpty, "\(type.id) names the clause it checks") }
    }

    @Test(arguments: PropertySet.all.map { $0.id })
    func eachPropertyAcceptsTheFaithfulSequenceAndCatchesItsBug(_ id: String) throws {
        let type = try #require(PropertySet.all.first { $0.id == id })
        let c = try #require(OraclePropertyTests.cases[id])
        let accepted = OraclePropertyTests.run(type, c.accepts)
        #expect(accepted.allSatisfy { $0.isEmpty }, "\(accepted)")
        let found = OraclePropertyTests.run(type, c.rejects)
        #expect(found.dropLast().allSatisfy { $0.isEmpty }, "nothing before the bug")
        #expect(found.last?.isEmpty == false, "the bug is caught")
    }

    /// Registration: every stored property of `PropertySet` is in `all`, and judges through
    /// `observe` (its `judge` line): its bug, fed to the whole set, is reported under its id.
    @Test func everyPropertyIsRegisteredAndJudgesThroughTheSet() {
        let stored = Mirror(reflecting: PropertySet()).children.map {
            ($0.value as? any OracleProperty).map { type(of: $0).id }
        }
        #expect(stored == PropertySet.all.map { $0.id })
        for (id, c) in OraclePropertyTests.cases {
            func through(_ steps: [Step]) -> [String] {
                var set = PropertySet()
                var violations: [InvariantViolation] = []
                for step in steps {
                    set.observe(
                        step.observation, at: step.at, context: OraclePropertyTests.context, token: step.token,
                        app: "app", into: &violations)
                }
                return violations.compactMap(\.property)
            }
            #expect(!through(c.accepts).contains(id), "\(id) accepts its faithful sequence in the set")
            #expect(through(c.rejects).contains(id), "\(id) catches its bug through the set")
        }
    }
}
