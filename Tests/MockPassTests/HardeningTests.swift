import PassModel
import PassXML
import Testing
@testable import MockPass

/// Issue 27: one requestor per request (row 6), values limited at the door so every store is
/// bounded in bytes, and the request journal keeps faulted requests.
struct HardeningTests {
    /// Each family's route, written with a requestor that needs a token or a signature (`DCR`,
    /// `SIGNED`) where the route reads it, and the open `REQ1` in a second place.
    static let conflicts: [(name: String, method: String, path: String, fields: [(String, String)])] = [
        ("config path, requestor_id", "GET", "/config/DCR?requestor_id=REQ1", []),
        ("config path, requestor", "GET", "/config/SIGNED?requestor=REQ1", []),
        ("REST config path", "GET", "/api/v1/config/SIGNED?requestor=REQ1&format=json", []),
        ("REST config path, Bearer-only", "GET", "/api/v1/config/DCR?requestor_id=REQ1", []),
        (
            "regcode path, form requestor_id", "POST", "/reggie/v1/DCR/regcode",
            [("deviceId", "tv-1"), ("requestor_id", "REQ1")]
        ),
        ("regcode path, query requestor", "POST", "/reggie/v1/SIGNED/regcode?requestor=REQ1", [("deviceId", "tv-1")]),
        (
            "SDK endpoint, two parameters", "POST", "/sessionDevice",
            [("_method", "GET"), ("requestor_id", "DCR"), ("requestor", "REQ1"), ("device_id", "d")]
        ),
        (
            "SDK endpoint, the parameter twice", "POST", "/sessionDevice",
            [("_method", "GET"), ("requestor_id", "DCR"), ("requestor_id", "REQ1"), ("device_id", "d")]
        ),
        ("REST v1, two parameters", "GET", "/api/v1/checkauthn?requestor=SIGNED&requestor_id=REQ1&deviceId=d", []),
        ("web family", "POST", "/session", [("_method", "GET"), ("requestor_id", "REQ1"), ("requestor", "DCR")]),
    ]

    @Test(arguments: 0..<HardeningTests.conflicts.count)
    func aRequestNamingTwoRequestorsIsRefused(_ index: Int) {
        let c = HardeningTests.conflicts[index]
        var b = Browser(MockPass(world: rootServiceWorld(), seed: 270))
        var request =
            c.fields.isEmpty
            ? HTTPRequest(method: c.method, url: spURL + c.path)
            : HTTPRequest.form(spURL + c.path, c.fields)
        request.method = c.method
        let answer = b.send(request, withCookies: false)
        #expect(answer.status == 400, "\(c.name): \(answer.status) \(answer.bodyText)")
        #expect(answer.bodyText.contains("names two requestors"), "\(c.name): \(answer.bodyText)")
        #expect(b.mock.sdk.registrationCodes.count == 0, "\(c.name): a refusal keeps nothing")
    }

    @Test func theGateAndTheRouteAgreeWithoutAConflict() {
        var b = Browser(MockPass(world: rootServiceWorld(), seed: 271))
        // Without the open requestor's parameter, the path's requestor is gated (401), as it always was.
        #expect(b.get(spURL + "/config/DCR", withCookies: false).status == 401)
        #expect(b.engine("/reggie/v1/DCR/regcode", [("deviceId", "tv-1")]).status == 401)
        #expect(b.engineGet("/api/v1/config/SIGNED?format=json").status == 401)
        // Naming the same requestor twice is no conflict.
        #expect(b.get(spURL + "/config/REQ1?requestor_id=REQ1", withCookies: false).status == 200)
        #expect(b.engine("/reggie/v1/REQ1/regcode", [("deviceId", "tv-1"), ("requestor_id", "REQ1")]).status == 201)
    }

    // MARK: - Values at the door (row 2)

    @Test func aHugeDeviceIdIsRefusedAtTheDoorAndKeepsNothing() {
        var b = Browser(MockPass(world: rootServiceWorld(), seed: 272))
        let huge = String(repeating: "d", count: 900_000)
        let refused = b.engine("/reggie/v1/REQ1/regcode", [("deviceId", huge)])
        #expect(refused.status == 400)
        #expect(refused.bodyText.contains("limit: mock-value-bytes"), "\(refused.bodyText.prefix(300))")
        #expect(b.mock.sdk.registrationCodes.count == 0)
        // At the limit it is taken.
        let most = String(repeating: "d", count: MockLimits.valueBytes)
        #expect(b.engine("/reggie/v1/REQ1/regcode", [("deviceId", most)]).status == 201)
        #expect(b.mock.sdk.registrationCodes.count == 1)
    }

    /// Every value a request can leave behind, one endpoint each: the SDK's device family, the web
    /// family, REST v1, TempPass, the IdP's login form, a resource name, a signature's nonce.
    @Test func everyKeptValueIsLimited() {
        var b = Browser(MockPass(world: rootServiceWorld(), seed: 273))
        let huge = String(repeating: "x", count: MockLimits.valueBytes + 1)
        let answers: [(String, HTTPResponse)] = [
            (
                "device_id",
                b.engine("/sessionDevice", [("_method", "GET"), ("requestor_id", "REQ1"), ("device_id", huge)])
            ),
            (
                "redirect_url",
                b.get(
                    spURL + "/authenticate/saml?"
                        + FormCoding.encode([
                            ("requestor_id", "REQ1"), ("mso_id", "Comcast"), ("redirect_url", huge),
                        ]), withCookies: false)
            ),
            ("deviceId (REST)", b.engineGet("/api/v1/checkauthn?requestor=REQ1&deviceId=" + huge)),
            (
                "TempPass device",
                b.engine(
                    "/authenticate/freepreview",
                    [("requestor_id", "REQ1"), ("mso_id", "TempPass"), ("device_id", huge)])
            ),
            (
                "IdP user name",
                b.post("https://comcast.idp.test/login", [("username", huge), ("password", "p")], withCookies: false)
            ),
        ]
        for (what, answer) in answers {
            #expect(answer.status == 400, "\(what): \(answer.status)")
            #expect(answer.bodyText.contains("limit: mock-value-bytes"), "\(what): \(answer.bodyText.prefix(200))")
        }
        let title = #"<rss><channel><title>"# + huge + #"</title></channel></rss>"#
        #expect(throws: HandlerFailure.self) { try MockContext.resourceName(title) }
        let signed = b.signed("GET", "/api/v1/checkauthn", query: "?requestor=SIGNED&deviceId=d", nonce: huge)
        #expect(signed.status == 401)
        #expect(signed.bodyText.contains("limit: mock-value-bytes"), "\(signed.bodyText.prefix(200))")
        #expect(
            b.mock.sdk.deviceSessions.count == 0 && b.mock.sdk.loginSessions.count == 0
                && b.mock.clients.nonces.count == 0)
    }

    /// Each store one request can add to, filled with the largest values the door lets in, stays at
    /// its count: its bytes are bounded by count × the largest entry (docs/LIMITS.md, "Bytes"). The
    /// stores only a whole login fills (authN and authZ tokens, IdP sessions) take values the world
    /// declares (users, MVPDs) beside the same device ids, and are bounded by the same count × entry.
    @Test func storesFilledWithTheLargestValuesStayWithinTheirBound() throws {
        var limits = MockLimits.standard
        limits.registrationCodes = 50
        limits.tempPassUses = 50
        limits.deviceSessions = 50
        limits.loginSessions = 50
        limits.nonces = 50
        var b = Browser(MockPass(world: rootServiceWorld(), seed: 274, limits: limits))
        func largest(_ i: Int) -> String {
            String(i) + String(repeating: "d", count: MockLimits.valueBytes - String(i).utf8.count)
        }
        for i in 0..<120 {
            #expect(b.engine("/reggie/v1/REQ1/regcode", [("deviceId", largest(i))]).status == 201)
            #expect(b.freePreview(device: largest(i)).status == 204)
            let login = b.get(
                spURL + "/authenticate/saml?"
                    + FormCoding.encode([
                        ("requestor_id", "REQ1"), ("mso_id", "Comcast"),
                        ("redirect_url", "adobepass://" + largest(i).dropFirst(12)),
                    ]),
                withCookies: false)
            #expect(login.status == 200, "\(login.status) \(login.bodyText.prefix(200))")
            #expect(
                b.signed("GET", "/api/v1/checkauthn", query: "?requestor=SIGNED&deviceId=d", nonce: largest(i)).status
                    == 403)
        }
        #expect(b.mock.sdk.registrationCodes.count == 50)
        #expect(b.mock.sdk.tempPassExpiry.count == 50)
        #expect(b.mock.sdk.deviceSessions.count == 50)
        #expect(b.mock.sdk.loginSessions.count == 50)
        #expect(b.mock.clients.nonces.count == 50)
    }

    /// `mock-store-bytes`: past it the oldest entries go, the newest always stays; a replaced or
    /// removed entry gives its bytes back.
    @Test func aStoreIsCappedInBytes() {
        var store = ExpiringStore<String, String>(capacity: 100, maxBytes: 2_000)
        let value = String(repeating: "v", count: 300)
        for i in 0..<20 { store.set("k\(i)", value, until: .simulationStart + .hours(1)) }
        #expect(store.bytes <= 2_000)
        #expect(store.count < 20 && store.count > 1)
        #expect(store.value("k19", at: .simulationStart) == value, "the newest stays")
        #expect(store.value("k0", at: .simulationStart) == nil, "the oldest went first")
        let full = store.bytes
        store.set("k19", "short", until: .simulationStart + .hours(1))
        #expect(store.bytes < full)
        let before = store.bytes
        let entry = "k18".footprint + value.footprint + 64
        store.remove("k18")
        #expect(store.bytes == before - entry)
        store.removeAll { key, _ in key == "k17" }
        #expect(store.bytes == before - 2 * entry)
        var alone = ExpiringStore<String, String>(capacity: 100, maxBytes: 10)
        alone.set("big", value, until: .simulationStart + .hours(1))
        #expect(alone.count == 1, "an entry over the cap alone is kept: the newest always stays")
    }

    /// An authZ token keeps its resource as given, an MRSS document of any size the body allows:
    /// the byte cap, not the door, bounds those.
    @Test func authorizationTokensOfLargeResourcesStayWithinTheByteCap() throws {
        var limits = MockLimits.standard
        limits.storeBytes = 256 * 1024
        var b = Browser(MockPass(world: rootServiceWorld(), seed: 276, limits: limits))
        let token = try b.loginToken()
        let padding = String(repeating: "p", count: 60_000)
        let mrss = "<rss><channel><title>CNN</title><description>\(padding)</description></channel></rss>"
        for _ in 0..<20 { #expect(b.authorize(token, mrss).status == 200) }
        #expect(b.mock.sdk.issuedAuthz.bytes <= 256 * 1024)
        #expect(
            b.mock.sdk.issuedAuthz.count >= 1 && b.mock.sdk.issuedAuthz.count <= 4, "\(b.mock.sdk.issuedAuthz.count)")
    }

    // MARK: - The journal

    @Test func aFaultedRequestIsJournaledWithItsFault() {
        var mock = MockPass(world: rootServiceWorld(), seed: 275, logLimit: 100)
        let request = HTTPRequest(method: "GET", url: spURL + "/config/REQ1?x=1")
        let failure = InjectedFailure(remaining: 1, status: 500)
        mock.journal(mock.preparer.prepareForJournal(request), fault: failure, at: Instant(milliseconds: 5))
        _ = mock.handle(request, at: Instant(milliseconds: 6))
        #expect(mock.log.map(\.fault) == ["injected failure 500", nil])
        #expect(mock.log.map(\.path) == ["/config/REQ1", "/config/REQ1"])
        #expect(mock.log.first?.parameter("x") == "1")
        #expect(mock.log.first?.time == Instant(milliseconds: 5))
    }
}
