import PassModel
import PassXML
import Testing
@testable import MockPass

let redirect = "adobepass://ios.app"

/// Two SPs (one with a path in its base URL), three MVPDs with IdPs and a TempPass without one.
func sampleWorld() -> World {
    let comcast = MVPD(id: "Comcast", displayName: "Comcast XFINITY")
    let dish = MVPD(id: "Dish", displayName: "DISH")
    let verizon = MVPD(id: "Verizon", displayName: "Verizon FiOS")
    let temp = MVPD(id: "TempPass", displayName: "Free preview", tempPass: true)
    let sps = [
        World.ServiceProvider(name: "main", url: "https://sp.auth.test", mvpds: [comcast, dish, temp]),
        World.ServiceProvider(name: "alt", url: "https://sp2.auth.test/adobe-services/", mvpds: [verizon, comcast]),
    ]
    return World(
        serviceProviders: sps,
        identityProviders: World.defaultIdentityProviders(for: sps),
        users: [
            World.User(
                name: "alice", password: "secret", mvpdID: "Comcast",
                meta: [
                    Value.Entry("userID", .string("u-alice")), Value.Entry("zip", .list([.string("12345")])),
                    Value.Entry("maxRating", .dict([])),
                ]),
            World.User(name: "bob", password: "hunter2", mvpdID: "Dish"),
            World.User(name: "carol", password: "secret", mvpdID: "Verizon"),
        ],
        requestors: [
            World.Requestor(id: "REQ1"),
            World.Requestor(id: "REQ2", sps: ["main"], mvpds: ["Dish", "Comcast"], authnTTL: .hours(2)),
            World.Requestor(id: "REQ3", sps: ["alt"]),
        ])
}

func loginURL(sp: String = "https://sp.auth.test", mvpd: String = "Comcast", requestor: String = "REQ1") -> String {
    sp + "/authenticate/saml?"
        + FormCoding.encode([
            ("domain_name", "adobe.com"), ("noflash", "true"), ("no_iframe", "true"), ("mso_id", mvpd),
            ("requestor_id", requestor), ("redirect_url", redirect), ("client_type", "iOS"), ("client_version", "3.7"),
        ])
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

/// A minimal browser: one cookie jar for every host (enough for JSESSIONID), a fixed clock it can advance.
struct Browser {
    var mock: MockPass
    var now = Instant.simulationStart
    var jar: [(String, String)] = []

    init(_ mock: MockPass) { self.mock = mock }

    mutating func send(_ request: HTTPRequest, withCookies: Bool = true) -> HTTPResponse {
        var r = request
        if withCookies, !jar.isEmpty { r.headers.add("Cookie", jar.map { "\($0.0)=\($0.1)" }.joined(separator: "; ")) }
        let response = mock.handle(r, at: now)
        for set in response.headers.all("Set-Cookie") {
            let pair = set.split(separator: ";")[0]
            guard let eq = pair.firstIndex(of: "=") else { continue }
            let name = String(pair[..<eq]), value = String(pair[pair.index(after: eq)...])
            jar.removeAll { $0.0 == name }
            jar.append((name, value))
        }
        return response
    }

    mutating func get(_ url: String, withCookies: Bool = true) -> HTTPResponse {
        send(HTTPRequest(method: "GET", url: url), withCookies: withCookies)
    }

    mutating func post(_ url: String, _ fields: [(String, String)], withCookies: Bool = true) -> HTTPResponse {
        send(.form(url, fields), withCookies: withCookies)
    }

    /// Submits a page's form as is, or with some fields replaced.
    mutating func submit(_ form: HTMLForm, _ replacing: [String: String] = [:], withCookies: Bool = true)
        -> HTTPResponse
    {
        post(form.action, form.fields.map { ($0.name, replacing[$0.name] ?? $0.value) }, withCookies: withCookies)
    }

    func cookie(_ name: String) -> String? { jar.first { $0.0 == name }?.1 }

    /// The SP's session token for the jar's cookie.
    mutating func sessionDevice(sp: String = "https://sp.auth.test", withCookies: Bool = true) throws
        -> SessionDeviceXML.Content
    {
        let r = post(
            sp + "/sessionDevice", [("_method", "GET"), ("requestor_id", "REQ1"), ("device_id", "dev-1")],
            withCookies: withCookies)
        #expect(r.status == 200)
        #expect(r.headers["Content-Type"] == "application/xml")
        return try SessionDeviceXML.parse(r.body)
    }

    /// Runs a whole login: authenticate/saml, sso, login, ACS. Returns the ACS answer.
    mutating func login(
        user: String = "alice", password: String = "secret", mvpd: String = "Comcast",
        sp: String = "https://sp.auth.test", requestor: String = "REQ1"
    ) throws -> HTTPResponse {
        let start = get(loginURL(sp: sp, mvpd: mvpd, requestor: requestor))
        guard start.status == 200 else { throw TestFailure("authenticate/saml: \(start.status) \(start.bodyText)") }
        let sso = submit(try onlyForm(start))
        guard sso.status == 200 else { throw TestFailure("sso: \(sso.status) \(sso.bodyText)") }
        let idp = submit(try onlyForm(sso), ["username": user, "password": password])
        guard idp.status == 200 else { throw TestFailure("login: \(idp.status) \(idp.bodyText)") }
        return submit(try onlyForm(idp))
    }
}

func page(_ r: HTTPResponse) throws -> HTMLPage {
    #expect(r.headers["Content-Type"] == "text/html")
    return try HTMLPageXML.parse(r.body)
}

func onlyForm(_ r: HTTPResponse) throws -> HTMLForm {
    let p = try page(r)
    guard p.forms.count == 1 else { throw TestFailure("expected one form, got \(p.forms.count)") }
    return p.forms[0]
}

extension HTMLForm {
    func field(_ name: String) -> String? { fields.first { $0.name == name }?.value }
    var fieldNames: [String] { fields.map(\.name) }
}

func decoded(_ base64: String?) throws -> [UInt8] {
    guard let base64 else { throw TestFailure("missing SAML field") }
    return try SAML.decodeFromPost(base64)
}
