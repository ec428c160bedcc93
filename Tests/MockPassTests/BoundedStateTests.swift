import PassModel
import PassXML
import Testing
@testable import MockPass

/// Issue 12, row 4: what the mock keeps for later requests expires and is capped, oldest first.
@Suite struct BoundedStateTests {
    @Test func loginSessionsPastTheCapDropTheOldest() throws {
        var limits = MockLimits.simulated
        limits.loginSessions = 3
        var first = Browser(MockPass(world: sampleWorld(), seed: 1, limits: limits))
        #expect(first.get(loginURL()).status == 200)
        let firstCookie = try #require(first.cookie("JSESSIONID"))
        var mock = first.mock
        var cookies: [String] = [firstCookie]
        for _ in 0..<5 {
            var b = Browser(mock)
            #expect(b.get(loginURL()).status == 200)
            cookies.append(try #require(b.cookie("JSESSIONID")))
            mock = b.mock
        }
        #expect(mock.sdk.loginSessions.count == 3)
        #expect(mock.sdk.loginSessions.value(cookies[0], at: .simulationStart) == nil)
        #expect(mock.sdk.loginSessions.value(cookies[2], at: .simulationStart) == nil)
        #expect(mock.sdk.loginSessions.value(cookies[3], at: .simulationStart) != nil)
        #expect(mock.sdk.loginSessions.value(cookies[5], at: .simulationStart) != nil)

        // The evicted browser's cookie is refused as one the SP never gave out.
        var stranger = Browser(mock)
        stranger.jar = [("JSESSIONID", cookies[0])]
        let answer = stranger.post(
            "https://sp.auth.test" + ServiceRoute.assertionConsumer.path(), [("SAMLResponse", "PA==")])
        #expect(answer.status == 400)
        #expect(answer.bodyText == "400 Bad Request: no login session for this browser\n")
    }

    /// A login that waits past `mock-login-session-ttl` is refused as one the SP never started.
    @Test func anExpiredLoginSessionIsRefusedAsAnUnknownOne() throws {
        var b = Browser(MockPass(world: sampleWorld(), seed: 1))
        let start = b.get(loginURL())
        let sso = b.submit(try onlyForm(start))
        let idp = b.submit(try onlyForm(sso), ["username": "alice", "password": "secret"])
        b.now = b.now + .minutes(31)
        let late = b.submit(try onlyForm(idp))
        #expect(late.status == 400)
        #expect(late.bodyText == "400 Bad Request: no login session for this browser\n")
        #expect(b.mock.sdk.loginSessions.count == 0)

        // Within the TTL, the same login goes through.
        var c = Browser(MockPass(world: sampleWorld(), seed: 1))
        let sso2 = c.submit(try onlyForm(c.get(loginURL())))
        // The wait is at the IdP's login page: the assertion it then issues is fresh (valid 5 minutes).
        c.now = c.now + .minutes(29)
        let idp2 = c.submit(try onlyForm(sso2), ["username": "alice", "password": "secret"])
        #expect(c.submit(try onlyForm(idp2)).status == 302)
    }

    /// An authenticated session lives as long as its token: a day later the same token comes back.
    @Test func anAuthenticatedSessionOutlivesTheLoginTTL() throws {
        var b = Browser(MockPass(world: sampleWorld(), seed: 1))
        #expect(try b.login().status == 302)
        guard case .token(let token) = try b.sessionDevice() else { throw TestFailure("no token") }
        b.now = b.now + .hours(23)
        guard case .token(let again) = try b.sessionDevice() else { throw TestFailure("no token after 23 h") }
        #expect(again == token)
        b.now = b.now + .hours(2)
        #expect(try b.sessionDevice() == .none)
        #expect(b.mock.sdk.issuedAuthn.value(token.guid, at: b.now) == nil)
    }

    @Test func issuedTokensAreCapped() throws {
        var limits = MockLimits.simulated
        limits.authnTokens = 2
        var mock = MockPass(world: sampleWorld(), seed: 1, limits: limits)
        var guids: [String] = []
        for _ in 0..<4 {
            var b = Browser(mock)
            #expect(try b.login().status == 302)
            guard case .token(let token) = try b.sessionDevice() else { throw TestFailure("no token") }
            guids.append(token.guid)
            mock = b.mock
        }
        #expect(mock.sdk.issuedAuthn.count == 2)
        #expect(mock.sdk.issuedAuthn.value(guids[1], at: .simulationStart) == nil)
        #expect(mock.sdk.issuedAuthn.value(guids[3], at: .simulationStart) != nil)
    }

    /// The FIFO of an often-refreshed entry does not grow without bound.
    @Test func refreshingOneEntryKeepsTheStoreSmall() {
        var store = ExpiringStore<String, Int>(capacity: 10)
        for i in 0..<100_000 { store.set("k", i, until: Instant(milliseconds: Int64(i) + 1000)) }
        #expect(store.count == 1)
        #expect(store.value("k", at: Instant(milliseconds: 99_999)) == 99_999)
        store.expire(at: Instant(milliseconds: 200_000))
        #expect(store.count == 0)
    }

    /// Eviction order is insertion order, whatever the keys hash to.
    @Test func evictionIsOldestFirst() {
        var store = ExpiringStore<Int, Int>(capacity: 100)
        for i in 0..<1000 { store.set(i * 7919 % 1000, i, until: ExpiringStore<Int, Int>.forever) }
        let kept = (0..<1000).filter { store.value($0 * 7919 % 1000, at: .simulationStart) != nil }
        #expect(kept == Array(900..<1000))
    }
}

/// Codes and authZ tokens are refused as expired for `mock-expired-memory` past their end, then as
/// unknown, and are gone from the store.
@Suite struct ExpiredMemoryTests {
    @Test func aRegistrationCodeIsForgottenAfterItsMemory() throws {
        var b = Browser(MockPass(world: deviceWorld(), seed: 51))
        let code = try RegistrationCodeTests.makeCode(&b).code
        let check = { (b: inout Browser) in b.engineGet("/api/v1/checkauthn/\(code)?requestor=REQ1&deviceId=tv-1") }
        b.now = b.now + .minutes(31)
        #expect(try errorBody(check(&b)).message == "Registration code expired")
        b.now = b.now + .hours(24)
        let late = check(&b)
        #expect(late.status == 410)
        #expect(try errorBody(late).message == "Unknown registration code")
        #expect(b.mock.sdk.registrationCodes.count == 0)
    }

    @Test func anAuthzTokenIsForgottenAfterItsMemory() throws {
        var b = Browser(MockPass(world: deviceWorld(), seed: 1))
        let authn = try b.loginToken()
        let authz = try authzToken(b.authorize(authn, "CNN"))
        b.now = authz.expires + .minutes(1)
        #expect(try errorBody(b.mediaToken(authz)).message == "Authorization token expired")
        b.now = authz.expires + .hours(25)
        #expect(try errorBody(b.mediaToken(authz)).message == "Unknown authorization token")
        #expect(b.mock.sdk.issuedAuthz.count == 0)
    }
}
