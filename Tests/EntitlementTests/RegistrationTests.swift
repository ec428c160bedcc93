import PassModel
import Testing
@testable import Entitlement

/// SDK 3.x registration and SDK 2.x tvOS signatures (BEHAVIOR.md "Client registration and request
/// signing"): the engine's side, with the test playing the SP.
@Suite struct RegistrationTests {
    static func json(_ status: Int, _ text: String) -> HTTPResult {
        .response(HTTPResponse(status: status, contentType: "application/json", text: text))
    }
    static let registered = json(201, #"{"client_id":"c-1","client_secret":"s-1"}"#)
    static func accessToken(_ token: String, expiresIn: Int = 3600) -> HTTPResult {
        json(200, #"{"access_token":"\#(token)","expires_in":\#(expiresIn),"token_type":"bearer"}"#)
    }

    /// After `init(softwareStatement:)`, `setRequestor` has registered and holds token `T1`.
    func registeredEngine(expiresIn: Int = 3600) throws -> EngineHarness {
        var h = EngineHarness()
        h.call(.initialize(softwareStatement: "ss-1"))
        h.call(.setRequestor(requestorID: "REQ1", serviceProviders: nil))
        h.answer(h.sent[0].0, RegistrationTests.registered)
        h.answer(h.sent[1].0, RegistrationTests.accessToken("T1", expiresIn: expiresIn))
        let (id, config) = try #require(h.sent.last)
        #expect(config.headers["Authorization"] == "Bearer T1")
        h.answer(id, EngineHarness.config("REQ1", [("X", "X")]))
        #expect(h.takeCallbacks() == ["setRequestorComplete(1)"])
        h.sent = []
        return h
    }

    @Test func requestsWaitForOneRegistrationPerOrigin() throws {
        var h = EngineHarness()
        h.call(.initialize(softwareStatement: "ss-1"))
        h.call(
            .setRequestor(
                requestorID: "REQ1", serviceProviders: ["https://sp.test/a", "https://SP.test/b", "https://other.test"])
        )
        // Two origins, one registration each; no configuration request goes before its token.
        #expect(h.sent.map(\.1.url) == ["https://sp.test/o/client/register", "https://other.test/o/client/register"])
        let register = h.sent[0].1
        #expect(register.method == "POST" && register.headers["Content-Type"] == "application/json")
        let body = try Value(jsonText: register.bodyText)
        #expect(body["software_statement"] == .string("ss-1"))
        #expect(body["redirect_uri"] == .string("adobepass://ios.app"))
        h.answer(h.sent[0].0, RegistrationTests.registered)
        let token = try #require(h.sent.last).1
        #expect(token.url == "https://sp.test/o/client/token")
        #expect(
            token.parameters.map { "\($0.0)=\($0.1)" } == [
                "grant_type=client_credentials", "client_id=c-1", "client_secret=s-1",
            ])
        #expect(token.headers["Authorization"] == nil)
        h.answer(h.sent[2].0, RegistrationTests.accessToken("T1"))
        // Both configuration fetches of that origin go now, with the token.
        let configs = h.sent.suffix(2).map(\.1)
        #expect(configs.map(\.url) == ["https://sp.test/a/config/REQ1", "https://SP.test/b/config/REQ1"])
        #expect(configs.allSatisfy { $0.headers["Authorization"] == "Bearer T1" })
        #expect(h.callbacks.isEmpty)
    }

    @Test func theDeprecatedInitRegistersNothing() throws {
        var h = EngineHarness()
        h.call(.initialize(softwareStatement: nil))
        h.call(.setRequestor(requestorID: "REQ1", serviceProviders: nil))
        let config = try #require(h.sent.first).1
        #expect(h.sent.count == 1 && config.url == "https://sp.test/config/REQ1")
        #expect(config.headers["Authorization"] == nil)
    }

    @Test func aRefusedRegistrationIsAnSPThatRefused() throws {
        var h = EngineHarness()
        h.call(.initialize(softwareStatement: "ss-1"))
        h.call(.setRequestor(requestorID: "REQ1", serviceProviders: nil))
        h.answer(h.sent[0].0, RegistrationTests.json(400, #"{"error":"invalid_software_statement"}"#))
        #expect(h.takeCallbacks() == ["status(R400)", "setRequestorComplete(0)"])
        #expect(h.engine.footprint.requests == 0)
        // The origin is forgotten: the next setRequestor registers again.
        h.call(.setRequestor(requestorID: "REQ1", serviceProviders: nil))
        #expect(h.sent.last?.1.url == "https://sp.test/o/client/register")
    }

    @Test func anUnreachableRegistrationIsNoRefusal() {
        var h = EngineHarness()
        h.call(.initialize(softwareStatement: "ss-1"))
        h.call(.setRequestor(requestorID: "REQ1", serviceProviders: nil))
        h.answer(h.sent[0].0, .failure("connection refused"))
        #expect(h.takeCallbacks() == ["setRequestorComplete(0)"])
    }

    @Test func a401GetsANewTokenAndOneResend() throws {
        var h = try registeredEngine()
        h.call(.getMetadata(.dict([Value.Entry(Constants.metadataOpcodeKey, .int(Constants.metadataDeviceID))])))
        let (first, request) = try #require(h.sent.last)
        #expect(request.url == "https://sp.test/getMetadataDevice" && request.headers["Authorization"] == "Bearer T1")
        h.answer(first, .response(HTTPResponse(status: 401)))
        // A token request only, no new registration; then the same request under a new id.
        let (tokenID, token) = try #require(h.sent.last)
        #expect(token.url == "https://sp.test/o/client/token" && h.sent.count == 2)
        h.answer(tokenID, RegistrationTests.accessToken("T2"))
        let (second, resent) = try #require(h.sent.last)
        #expect(second != first && second != tokenID)
        #expect(resent.url == request.url && resent.body == request.body)
        #expect(resent.headers["Authorization"] == "Bearer T2")
        // A second 401 is the answer: no token request, the flow reads it.
        h.answer(second, .response(HTTPResponse(status: 401)))
        #expect(h.sent.count == 3)
        #expect(h.takeCallbacks().first?.hasPrefix("setMetadataStatus(nil, false,") == true)
        #expect(h.engine.footprint.requests == 0)
    }

    @Test func aRefusedRenewalRegistersAfresh() throws {
        var h = try registeredEngine(expiresIn: 60)
        h.advance(.seconds(60))
        h.call(HostileAnswerTests.deviceID)
        h.call(HostileAnswerTests.deviceID)
        #expect(h.sent.map(\.1.url) == ["https://sp.test/o/client/token"])
        h.answer(h.sent[0].0, RegistrationTests.json(401, #"{"error":"invalid_client"}"#))
        // One new registration for both waiting requests, no R400.
        #expect(h.sent.map(\.1.url).last == "https://sp.test/o/client/register" && h.sent.count == 2)
        #expect(h.callbacks.isEmpty)
        h.answer(h.sent[1].0, RegistrationTests.json(201, #"{"client_id":"c-2","client_secret":"s-2"}"#))
        #expect(h.sent.last?.1.parameter("client_id") == "c-2")
        h.answer(try #require(h.sent.last).0, RegistrationTests.accessToken("T3"))
        let resent = h.sent.suffix(2).map(\.1)
        #expect(resent.map(\.url) == ["https://sp.test/getMetadataDevice", "https://sp.test/getMetadataDevice"])
        #expect(resent.allSatisfy { $0.headers["Authorization"] == "Bearer T3" })
    }

    @Test func aResentConfigurationStillSettlesTheFetch() throws {
        var h = EngineHarness()
        h.call(.initialize(softwareStatement: "ss-1"))
        h.call(.setRequestor(requestorID: "REQ1", serviceProviders: nil))
        h.answer(h.sent[0].0, RegistrationTests.registered)
        h.answer(h.sent[1].0, RegistrationTests.accessToken("T1"))
        h.answer(h.sent[2].0, .response(HTTPResponse(status: 401)))
        h.answer(h.sent[3].0, RegistrationTests.accessToken("T2"))
        let (id, resent) = try #require(h.sent.last)
        #expect(resent.url == "https://sp.test/config/REQ1" && resent.headers["Authorization"] == "Bearer T2")
        h.answer(id, EngineHarness.config("REQ1", [("X", "X")]))
        #expect(h.takeCallbacks() == ["setRequestorComplete(1)"])
    }

    @Test func aTokenKnownExpiredIsRenewedBeforeTheRequest() throws {
        var h = try registeredEngine(expiresIn: 60)
        let metadata = Call.getMetadata(
            .dict([Value.Entry(Constants.metadataOpcodeKey, .int(Constants.metadataDeviceID))]))
        h.advance(Millis(59_999))
        h.call(metadata)
        #expect(h.sent.map(\.1.url) == ["https://sp.test/getMetadataDevice"])
        h.answer(h.sent[0].0, .response(HTTPResponse(status: 500)))
        h.advance(Millis(1))
        h.call(metadata)
        // Expired on the engine's clock: a token request goes first, the request waits for it.
        #expect(h.sent.map(\.1.url).last == "https://sp.test/o/client/token")
        h.answer(try #require(h.sent.last).0, RegistrationTests.accessToken("T2"))
        #expect(h.sent.last?.1.url == "https://sp.test/getMetadataDevice")
        #expect(h.sent.last?.1.headers["Authorization"] == "Bearer T2")
    }

    @Test func aHostileLifetimeIsCut() throws {
        var h = try registeredEngine(expiresIn: Int.max)
        h.advance(EngineLimits.accessTokenLifetime)
        h.call(.getMetadata(.dict([Value.Entry(Constants.metadataOpcodeKey, .int(Constants.metadataDeviceID))])))
        #expect(h.sent.last?.1.url == "https://sp.test/o/client/token")
        var n = try registeredEngine(expiresIn: -5)
        n.call(.getMetadata(.dict([Value.Entry(Constants.metadataOpcodeKey, .int(Constants.metadataDeviceID))])))
        #expect(n.sent.last?.1.url == "https://sp.test/o/client/token")
    }

    /// tvOS configured with X, the deprecated `setRequestor` variant's key pair given.
    func signingTVOSEngine(secret: String? = "sk", publicKey: String? = "pk") -> EngineHarness {
        var h = EngineHarness()
        h.engine = Engine(
            configuration: EngineConfiguration(platform: .tvos, defaultServiceProvider: "https://sp.test"))
        h.call(.setRequestor(requestorID: "REQ1", serviceProviders: nil, secret: secret, publicKey: publicKey))
        h.answer(h.sent[0].0, EngineHarness.config("REQ1", [("X", "X")]))
        h.call(.getAuthentication(forceAuthn: false, data: nil, filter: nil))
        h.call(.setSelectedProvider("X"))
        _ = h.takeCallbacks()
        return h
    }

    @Test func theRegistrationCodeRequestIsSignedAsTheMockVerifies() throws {
        var h = signingTVOSEngine()
        let (id, regcode) = try #require(h.sent.last)
        #expect(regcode.url == "https://sp.test/reggie/v1/REQ1/regcode")
        // The bytes the mock's RequestSignature.verify accepts for key pair (pk, sk), the HMAC
        // computed independently (Python's hmac and base64).
        #expect(
            regcode.headers["Authorization"]
                == "POST requestor_id=REQ1, nonce=1-1767225600000, signature_method=HMAC-SHA1, "
                + "request_time=1767225600000, request_uri=/reggie/v1/REQ1/regcode, public_key=pk, signature=GfXjrArSef8e282JTvDLHb+1FOc="
        )
        h.answer(
            id,
            RegistrationTests.json(
                201, #"{"code":"ABCDEFG","expires":\#(Instant.simulationStart.milliseconds + 1_800_000)}"#))
        #expect(h.takeCallbacks() == [#"status(REGCODE, "ABCDEFG")"#])
        h.advance(.seconds(10))
        let poll = try #require(h.sent.last).1
        #expect(poll.url.hasPrefix("https://sp.test/api/v1/checkauthn/ABCDEFG?"))
        let header = try #require(poll.headers["Authorization"])
        #expect(
            header.hasPrefix(
                "GET requestor_id=REQ1, nonce=2-1767225610000, signature_method=HMAC-SHA1, request_time=1767225610000, request_uri=/api/v1/checkauthn/ABCDEFG, public_key=pk, signature="
            ))
    }

    @Test func withoutAKeyPairNothingIsSigned() throws {
        let h = signingTVOSEngine(secret: nil, publicKey: nil)
        #expect(try #require(h.sent.last).1.headers["Authorization"] == nil)
    }

    @Test func aRefusedRegistrationCodeIsREG500() throws {
        var h = signingTVOSEngine(secret: nil, publicKey: nil)
        h.answer(try #require(h.sent.last).0, .response(HTTPResponse(status: 401)))
        #expect(
            h.takeCallbacks() == [
                "status(REG500)", "setAuthenticationStatus(0, GENERIC_AUTHENTICATION_ERROR)",
                #"sendTrackingData(TRACKING_AUTHENTICATION, ["false", nil, nil, nil, "mobile", "ios", "tvOS"])"#,
            ])
        // Any other failure of that request is the plain failure, as before.
        var g = signingTVOSEngine(secret: nil, publicKey: nil)
        g.answer(try #require(g.sent.last).0, .response(HTTPResponse(status: 503)))
        #expect(g.takeCallbacks().first == "setAuthenticationStatus(0, GENERIC_AUTHENTICATION_ERROR)")
    }

    @Test func aSignedCallOfARegisteredAppCarriesItsTokenAsAParameter() throws {
        var h = EngineHarness()
        h.engine = Engine(
            configuration: EngineConfiguration(platform: .tvos, defaultServiceProvider: "https://sp.test"))
        h.call(.initialize(softwareStatement: "ss-1"))
        h.call(.setRequestor(requestorID: "REQ1", serviceProviders: nil, secret: "sk", publicKey: "pk"))
        h.answer(h.sent[0].0, RegistrationTests.registered)
        h.answer(h.sent[1].0, RegistrationTests.accessToken("T1"))
        h.answer(h.sent[2].0, EngineHarness.config("REQ1", [("X", "X")]))
        h.call(.getAuthentication(forceAuthn: false, data: nil, filter: nil))
        h.call(.setSelectedProvider("X"))
        let regcode = try #require(h.sent.last).1
        #expect(regcode.url == "https://sp.test/reggie/v1/REQ1/regcode?access_token=T1")
        #expect(regcode.headers["Authorization"]?.hasPrefix("POST requestor_id=REQ1, ") == true)
    }
}
