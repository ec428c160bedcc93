import PassModel
import Testing
@testable import MockPass

/// The requests of `Fixtures/hostile/requests/` that attack what REST v2 and client registration keep
/// (the folder's README): each sent as a client would, with the client's own headers added.
@Suite struct RESTv2HostileRequestTests {
    /// A fixture request with `{CODE}` replaced and `headers` (the client's) added to its own.
    static func request(_ name: String, code: String = "", headers: HTTPHeaders = []) throws -> HTTPRequest {
        var r = try PreparedRequestTests.hostileRequest(name)
        r.url = r.url.replacingOccurrences(of: "{CODE}", with: code)
        r.headers.fields = headers.fields + r.headers.fields
        return r
    }

    /// SplitMix64's output function undone: the state that drew `value`.
    static func unmix(_ value: UInt64) -> UInt64 {
        var z = value ^ (value >> 31) ^ (value >> 62)
        z = z &* 0x3196_42B2_D24D_8EC3
        z = z ^ (z >> 27) ^ (z >> 54)
        z = z &* 0x96DE_1B17_3F11_9089
        return z ^ (z >> 30) ^ (z >> 60)
    }

    /// A client of one requestor registers (the fixture), another requestor's client then registers and
    /// gets its access token; the first guesses that token from its own `client_id`. A seeded mock
    /// (`passim serve --seed`, for tests only) gives it away in one guess; an unseeded one, the
    /// server's default, does not, and the guess is refused.
    @Test(arguments: [UInt64?.none, 26])
    func aClientCannotGuessAnotherRequestorsToken(_ seed: UInt64?) throws {
        var b = Browser(MockPass(world: v2World(), seed: seed))
        let registered = b.send(try Self.request("dcr-register-other-requestor.txt"), withCookies: false)
        #expect(registered.status == 201)
        let clientID = try #require(try Value(jsonText: registered.bodyText)["client_id"]?.stringValue)
        let victim = try b.accessToken(statement: "statement-v2")

        // The attacker's id is two draws, its secret three, the victim's registration five: its token is
        // the four draws after those.
        var guess = SeededRandom(seed: Self.unmix(try #require(UInt64(clientID.prefix(16), radix: 16))))
        for _ in 0..<9 { _ = guess.next() }
        let guessed = guess.hex(64)
        if seed != nil {
            #expect(guessed == victim, "a seeded mock is predictable: --seed is for tests only")
            return
        }
        #expect(guessed != victim)
        var c = V2Client(b.mock)
        c.token = guessed
        #expect(c.get("/configuration").status == 401)
        c.token = victim
        #expect(c.get("/configuration").status == 200)
    }

    /// A resume by someone holding the code cannot send the user agent elsewhere, nor change the
    /// session's domain or MVPD (docs/CONFORMANCE.md, choice 91).
    @Test func aResumeWithForeignValuesChangesNothing() throws {
        var c = try V2Client()
        let created = try json(
            c.form(
                "/sessions",
                [("mvpd", "Comcast"), ("domainName", "passim.test"), ("redirectUrl", "https://app.test/a")]))
        let code = try #require(created["code"]?.stringValue)
        let r = c.b.send(
            try Self.request("v2-resume-foreign-values.txt", code: code, headers: c.headers), withCookies: false)
        #expect(r.status == 400)
        #expect(
            ["invalid_parameter_redirect_url", "invalid_parameter_mvpd", "invalid_authentication_session"].contains(
                errorCode(r)), "\(r.bodyText)")
        let kept = try json(c.get("/sessions/\(code)"))["existingParameters"]
        #expect(kept?["mvpd"] == .string("Comcast"))
        #expect(kept?["domainName"] == .string("passim.test"))
        #expect(kept?["redirectUrl"] == .string("https://app.test/a"))
    }

    /// A TempPass whose MVPD has no resource limit authorizes 100 new resources and keeps none of them:
    /// nothing reads them (`mock-v2-temppass-resources`).
    @Test func aTempPassWithoutALimitKeepsNoneOfAHundredResources() throws {
        var c = try V2Client()
        let r = c.b.send(
            try Self.request("v2-temppass-100-new-resources.txt", headers: c.headers), withCookies: false)
        let decisions = try #require(try json(r)["decisions"]?.listValue)
        #expect(decisions.count == 100)
        #expect(decisions.allSatisfy { $0["authorized"] == .bool(true) })
        let key = V2TempPassKey(deviceID: c.device, mvpdID: "TempPass", identity: nil)
        let use = try #require(c.b.mock.v2.tempPassUses.value(key, at: c.b.now))
        #expect(use.resources.isEmpty)
        #expect(use.resourceBytes == 0)
        #expect(c.b.mock.v2.tempPassUses.bytes < 4096)
    }
}
