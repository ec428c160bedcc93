import PassModel
import PassXML
import Testing
@testable import MockPass

/// The world of the REST v2 tests: the sample world plus a programmer with a software statement,
/// a TempPass and a promotional one, an Apple-SSO MVPD, and throttling off (its own tests turn it on).
func v2World(throttling: Bool = false) -> World {
    var w = sampleWorld()
    w.serviceProviders[0].mvpds[0].enablePlatformServices = true
    w.serviceProviders[0].mvpds[0].boardingStatus = .supported
    w.serviceProviders[0].mvpds.append(MVPD(id: "PromoPass", displayName: "Promotional preview", tempPass: true))
    w.tempPasses = [
        World.TempPass(mvpdID: "TempPass", ttl: .minutes(10)),
        World.TempPass(mvpdID: "PromoPass", ttl: .minutes(5), promotional: true),
    ]
    w.requestors.append(
        World.Requestor(
            id: "V2", sps: ["main"], authnTTL: .hours(2), authzTTL: .hours(1),
            softwareStatement: "statement-v2", tokenTTL: .hours(1)))
    w.requestors.append(World.Requestor(id: "OTHER", sps: ["main"], softwareStatement: "statement-other"))
    w.users[0].allow = ["CNN", "HBO"]
    w.users[0].deny = ["ESPN"]
    w.users[0].denyMessage = "Upgrade your package"
    w.users[0].encrypted = ["zip"]
    w.restV2.throttling = throttling
    w.restV2.platformMappingIDs = [.init(mvpdID: "Comcast", platformMappingID: "comcast-apple-id")]
    return w
}

let v2Host = "https://sp.auth.test"

/// Base64 the way a client writes its headers.
func base64(_ text: String) -> String { ClientlessSignature.base64(Array(text.utf8)) }

let v2DeviceInfo = base64(
    #"{"primaryHardwareType":"SetTopBox","model":"Passim Box","version":"1.2.3","manufacturer":"Passim","osName":"tvOS","osFamily":"tvOS","osVersion":"17.4","connectionType":"WiFi","applicationId":"passim-tests"}"#
)

/// A REST v2 client: a DCR registration, a device identity and the headers Adobe asks for.
struct V2Client {
    var b: Browser
    var token = ""
    var device = base64("device-1")
    var requestor = "V2"
    var extraHeaders: HTTPHeaders = []

    init(_ mock: MockPass) { b = Browser(mock) }

    init(world: World = v2World(), seed: UInt64 = 26) throws {
        b = Browser(MockPass(world: world, seed: seed))
        token = try b.accessToken(statement: "statement-v2")
    }

    var headers: HTTPHeaders {
        var h: HTTPHeaders = [
            ("Authorization", "Bearer " + token), ("AP-Device-Identifier", "fingerprint " + device),
            ("X-Device-Info", v2DeviceInfo), ("Accept", "application/json"),
        ]
        h.fields += extraHeaders.fields
        return h
    }

    func url(_ path: String) -> String { v2Host + "/api/v2/" + requestor + path }

    mutating func get(_ path: String, headers: HTTPHeaders? = nil) -> HTTPResponse {
        b.send(HTTPRequest(method: "GET", url: url(path), headers: headers ?? self.headers), withCookies: false)
    }

    mutating func form(_ path: String, _ fields: [(String, String)], headers: HTTPHeaders? = nil) -> HTTPResponse {
        var h = headers ?? self.headers
        h.add("Content-Type", "application/x-www-form-urlencoded")
        return b.send(
            HTTPRequest(method: "POST", url: url(path), headers: h, body: Array(FormCoding.encode(fields).utf8)),
            withCookies: false)
    }

    mutating func decisions(_ kind: String, _ mvpd: String, _ resources: [String], headers: HTTPHeaders? = nil)
        -> HTTPResponse
    {
        var h = headers ?? self.headers
        h.add("Content-Type", "application/json")
        let body = Value.dict([Value.Entry("resources", .list(resources.map(Value.string)))]).jsonText
        return b.send(
            HTTPRequest(method: "POST", url: url("/decisions/\(kind)/\(mvpd)"), headers: h, body: Array(body.utf8)),
            withCookies: false)
    }

    /// A whole primary-device login: session, the user agent through the IdP, back at `redirectUrl`.
    mutating func login(mvpd: String = "Comcast", user: String = "alice", password: String = "secret") throws -> String
    {
        let session = try json(
            form(
                "/sessions", [("mvpd", mvpd), ("domainName", "passim.test"), ("redirectUrl", "https://app.test/done")]))
        let path = try #require(session["url"]?.stringValue)
        let code = try #require(session["code"]?.stringValue)
        let hop = b.get(v2Host + path)
        guard hop.status == 302, let next = hop.headers["Location"] else {
            throw TestFailure("authenticate: \(hop.status) \(hop.bodyText)")
        }
        let start = b.get(next)
        guard start.status == 200 else { throw TestFailure("authenticate: \(start.status) \(start.bodyText)") }
        let sso = b.submit(try onlyForm(start))
        let idp = b.submit(try onlyForm(sso), ["username": user, "password": password])
        let done = b.submit(try onlyForm(idp))
        guard done.status == 302, done.headers["Location"] == "https://app.test/done" else {
            throw TestFailure("ACS: \(done.status) \(done.bodyText)")
        }
        return code
    }
}

func json(_ r: HTTPResponse) throws -> Value {
    guard r.headers["Content-Type"] == "application/json" else {
        throw TestFailure("not JSON: \(r.status) \(r.bodyText)")
    }
    return try Value(jsonText: r.bodyText)
}

/// The enhanced error code of an answer (top level, or of its first decision).
func errorCode(_ r: HTTPResponse) -> String? {
    guard let v = try? json(r) else { return nil }
    if let code = v["code"]?.stringValue { return code }
    return v["decisions"]?.listValue?.first?["error"]?["code"]?.stringValue
}

func keys(_ v: Value?) -> [String] {
    guard case .dict(let entries)? = v else { return [] }
    return entries.map(\.key)
}
