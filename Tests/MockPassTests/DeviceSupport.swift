import PassModel
import PassXML
import Testing
@testable import MockPass

let spURL = "https://sp.auth.test"

/// The world of the device-endpoint tests: entitlements, metadata, a basic and a promotional TempPass.
func deviceWorld() -> World {
    let comcast = MVPD(
        id: "Comcast", displayName: "Comcast XFINITY", enablePlatformServices: true, boardingStatus: .supported)
    let dish = MVPD(id: "Dish", displayName: "DISH")
    let verizon = MVPD(id: "Verizon", displayName: "Verizon FiOS")
    let temp = MVPD(id: "TempPass", displayName: "Free preview", tempPass: true)
    let promo = MVPD(id: "Promo", displayName: "Promotional preview", promoTempPass: true)
    let sps = [
        World.ServiceProvider(name: "main", url: spURL, mvpds: [comcast, dish, temp, promo]),
        World.ServiceProvider(name: "alt", url: "https://sp2.auth.test/adobe-services/", mvpds: [verizon]),
    ]
    return World(
        serviceProviders: sps,
        identityProviders: World.defaultIdentityProviders(for: sps),
        users: [
            World.User(
                name: "alice", password: "secret", mvpdID: "Comcast", allow: ["CNN", "ESPN"], deny: ["HBO"],
                denyMessage: "Upgrade your package.",
                meta: [
                    Value.Entry("zip", .list([.string("12345")])), Value.Entry("householdID", .string("h-42")),
                    Value.Entry("maxRating", .dict([Value.Entry("tv", .string("TV-14"))])),
                ],
                encrypted: ["householdID"]),
            World.User(
                name: "bob", password: "hunter2", mvpdID: "Dish", allow: ["CNN"], deny: ["ESPN"],
                meta: [Value.Entry("userID", .string("b-7"))]),
            World.User(name: "carol", password: "secret", mvpdID: "Verizon"),
        ],
        requestors: [
            World.Requestor(id: "REQ1", authzTTL: .hours(1), deviceID: true),
            World.Requestor(
                id: "REQ2", sps: ["main"], mvpds: ["Comcast", "Dish"], authnTTL: .hours(2),
                regcodeTTL: .minutes(5)),
            World.Requestor(id: "REQ3", sps: ["alt"]),
        ],
        tempPasses: [
            World.TempPass(mvpdID: "TempPass", ttl: .minutes(10)),
            World.TempPass(mvpdID: "Promo", ttl: .minutes(30), promotional: true),
        ])
}

extension Browser {
    /// A whole browser login, then the token `sessionDevice` hands out for it.
    mutating func loginToken(
        user: String = "alice", password: String = "secret", mvpd: String = "Comcast",
        requestor: String = "REQ1"
    ) throws -> AuthnToken {
        let acs = try login(user: user, password: password, mvpd: mvpd, requestor: requestor)
        guard acs.status == 302 else { throw TestFailure("login: \(acs.status) \(acs.bodyText)") }
        guard case .token(let token) = try sessionDevice() else { throw TestFailure("no token after login") }
        return token
    }

    /// A request the engine makes: no browser cookies.
    mutating func engine(_ path: String, _ fields: [(String, String)], sp: String = spURL) -> HTTPResponse {
        post(sp + path, fields, withCookies: false)
    }

    mutating func engineGet(_ pathAndQuery: String, sp: String = spURL) -> HTTPResponse {
        get(sp + pathAndQuery, withCookies: false)
    }

    mutating func engineDelete(_ pathAndQuery: String) -> HTTPResponse {
        send(HTTPRequest(method: "DELETE", url: spURL + pathAndQuery), withCookies: false)
    }

    mutating func authorize(
        _ token: AuthnToken, _ resource: String, requestor: String = "REQ1",
        device: String = "dev-1", mvpd: String? = nil
    ) -> HTTPResponse {
        engine(
            "/authorizeDevice",
            [
                ("resource_id", resource), ("requestor_id", requestor), ("mso_id", mvpd ?? token.mvpdID),
                ("device_id", device), ("authentication_token", AuthnTokenXML.build(token)), ("userMeta", "1"),
            ])
    }

    mutating func preauthorize(_ token: AuthnToken, _ resources: [String], requestor: String = "REQ1") -> HTTPResponse {
        engine(
            "/preauthorize",
            [("authentication_token", AuthnTokenXML.build(token)), ("requestor_id", requestor)]
                + resources.map { ("resource_id", $0) })
    }

    mutating func mediaToken(_ authz: AuthzToken, sessionGUID: String? = nil) -> HTTPResponse {
        engine(
            "/deviceShortAuthorize",
            [
                ("session_guid", sessionGUID ?? authz.sessionGUID), ("hashed_guid", "false"),
                ("authz_token", AuthzTokenXML.build(authz)), ("requestor_id", authz.requestorID),
                ("mso_id", authz.mvpdID), ("device_id", authz.deviceID),
            ])
    }

    /// `sessionDevice` as a device without a browser login sends it: content and `<userMeta>`.
    mutating func deviceSession(device: String = "dev-1", requestor: String = "REQ1") throws -> (
        SessionDeviceXML.Content, Value?
    ) {
        let r = engine("/sessionDevice", [("_method", "GET"), ("requestor_id", requestor), ("device_id", device)])
        #expect(r.status == 200)
        #expect(r.headers["Content-Type"] == "application/xml")
        return (try SessionDeviceXML.parse(r.body), try SessionDeviceXML.parseUserMeta(r.body))
    }

    mutating func deviceToken(device: String = "dev-1", requestor: String = "REQ1") throws -> AuthnToken {
        guard case .token(let t) = try deviceSession(device: device, requestor: requestor).0 else {
            throw TestFailure("no device-bound token for \(device)/\(requestor)")
        }
        return t
    }

    mutating func freePreview(
        _ mvpd: String = "TempPass", device: String = "dev-1", requestor: String = "REQ1",
        genericData: String? = nil
    ) -> HTTPResponse {
        var fields = [("requestor_id", requestor), ("mso_id", mvpd), ("device_id", device)]
        if let genericData { fields.append(("generic_data", genericData)) }
        return engine("/authenticate/freepreview", fields)
    }
}

/// The `<error>` body of a refusal, checking it is served as XML with the same status.
func errorBody(_ r: HTTPResponse, sourceLocation: SourceLocation = #_sourceLocation) throws -> ErrorBody {
    #expect(r.headers["Content-Type"] == "application/xml", sourceLocation: sourceLocation)
    let body = try ErrorXML.parse(r.body)
    #expect(body.status == r.status, sourceLocation: sourceLocation)
    return body
}

func authzToken(_ r: HTTPResponse) throws -> AuthzToken {
    guard r.status == 200 else { throw TestFailure("authorizeDevice: \(r.status) \(r.bodyText)") }
    #expect(r.headers["Content-Type"] == "application/xml")
    guard case .token(let t) = try AuthorizeDeviceXML.parse(r.body) else { throw TestFailure("no authz token") }
    return t
}

/// An XXE payload that must never be read or echoed.
let hostileXML =
    #"<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><authnToken>&x;</authnToken>"#
