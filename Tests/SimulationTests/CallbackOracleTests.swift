import Entitlement
import MockPass
import PassModel
import PassXML
import Testing
@testable import Simulation

/// The observational oracle on hand-built traces: for each invariant and property, the faithful
/// trace passes and a trace with the bug injected is caught.
@Suite struct CallbackOracleTests {
    static let t0 = Instant.simulationStart
    static let world = World(
        serviceProviders: [
            World.ServiceProvider(
                name: "sp", url: "https://sp.test",
                mvpds: [
                    MVPD(id: "M1", displayName: "M1"), MVPD(id: "M2", displayName: "M2"),
                    MVPD(id: "T", displayName: "T"),
                ])
        ],
        users: [
            World.User(name: "u1", password: "p", mvpdID: "M1", allow: ["R1"]),
            World.User(name: "u2", password: "p", mvpdID: "M2", allow: ["R2"]),
        ],
        requestors: [World.Requestor(id: "REQ")],
        tempPasses: [World.TempPass(mvpdID: "T", ttl: .minutes(2))])
    static let tail: [String?] = ["mobile", "ios", "iOS"]
    static let guidA = String(repeating: "a", count: 32)
    static let guidB = String(repeating: "b", count: 32)

    struct Trace {
        var oracle = CallbackOracle(
            app: "app",
            context: OracleContext(
                world: CallbackOracleTests.world,
                configuration: EngineConfiguration()))
        var now = CallbackOracleTests.t0
        var nextID = 0

        var found: [String] { oracle.violations.map(\.key) }

        mutating func call(_ c: Call, _ callbacks: [Callback] = [], sends: [HTTPRequest] = []) {
            var actions: [EngineAction] = callbacks.map { .deliver($0) }
            for r in sends { actions.append(send(r)) }
            oracle.observe(.call(c), actions, at: now)
        }

        var outstanding: [RequestID] = []

        /// The answer to the oldest request out (or to one the trace never showed).
        mutating func response(_ callbacks: [Callback], sends: [HTTPRequest] = [], result: HTTPResult = .timeout) {
            nextID += 1
            let id = outstanding.isEmpty ? RequestID(10_000 + nextID) : outstanding.removeFirst()
            var actions: [EngineAction] = callbacks.map { .deliver($0) }
            for r in sends { actions.append(send(r)) }
            oracle.observe(.response(id, result), actions, at: now)
        }

        mutating func send(_ r: HTTPRequest) -> EngineAction {
            nextID += 1
            outstanding.append(RequestID(nextID))
            return .send(RequestID(nextID), r)
        }

        mutating func configured() {
            call(.setRequestor(requestorID: "REQ", serviceProviders: nil))
            response([.setRequestorComplete(status: 1)])
        }

        /// A login through the dialog that succeeds with a fresh token.
        mutating func login(_ mvpd: String, guid: String, authorization: String? = nil) {
            let start: Call =
                authorization.map { .getAuthorization(resource: $0, data: nil) }
                ?? .getAuthentication(forceAuthn: false, data: nil, filter: nil)
            call(start, [.displayProviderDialog([])])
            response(
                [
                    .setAuthenticationStatus(status: 1, errorCode: ""),
                    .sendTrackingData(event: 0, data: ["true", mvpd, guid, "false"] + CallbackOracleTests.tail),
                ],
                sends: authorization.map { [Trace.authorize($0)] } ?? [])
        }

        static func authzTracking(_ mvpd: String, _ guid: String, cached: Bool = false) -> Callback {
            .sendTrackingData(
                event: 1, data: ["true", mvpd, guid, cached ? "true" : "false", nil, nil] + CallbackOracleTests.tail)
        }

        static func authorize(_ r: String, token: String = "tok") -> HTTPRequest {
            .form("https://sp.test/authorizeDevice", [("resource_id", r), ("authentication_token", token)])
        }
    }

    static let failedAuthN = Callback.sendTrackingData(event: 0, data: ["false", nil, nil, nil] + tail)

    // MARK: Invariant 5: queued calls, judged from the order of callbacks

    @Test func aQueuedCallIsAnsweredAfterSetRequestorCompleteNeverBefore() {
        var good = Trace()
        good.call(.setRequestor(requestorID: "REQ", serviceProviders: nil))
        good.call(.checkAuthentication)
        good.response([
            .setRequestorComplete(status: 1),
            .setAuthenticationStatus(status: 0, errorCode: Constants.userNotAuthenticatedError),
            CallbackOracleTests.failedAuthN,
        ])
        #expect(good.found.isEmpty)

        var early = Trace()
        early.call(.setRequestor(requestorID: "REQ", serviceProviders: nil))
        early.call(.checkAuthentication)
        early.response([
            .setAuthenticationStatus(status: 0, errorCode: Constants.userNotAuthenticatedError),
            CallbackOracleTests.failedAuthN, .setRequestorComplete(status: 1),
        ])
        #expect(early.found.first == "invariant 5")

        var failed = Trace()
        failed.call(.setRequestor(requestorID: "REQ", serviceProviders: nil))
        failed.call(.checkPreauthorizedResources(["R1"], cache: true))
        failed.response([.setRequestorComplete(status: 0)])
        failed.response([.preauthorizedResources([])])
        #expect(failed.found == ["invariant 5"], "still queued after setRequestorComplete(0)")
    }

    // MARK: Invariant 1: every setRequestorComplete answers an open setRequestor

    @Test func setRequestorCompleteAnswersAnOpenSetRequestor() {
        var good = Trace()
        good.configured()
        good.oracle.settled()
        #expect(good.found.isEmpty)

        var stray = Trace()
        stray.configured()
        stray.response([.setRequestorComplete(status: 1)])
        #expect(stray.found == ["invariant 1"])

        var open = Trace()
        open.call(.setRequestor(requestorID: "REQ", serviceProviders: nil))
        open.oracle.settled()
        #expect(open.found == ["invariant 1"], "never completed")
    }

    // MARK: Invariant 2: a check is answered at once

    @Test func checkAuthenticationIsAnsweredAtOnce() {
        var good = Trace()
        good.configured()
        good.call(
            .checkAuthentication,
            [
                .setAuthenticationStatus(status: 0, errorCode: Constants.userNotAuthenticatedError),
                CallbackOracleTests.failedAuthN,
            ])
        #expect(good.found.isEmpty)
        var late = Trace()
        late.configured()
        late.call(.checkAuthentication)
        #expect(late.found == ["invariant 2"])
    }

    // MARK: REST API v2: a check asks the profile (docs/CONFORMANCE.md, choice 68)

    static func v2Trace() -> Trace {
        var t = Trace()
        t.oracle = CallbackOracle(
            app: "app", context: OracleContext(world: world, configuration: EngineConfiguration(wire: .restV2)))
        return t
    }
    static let profileRequest = HTTPRequest(method: "GET", url: "https://sp.test/api/v2/REQ/profiles/M1")
    static func checkSuccess(_ guid: String) -> [Callback] {
        [
            .setAuthenticationStatus(status: 1, errorCode: ""),
            .sendTrackingData(event: 0, data: ["true", "M1", guid, "true"] + tail),
        ]
    }

    /// The user signed in at the MVPD, then the app cancelled the login: the SP keeps the profile, and
    /// a check still out finds it (`wire-v2/check-finds-the-profile-of-a-cancelled-login`); after a
    /// logout of the token held, with no login since, a check's success is still caught.
    @Test func aV2CheckMayFindTheProfileOfALoginTheAppGaveUp() {
        var good = CallbackOracleTests.v2Trace()
        good.configured()
        good.call(.getAuthentication(forceAuthn: false, data: nil, filter: nil), [.displayProviderDialog([])])
        good.call(.checkAuthentication, sends: [CallbackOracleTests.profileRequest])
        good.call(
            .setSelectedProvider("Nope"),
            [
                .setAuthenticationStatus(status: 0, errorCode: Constants.providerNotSelectedError),
                CallbackOracleTests.failedAuthN,
            ])
        good.response(CallbackOracleTests.checkSuccess(CallbackOracleTests.guidA))
        #expect(good.found.isEmpty)

        var bad = CallbackOracleTests.v2Trace()
        bad.configured()
        bad.login("M1", guid: CallbackOracleTests.guidA)
        bad.call(.logout, [.navigateToUrl("https://sp.test/logout", useSVC: nil)])
        bad.call(.checkAuthentication, sends: [CallbackOracleTests.profileRequest])
        bad.response(CallbackOracleTests.checkSuccess(CallbackOracleTests.guidA))
        #expect(bad.found == ["invariant 6"])
    }

    /// A check and a login queued behind `setRequestor`: on v2 the check asks its profile, so the
    /// success at the drain is the login's from the store, and the check's comes a round trip later
    /// (`wire-v2/queued-check-asks-the-profile-after-set-requestor`).
    @Test func aDrainedV2CheckAnswersNoSuccessAtOnce() {
        var good = CallbackOracleTests.v2Trace()
        good.configured()
        good.login("M1", guid: CallbackOracleTests.guidA)
        good.call(.setRequestor(requestorID: "REQ", serviceProviders: nil))
        good.call(.checkAuthentication)
        good.call(.getAuthentication(forceAuthn: false, data: nil, filter: nil))
        good.response(
            [.setRequestorComplete(status: 1)] + CallbackOracleTests.checkSuccess(CallbackOracleTests.guidA),
            sends: [CallbackOracleTests.profileRequest])
        good.response(CallbackOracleTests.checkSuccess(CallbackOracleTests.guidA))
        #expect(good.found.isEmpty)
    }

    // MARK: Invariant 7: Apple's picker balanced

    @Test func everyPickerIsDismissedOnceAndALoginEndedUnderItOwesTheDismissal() {
        let picker = Callback.presentTvProviderDialog(shown: [], featured: [])
        let dismiss = Callback.dismissTvProviderDialog(shown: [], featured: [])
        var good = Trace()
        good.configured()
        good.call(.getAuthentication(forceAuthn: false, data: nil, filter: nil), [picker])
        good.call(.logout, [dismiss, .navigateToUrl(Constants.adobePassRedirectURL, useSVC: nil)])
        #expect(good.found.isEmpty)

        var twice = Trace()
        twice.configured()
        twice.call(.getAuthentication(forceAuthn: false, data: nil, filter: nil), [picker, picker])
        #expect(twice.found == ["invariant 7"])

        var leftUp = Trace()
        leftUp.configured()
        leftUp.call(.getAuthentication(forceAuthn: false, data: nil, filter: nil), [picker])
        leftUp.call(.logout, [.navigateToUrl(Constants.adobePassRedirectURL, useSVC: nil)])
        #expect(leftUp.found == ["invariant 7"], "the login ended under the picker owes its dismissal")
    }

    /// `regressions/queued-authorization-held-for-an-expired-access-token-then-a-picker`: a drained
    /// authorization that waits behind the access-token request starts with it, so the picker the
    /// next drained call shows is that login's; a login that ends under the picker is still caught.
    @Test func aDrainedAuthorizationHeldForTheAccessTokenIsNotThePickersLogin() {
        let picker = Callback.presentTvProviderDialog(shown: [], featured: [])
        let token = HTTPRequest.form("https://sp.test/o/client/token", [("grant_type", "client_credentials")])
        func drained(_ after: [Callback]) -> Trace {
            var t = Trace()
            t.configured()
            t.login("M1", guid: CallbackOracleTests.guidA)
            t.call(.setRequestor(requestorID: "REQ", serviceProviders: nil))
            t.call(.getAuthorization(resource: "R1", data: nil))
            t.call(.getAuthentication(forceAuthn: true, data: nil, filter: nil))
            t.nextID += 1
            let configuration = RequestID(t.nextID)
            t.nextID += 1
            t.oracle.observe(
                .response(t.outstanding.isEmpty ? configuration : t.outstanding.removeFirst(), .timeout),
                [.deliver(.setRequestorComplete(status: 1)), .send(RequestID(t.nextID), token), .deliver(picker)],
                at: t.now)
            t.outstanding.append(RequestID(t.nextID))
            t.response([], sends: [Trace.authorize("R1")])
            t.response(after)
            return t
        }
        let good = drained(
            [
                .tokenRequestFailed(resource: "R1", errorCode: Constants.userNotAuthorizedError, details: ""),
                .sendTrackingData(
                    event: 1,
                    data: ["false", nil, nil, nil, Constants.userNotAuthorizedError, ""] + CallbackOracleTests.tail),
            ])
        #expect(good.found.isEmpty, "\(good.found)")
        var leftUp = good
        leftUp.call(.logout, [.navigateToUrl(Constants.adobePassRedirectURL, useSVC: nil)])
        #expect(leftUp.found == ["invariant 7"], "the picker's login ended by logout owes its dismissal")
    }

    // MARK: Invariant 7 within one input; 3's superseded getAuthorization

    @Test func nothingOfALoginAfterItsCancellationInTheSameInput() {
        var good = Trace()
        good.configured()
        good.call(.getAuthentication(forceAuthn: false, data: nil, filter: nil), [.displayProviderDialog([])])
        good.call(
            .setSelectedProvider(nil),
            [
                .setAuthenticationStatus(status: 0, errorCode: Constants.providerNotSelectedError),
                CallbackOracleTests.failedAuthN,
            ])
        #expect(good.found.isEmpty)

        var bad = Trace()
        bad.configured()
        bad.call(.getAuthentication(forceAuthn: false, data: nil, filter: nil), [.displayProviderDialog([])])
        bad.call(
            .setSelectedProvider(nil),
            [
                .setAuthenticationStatus(status: 0, errorCode: Constants.providerNotSelectedError),
                CallbackOracleTests.failedAuthN, .navigateToUrl("https://sp.test/x", useSVC: nil),
            ])
        #expect(bad.found == ["invariant 7"])
    }

    @Test func aSupersededGetAuthorizationEndsWithNothing() {
        var good = Trace()
        good.configured()
        good.login("M1", guid: CallbackOracleTests.guidA, authorization: "R1")
        good.response([.setToken(token: "m", resource: "R1"), Trace.authzTracking("M1", CallbackOracleTests.guidA)])
        #expect(good.found.isEmpty)

        var bad = Trace()
        bad.configured()
        bad.call(.getAuthorization(resource: "R1", data: nil), [.displayProviderDialog([])])
        bad.call(.getAuthentication(forceAuthn: false, data: nil, filter: nil), [.displayProviderDialog([])])
        bad.response(
            [
                .setAuthenticationStatus(status: 1, errorCode: ""),
                .sendTrackingData(
                    event: 0, data: ["true", "M1", CallbackOracleTests.guidA, "false"] + CallbackOracleTests.tail),
            ],
            sends: [Trace.authorize("R1")])
        bad.response([.setToken(token: "m", resource: "R1"), Trace.authzTracking("M1", CallbackOracleTests.guidA)])
        #expect(bad.found == ["invariant 3"])
    }

    @Test func aLoginStatusNobodyWaitsForIsCaught() {
        var bad = Trace()
        bad.configured()
        bad.login("M1", guid: CallbackOracleTests.guidA)
        bad.response([
            .setAuthenticationStatus(status: 1, errorCode: ""),
            .sendTrackingData(
                event: 0, data: ["true", "M1", CallbackOracleTests.guidA, "false"] + CallbackOracleTests.tail),
        ])
        #expect(bad.found == ["invariant 2"])
    }

    // MARK: Invariant 4: answers match calls

    @Test func anAnswerNoCallAskedForIsCaught() {
        var good = Trace()
        good.configured()
        good.call(.getSelectedProvider, [.selectedProvider(nil)])
        #expect(good.found == [])
        var bad = Trace()
        bad.configured()
        bad.response([.selectedProvider(nil)])
        #expect(bad.found == ["invariant 4"])
    }

    // MARK: Invariant 6: another user's data

    @Test func preauthorizationNamesOnlyWhatTheTokensUserMaySee() {
        var good = Trace()
        good.configured()
        good.login("M1", guid: CallbackOracleTests.guidA)
        good.call(.checkPreauthorizedResources(["R1", "R2"], cache: true))
        good.response([.preauthorizedResources(["R1"])])
        #expect(good.found.isEmpty)

        var bad = Trace()
        bad.configured()
        bad.login("M2", guid: CallbackOracleTests.guidB)
        bad.call(.checkPreauthorizedResources(["R1", "R2"], cache: true))
        bad.response([.preauthorizedResources(["R1", "R2"])])
        #expect(bad.found == ["invariant 6"], "R1 is u1's, the token is u2's")

        var cleared = Trace()
        cleared.configured()
        cleared.login("M1", guid: CallbackOracleTests.guidA)
        cleared.call(.logout, [.navigateToUrl("https://sp.test/logout", useSVC: nil)])
        cleared.call(.checkPreauthorizedResources(["R1"], cache: true), [.preauthorizedResources(["R1"])])
        #expect(cleared.found == ["invariant 6"], "a cache that outlived the logout")
    }

    @Test func setTokenAfterLogoutIsCaught() {
        var bad = Trace()
        bad.configured()
        bad.login("M1", guid: CallbackOracleTests.guidA)
        bad.call(.checkAuthorization(resource: "R1", data: nil), sends: [Trace.authorize("R1")])
        bad.call(.logout, [.navigateToUrl("https://sp.test/logout", useSVC: nil)])
        bad.response([.setToken(token: "m", resource: "R1"), Trace.authzTracking("M1", CallbackOracleTests.guidA)])
        #expect(bad.found == ["invariant 6"])
    }

    // MARK: Tracking

    @Test func trackingComesRightAfterItsTerminalWithTheTablesFields() {
        var good = Trace()
        good.configured()
        good.call(
            .checkAuthorization(resource: "R1", data: nil),
            [
                .tokenRequestFailed(resource: "R1", errorCode: Constants.userNotAuthenticatedError, details: ""),
                .sendTrackingData(
                    event: 1,
                    data: ["false", nil, nil, nil, Constants.userNotAuthenticatedError, ""] + CallbackOracleTests.tail),
            ])
        #expect(good.found.isEmpty)

        var missing = Trace()
        missing.configured()
        missing.call(
            .checkAuthentication, [.setAuthenticationStatus(status: 0, errorCode: Constants.userNotAuthenticatedError)])
        #expect(missing.found == ["property tracking"])

        var wrongDetails = Trace()
        wrongDetails.configured()
        wrongDetails.call(
            .checkAuthorization(resource: "R1", data: nil),
            [
                .tokenRequestFailed(resource: "R1", errorCode: Constants.userNotAuthorizedError, details: "No"),
                .sendTrackingData(
                    event: 1,
                    data: ["false", nil, nil, nil, Constants.userNotAuthorizedError, nil] + CallbackOracleTests.tail),
            ])
        #expect(wrongDetails.found == ["property tracking"])

        var wrongOS = Trace()
        wrongOS.configured()
        wrongOS.call(
            .checkAuthentication,
            [
                .setAuthenticationStatus(status: 0, errorCode: Constants.userNotAuthenticatedError),
                .sendTrackingData(event: 0, data: ["false", nil, nil, nil, "mobile", "ios", "tvOS"]),
            ])
        #expect(wrongOS.found == ["property tracking"])

        var stray = Trace()
        stray.configured()
        stray.call(.getSelectedProvider, [.selectedProvider(nil), CallbackOracleTests.failedAuthN])
        #expect(stray.found == ["property tracking"])

        var guid = Trace()
        guid.configured()
        guid.login("M1", guid: "NOT-A-HASH")
        #expect(guid.found == ["property tracking"])
    }

    // MARK: authZ tokens dropped with the authN token; the logged-out token never sent again

    @Test func everyAuthZTokenIsDroppedWhenTheAuthNTokenChanges() {
        var good = Trace()
        good.configured()
        good.login("M1", guid: CallbackOracleTests.guidA)
        good.call(.getAuthorization(resource: "R1", data: nil), sends: [Trace.authorize("R1")])
        good.response([.setToken(token: "m", resource: "R1"), Trace.authzTracking("M1", CallbackOracleTests.guidA)])
        good.call(.getAuthorization(resource: "R1", data: nil))
        good.response([
            .setToken(token: "m", resource: "R1"), Trace.authzTracking("M1", CallbackOracleTests.guidA, cached: true),
        ])
        #expect(good.found.isEmpty, "the same authN token: the cached authZ token serves")

        var bad = good
        bad.login("M1", guid: CallbackOracleTests.guidB)
        bad.call(.getAuthorization(resource: "R1", data: nil))
        bad.response([
            .setToken(token: "m", resource: "R1"), Trace.authzTracking("M1", CallbackOracleTests.guidB, cached: true),
        ])
        #expect(bad.found == ["property authz-dropped"])
    }

    @Test func noRequestAfterLogoutCarriesTheOldToken() {
        var good = Trace()
        good.configured()
        good.call(
            .checkPreauthorizedResources(["R1"], cache: true),
            sends: [
                .form(
                    "https://sp.test/preauthorize", [("authentication_token", "<old token/>"), ("resource_id", "R1")])
            ])
        good.response([.preauthorizedResources([])])
        good.call(.logout, [.navigateToUrl(Constants.adobePassRedirectURL, useSVC: nil)])
        good.call(
            .checkPreauthorizedResources(["R1"], cache: true),
            sends: [
                .form(
                    "https://sp.test/preauthorize", [("authentication_token", "<new token/>"), ("resource_id", "R1")])
            ])
        #expect(good.found.isEmpty)
        var bad = good
        bad.call(
            .checkPreauthorizedResources(["R1"], cache: true),
            sends: [
                .form(
                    "https://sp.test/preauthorize", [("authentication_token", "<old token/>"), ("resource_id", "R1")])
            ])
        #expect(bad.found == ["property logout-token"])
    }

    /// A flow asked before the logout is bound to the token it was asked with (BEHAVIOR.md,
    /// Overlapping calls): its request may leave after the logout, sent once more after a 401 (with
    /// a new access token, BEHAVIOR.md, Client registration) or held until an access token came.
    /// `passim fuzz --runs 30000 --seed 12` found both on the reference.
    @Test func aRequestOfAFlowAskedBeforeTheLogoutMayLeaveAfterIt() {
        let old: HTTPRequest = .form(
            "https://sp.test/preauthorize", [("authentication_token", "<old token/>"), ("resource_id", "R1")])
        let unauthorized = HTTPResult.response(HTTPResponse(status: 401, contentType: "text/plain", text: ""))
        let renewal: HTTPRequest = .form("https://sp.test/o/client/token", [("grant_type", "client_credentials")])
        var resent = Trace()
        resent.configured()
        resent.call(.checkPreauthorizedResources(["R1"], cache: true), sends: [old])
        resent.call(.logout, [.navigateToUrl(Constants.adobePassRedirectURL, useSVC: nil)])
        resent.response([], sends: [renewal], result: unauthorized)
        resent.response([], sends: [old])
        resent.response([.preauthorizedResources([])])
        #expect(resent.found.isEmpty)

        var held = Trace()
        held.configured()
        held.call(.checkPreauthorizedResources(["R1"], cache: true), sends: [old])
        held.response([.preauthorizedResources([])])
        held.call(.checkPreauthorizedResources(["R1"], cache: true), sends: [renewal])
        held.call(.logout, [.navigateToUrl(Constants.adobePassRedirectURL, useSVC: nil)])
        held.response([], sends: [old])
        held.response([.preauthorizedResources([])])
        #expect(held.found.isEmpty)

        var new = resent
        new.call(.checkPreauthorizedResources(["R1"], cache: true), sends: [old])
        #expect(new.found == ["property logout-token"], "a flow asked after the logout")

        var waitedAfter = held
        waitedAfter.call(.checkPreauthorizedResources(["R1"], cache: true), sends: [renewal])
        waitedAfter.response([], sends: [old])
        #expect(waitedAfter.found == ["property logout-token"], "no flow of before the logout is open")
    }

    /// After a setRequestor, an authorization naming a token this app saw before may be bound to it
    /// (asked before): it says nothing of the token held now (`passim fuzz --time 10m --seed 30`).
    @Test func anAuthorizationBoundToTheOldTokenSaysNothingOfTheOneAdopted() {
        let guidC = String(repeating: "c", count: 32)
        let guidD = String(repeating: "d", count: 32)
        var good = Trace()
        good.configured()
        good.login("M1", guid: CallbackOracleTests.guidA)
        good.call(.getAuthorization(resource: "R1", data: nil), sends: [Trace.authorize("R1")])
        good.configured()
        good.call(.getAuthorization(resource: "R2", data: nil), sends: [Trace.authorize("R2")])
        good.response([.setToken(token: "m", resource: "R1"), Trace.authzTracking("M1", CallbackOracleTests.guidA)])
        good.response([.setToken(token: "m", resource: "R2"), Trace.authzTracking("M2", guidC)])
        #expect(good.found.isEmpty)

        var bad = good
        bad.call(.getAuthorization(resource: "R2", data: nil), sends: [Trace.authorize("R2")])
        bad.response([.setToken(token: "m", resource: "R2"), Trace.authzTracking("M2", guidD)])
        #expect(bad.found == ["property tracking"], "a GUID neither held nor replaced")
    }

    /// `regressions/authorization-asked-before-a-second-set-requestor`: an authorization asked
    /// between two `setRequestor`s may name a token adopted at the first and never named; the one
    /// asked after the second still names the token held, and a wrong GUID there is caught.
    @Test func anAuthorizationAskedBeforeASecondSetRequestorSaysNothingOfTheTokenHeld() {
        let guidC = String(repeating: "c", count: 32)
        var good = Trace()
        good.configured()
        good.call(.getAuthorization(resource: "R1", data: nil), sends: [Trace.authorize("R1")])
        good.configured()
        good.call(.checkAuthorization(resource: "R2", data: nil), sends: [Trace.authorize("R2")])
        good.response([.setToken(token: "m", resource: "R1"), Trace.authzTracking("M1", CallbackOracleTests.guidA)])
        good.response([.setToken(token: "m", resource: "R2"), Trace.authzTracking("M1", CallbackOracleTests.guidB)])
        #expect(good.found.isEmpty, "the first names the token adopted at the first setRequestor")

        var bad = good
        bad.call(.checkAuthorization(resource: "R2", data: nil), sends: [Trace.authorize("R2")])
        bad.response([.setToken(token: "m", resource: "R2"), Trace.authzTracking("M1", guidC)])
        #expect(bad.found == ["property tracking"], "asked after: the token held is the second's")
    }

    // MARK: TempPass

    @Test func aUsedUpTempPassNeverAuthenticatesAgain() {
        var good = Trace()
        good.configured()
        good.login("T", guid: CallbackOracleTests.guidA)
        good.now = CallbackOracleTests.t0 + .minutes(1)
        good.login("T", guid: CallbackOracleTests.guidB)
        #expect(good.found.isEmpty, "within its two minutes")
        var bad = good
        bad.now = CallbackOracleTests.t0 + .minutes(2)
        bad.login("T", guid: CallbackOracleTests.guidA)
        #expect(bad.found == ["property temppass"])
    }

    // MARK: Timers

    @Test func everyTimerIsCancelledOrFires() {
        var good = Trace()
        good.oracle.observe(
            .call(.setOptions([])),
            [.startTimer(TimerID(1), at: CallbackOracleTests.t0), .startTimer(TimerID(2), at: CallbackOracleTests.t0)],
            at: CallbackOracleTests.t0)
        good.oracle.observe(.timer(TimerID(1)), [.cancelTimer(TimerID(2))], at: CallbackOracleTests.t0)
        good.oracle.quiescent()
        #expect(good.found.isEmpty)

        var reused = Trace()
        reused.oracle.observe(
            .timer(TimerID(9)),
            [.startTimer(TimerID(1), at: CallbackOracleTests.t0), .startTimer(TimerID(1), at: CallbackOracleTests.t0)],
            at: CallbackOracleTests.t0)
        #expect(reused.found == ["property timers"])

        var unknown = Trace()
        unknown.oracle.observe(
            .timer(TimerID(9)), [.startTimer(TimerID(1), at: CallbackOracleTests.t0)], at: CallbackOracleTests.t0)
        unknown.oracle.observe(.timer(TimerID(1)), [.cancelTimer(TimerID(1))], at: CallbackOracleTests.t0)
        #expect(unknown.found == ["property timers"], "cancelled after it fired")

        var leaked = Trace()
        leaked.oracle.observe(
            .timer(TimerID(9)), [.startTimer(TimerID(1), at: CallbackOracleTests.t0 + .hours(10))],
            at: CallbackOracleTests.t0)
        leaked.oracle.quiescent()
        #expect(leaked.found == ["property timers"])
    }

    // MARK: TTL boundaries

    @Test func aTokenIsValidUntilTtlMinusOneMillisecondAndGoneAtTtl() {
        let expires = CallbackOracleTests.t0 + .hours(1)
        let token = AuthnToken(
            guid: "g", requestorID: "REQ", domainName: "", expires: expires, mvpdID: "M1",
            deviceID: "d", nameID: "n", sessionIndex: "s")
        let body = SessionDeviceXML.build(.token(token))
        func run(at: Instant, status: Int) -> [String] {
            var t = Trace()
            t.configured()
            t.call(.getAuthentication(forceAuthn: false, data: nil, filter: nil), [.displayProviderDialog([])])
            t.response(
                [
                    .setAuthenticationStatus(status: 1, errorCode: ""),
                    .sendTrackingData(
                        event: 0, data: ["true", "M1", CallbackOracleTests.guidA, "false"] + CallbackOracleTests.tail),
                ],
                result: .response(HTTPResponse(status: 200, contentType: "application/xml", text: body)))
            t.now = at
            let tracking: Callback =
                status == 1
                ? .sendTrackingData(
                    event: 0, data: ["true", "M1", CallbackOracleTests.guidA, "true"] + CallbackOracleTests.tail)
                : CallbackOracleTests.failedAuthN
            t.call(
                .checkAuthentication,
                [
                    .setAuthenticationStatus(
                        status: status, errorCode: status == 1 ? "" : Constants.userNotAuthenticatedError), tracking,
                ])
            return t.found
        }
        #expect(run(at: expires + Millis(-1), status: 1).isEmpty)
        #expect(run(at: expires, status: 0).isEmpty)
        #expect(run(at: expires, status: 1) == ["property ttl"], "an inclusive expiry")
        #expect(run(at: expires + Millis(-1), status: 0) == ["property ttl"], "an expiry one millisecond early")
    }
}
