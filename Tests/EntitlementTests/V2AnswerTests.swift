import PassModel
import Testing
@testable import Entitlement

/// What the engine reads in REST API v2 answers, written from Adobe's contract: the
/// fields the callbacks need, and an answer without them refused (its flow then fails as on the SDK wire).
@Suite struct V2AnswerTests {
    static func json(_ status: Int, _ text: String) -> HTTPResult {
        .response(HTTPResponse(status: status, contentType: "application/json", text: text))
    }

    @Test func aSessionSaysWhatComesNext() throws {
        let login = try #require(
            V2Answer.session(
                Self.json(
                    200,
                    #"{"actionName":"authenticate","actionType":"interactive","url":"/api/v2/authenticate/R/C","code":"C","sessionId":"s","notAfter":"1800000"}"#
                )))
        #expect(login.action == .authenticate(url: "/api/v2/authenticate/R/C") && login.code == "C")
        #expect(login.notAfter == Instant(milliseconds: 1_800_000), "sessions write instants as strings")
        let direct = V2Answer.session(Self.json(200, #"{"actionName":"authorize","sessionId":"s"}"#))
        #expect(direct?.action == .authorize)
        #expect(V2Answer.session(Self.json(200, #"{"actionName":"resume","sessionId":"s"}"#)) == nil)
        #expect(V2Answer.session(Self.json(200, #"{"actionName":"authenticate","sessionId":"s"}"#)) == nil, "no url")
        #expect(V2Answer.session(Self.json(400, #"{"code":"invalid_parameter_mvpd"}"#)) == nil)
    }

    @Test func aProfileBecomesTheTokenAndItsMetadata() throws {
        let profiles = try #require(
            V2Answer.profiles(
                Self.json(
                    200,
                    #"{"profiles":{"M":{"notBefore":1000,"notAfter":2000,"issuer":"i","type":"regular","attributes":{"zip":{"value":"Z","state":"enc"},"name":{"value":"N","state":"plain"}}}}}"#
                )))
        let profile = try #require(profiles.first)
        #expect(profile.mvpd == "M" && profile.notAfter == Instant(milliseconds: 2000))
        #expect(profile.userMeta["encrypted"] == .list([.string("zip")]))
        #expect(profile.userMeta["data"]?["name"] == .string("N"))
        let token = V2Answer.token(profile, sessionID: "s", requestorID: "R", deviceID: "d")
        #expect(token.guid == "s" && token.mvpdID == "M" && token.expires == profile.notAfter)
        #expect(profile.impliedSessionID == "M-1000")
        #expect(V2Answer.profiles(Self.json(200, #"{"profiles":{}}"#))?.isEmpty == true, "no profile: empty")
        #expect(V2Answer.profiles(Self.json(200, #"{"profiles":{"M":{}}}"#)) == nil, "no notAfter: unusable")
    }

    @Test func decisionsCarryTheMediaTokenOrTheDetails() throws {
        let decisions = try #require(
            V2Answer.decisions(
                Self.json(
                    200,
                    #"{"decisions":[{"resource":"A","authorized":true,"token":{"serializedToken":"T","notAfter":9},"notAfter":60},{"resource":"B","authorized":false,"error":{"details":"no"}},{"resource":"C","authorized":true,"token":{"serializedToken":"U","notAfter":7}}]}"#
                )))
        #expect(decisions.map(\.resource) == ["A", "B", "C"])
        // The authorization holds as long as the decision, not its media token; the token's when the decision has no notAfter.
        #expect(decisions[0].mediaToken == "T" && decisions[0].notAfter == Instant(milliseconds: 60))
        #expect(decisions[2].notAfter == Instant(milliseconds: 7))
        #expect(!decisions[1].authorized && decisions[1].details == "no")
        #expect(V2Answer.decisions(Self.json(200, #"{"decisions":[{"resource":"A"}]}"#)) == nil)
    }

    @Test func theConfigurationAndTheLogout() throws {
        let config = try #require(
            V2Answer.configuration(
                Self.json(
                    200,
                    #"{"requestor":{"id":"R","mvpds":[{"id":"M","displayName":"M TV","isTempPass":true,"enablePlatformServices":true,"boardingStatus":"SUPPORTED"}]}}"#
                ), promotional: []))
        #expect(config.requestorID == "R")
        #expect(config.mvpds.first?.tempPass == true && config.mvpds.first?.boardingStatus == .supported)
        #expect(config.mvpds.first?.promoTempPass == false)
        // Choice 79: a TempPass the app's set-up names promotional is one (v2 says isTempPass only).
        let passes =
            #"{"requestor":{"id":"R","mvpds":[{"id":"P","isTempPass":true},{"id":"T","isTempPass":true},{"id":"M"}]}}"#
        let promo = try #require(V2Answer.configuration(Self.json(200, passes), promotional: ["P", "M"]))
        #expect(promo.mvpds.map(\.promoTempPass) == [true, false, false], "M is no TempPass: no promotion")
        #expect(promo.mvpds.map(\.tempPass) == [false, true, false])
        #expect(
            V2Answer.configuration(
                Self.json(200, #"{"requestor":{"id":"R","mvpds":[{"displayName":"x"}]}}"#), promotional: [])
                == nil)
        let page = V2Answer.logout(
            Self.json(
                200, #"{"logouts":{"M":{"actionName":"logout","actionType":"interactive","url":"https://sp/logout"}}}"#),
            mvpd: "M")
        #expect(page?.url == "https://sp/logout")
        let none = V2Answer.logout(
            Self.json(200, #"{"logouts":{"M":{"actionName":"complete","actionType":"none"}}}"#), mvpd: "M")
        #expect(none != nil && none?.url == nil)
    }
}
