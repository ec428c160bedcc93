import PassModel
import PassXML

/// The SAML messages of one login and one logout, exactly as a mock SP and IdP exchange them, for
/// outside checkers (`passim saml-samples`, read by pysaml2 in `Fixtures/clients/saml/`). The
/// exchange is driven through `handle` like a browser would, so nothing here builds a message.
public struct SAMLSamples: Sendable {
    public struct Message: Sendable {
        /// `authn-request`, `response`, `logout-request`, `logout-response`.
        public var name: String
        public var xml: String
    }

    public var messages: [Message]
    /// The IdP's signing certificate, PEM.
    public var idpCertificatePEM: String
    public var spEntityID: String
    public var assertionConsumerURL: String
    public var spLogoutResponseURL: String
    public var idpEntityID: String
    public var idpSSOURL: String
    public var idpSLOURL: String

    static let spURL = "https://sp.auth.test"

    /// The world of the exchange (the hostile SAML fixtures were made from its messages at seed 0x5EED).
    static let world = World(
        serviceProviders: [
            World.ServiceProvider(name: "main", url: spURL, mvpds: [MVPD(id: "Comcast", displayName: "Xfinity")])
        ],
        identityProviders: [World.IdentityProvider(mvpdID: "Comcast")],
        users: [
            World.User(
                name: "alice", password: "secret", mvpdID: "Comcast",
                meta: [
                    Value.Entry("zip", .list([.string("12345"), .string("67890")])),
                    Value.Entry("householdID", .string("h-1")), Value.Entry("maxRating", .int(17)),
                ])
        ],
        requestors: [World.Requestor(id: "REQ1")])

    /// Runs the exchange on a small world (one SP, one MVPD whose user has metadata, so the assertion
    /// carries several attributes), every message issued at `now`. Throws a description of the step
    /// that did not go as a browser expects.
    public static func generate(seed: UInt64, at now: Instant = .simulationStart) throws(SampleError) -> SAMLSamples {
        let sp = SAMLSamples.spURL
        var mock = MockPass(world: world, seed: seed)
        let idp = World.defaultIdPURL(for: "Comcast")
        var messages: [Message] = []

        let start = try step(
            &mock, "GET",
            Route.authenticateSAML.url(sp) + "?requestor_id=REQ1&mso_id=Comcast&redirect_url=adobepass%3A%2F%2Fios.app",
            at: now)
        let cookie = start.headers["Set-Cookie"].map { String($0.prefix { $0 != ";" }) } ?? ""
        let authn = try form(start, "SAMLRequest")
        messages.append(Message(name: "authn-request", xml: try decode(authn.value("SAMLRequest"))))
        let login = try step(
            &mock, "POST", IdPRoute.login.url(idp),
            fields: authn.fields + [("username", "alice"), ("password", "secret")],
            at: now)
        let answer = try form(login, "SAMLResponse")
        messages.append(Message(name: "response", xml: try decode(answer.value("SAMLResponse"))))
        let consumed = try step(&mock, "POST", answer.action, fields: answer.fields, cookie: cookie, at: now)
        guard consumed.status == 302 else {
            throw SampleError("the SP refused the Response: \(String(decoding: consumed.body, as: UTF8.self))")
        }

        let session = try step(
            &mock, "POST", Route.sessionDevice.url(sp), fields: [("_method", "GET"), ("requestor_id", "REQ1")],
            cookie: cookie, at: now)
        let token = try sessionToken(session)
        let query =
            "mso_id=Comcast&redirect_url=adobepass%3A%2F%2Fios.app&name_id=\(token.nameID)&session_index=\(token.sessionIndex)"
        let logout = try form(
            try step(&mock, "GET", Route.logout.url(sp) + "?" + query, cookie: cookie, at: now), "SAMLRequest")
        messages.append(Message(name: "logout-request", xml: try decode(logout.value("SAMLRequest"))))
        let slo = try form(try step(&mock, "POST", logout.action, fields: logout.fields, at: now), "SAMLResponse")
        messages.append(Message(name: "logout-response", xml: try decode(slo.value("SAMLResponse"))))
        let ended = try step(&mock, "POST", slo.action, fields: slo.fields, at: now)
        guard ended.status == 302 else {
            throw SampleError("the SP refused the LogoutResponse: \(String(decoding: ended.body, as: UTF8.self))")
        }

        guard let key = IdPSigningKey.key(seed: seed, mvpdID: "Comcast") else { throw SampleError("no signing key") }
        var pem = "-----BEGIN CERTIFICATE-----\n"
        var rest = Substring(key.certificate)
        while !rest.isEmpty {
            pem += rest.prefix(64) + "\n"
            rest = rest.dropFirst(64)
        }
        pem += "-----END CERTIFICATE-----\n"
        return SAMLSamples(
            messages: messages, idpCertificatePEM: pem, spEntityID: sp,
            assertionConsumerURL: ServiceRoute.assertionConsumer.url(sp),
            spLogoutResponseURL: ServiceRoute.logoutResponse.url(sp),
            idpEntityID: idp, idpSSOURL: IdPRoute.sso.url(idp), idpSLOURL: IdPRoute.slo.url(idp))
    }

    public struct SampleError: Error, Sendable, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }

    private struct Form {
        var action: String
        var fields: [(String, String)]
        func value(_ name: String) -> String { fields.first { $0.0 == name }?.1 ?? "" }
    }

    private static func step(
        _ mock: inout MockPass, _ method: String, _ url: String, fields: [(String, String)] = [],
        cookie: String = "", at now: Instant
    ) throws(SampleError) -> HTTPResponse {
        var headers: HTTPHeaders = []
        if !cookie.isEmpty { headers.add("Cookie", cookie) }
        var body: [UInt8] = []
        if method == "POST" {
            headers.add("Content-Type", "application/x-www-form-urlencoded")
            body = Array(FormCoding.encode(fields).utf8)
        }
        let response = mock.handle(HTTPRequest(method: method, url: url, headers: headers, body: body), at: now)
        guard response.status < 400 else {
            throw SampleError("\(method) \(url): \(response.status) \(String(decoding: response.body, as: UTF8.self))")
        }
        return response
    }

    private static func form(_ response: HTTPResponse, _ field: String) throws(SampleError) -> Form {
        do throws(PassXMLError) {
            let page = try HTMLPageXML.parse(response.body)
            guard let form = page.forms.first(where: { f in f.fields.contains { $0.name == field } }) else {
                throw PassXMLError("no form carries \(field)")
            }
            return Form(action: form.action, fields: form.fields.map { ($0.name, $0.value) })
        } catch {
            throw SampleError("reading the page with \(field): \(error.message)")
        }
    }

    private static func sessionToken(_ response: HTTPResponse) throws(SampleError) -> AuthnToken {
        do throws(PassXMLError) {
            guard case .token(let token) = try SessionDeviceXML.parse(response.body) else {
                throw PassXMLError("no authN token")
            }
            return token
        } catch {
            throw SampleError("reading sessionDevice: \(error.message)")
        }
    }

    private static func decode(_ base64: String) throws(SampleError) -> String {
        do throws(PassXMLError) {
            return String(decoding: try SAML.decodeFromPost(base64), as: UTF8.self)
        } catch {
            throw SampleError("decoding a SAML message: \(error.message)")
        }
    }
}
