import Entitlement
import MockPass
import PassModel

/// The person holding the device: what they know (the world's users, MVPDs and SPs, and the
/// registration code the TV shows) and what they do with it. The simulator carries out the actions;
/// the user decides what goes into them.
struct SimulatedUser {
    /// A registration code as the TV shows it, with what the user's second screen needs to use it:
    /// the programmer (requestor) and MVPD it was made for, and the SP that made it.
    struct CodeShown {
        var code: String
        var requestorID: String
        var mvpdID: String
        var sp: World.ServiceProvider
        /// The code is a REST API v2 session's (the engine on the v2 wire): the second screen opens
        /// `/api/v2/authenticate/{sp}/{code}` (rest-api-v2.md 1.5).
        var restV2 = false
    }

    let world: World
    /// The wire of the second screen's web app; nil: the code's own (`SimulationSetup.secondScreenWire`).
    let secondScreenWire: EngineWire?
    /// The last registration code shown, for `user enter-code`.
    private(set) var code: CodeShown?

    init(world: World, secondScreenWire: EngineWire? = nil) {
        self.world = world
        self.secondScreenWire = secondScreenWire
    }

    /// The second screen speaks another wire than the code's: Adobe asks both screens to move to
    /// REST API v2 together (rest-api-v2.md 1.1); one that did not knows nothing of the other's code.
    var secondScreenMismatched: Bool {
        guard let code, let secondScreenWire else { return false }
        return (secondScreenWire == .restV2) != code.restV2
    }

    /// The TV shows `code`, which the engine got for `request` (its `POST …/REQUESTOR/regcode`,
    /// sent to `host`): the user reads which programmer and MVPD it is for. `mvpd`: the request's
    /// `mvpd` field where the request as the device reported it has no body (a port that sends its
    /// own requests reports only their method and URL, docs/PORTING.md).
    mutating func sees(code: String, madeBy request: HTTPRequest?, at host: LoggedRequest.Host?, mvpd: () -> String?) {
        guard let request, case .sp(let name)? = host,
            let sp = world.serviceProviders.first(where: { $0.name == name }),
            let path = URLParts(request.url)?.path
        else {
            self.code = nil
            return
        }
        let field = request.parameters.first { $0.0 == "mvpd" }?.1 ?? mvpd() ?? ""
        if case .createSession(let requestor)? = V2Route(method: request.method, path: path) {
            self.code = CodeShown(code: code, requestorID: requestor, mvpdID: field, sp: sp, restV2: true)
            return
        }
        let requestor = path.split(separator: "/").dropLast().last.map(String.init) ?? ""
        self.code = CodeShown(code: code, requestorID: requestor, mvpdID: field, sp: sp)
    }

    /// A REST API v2 `POST sessions`: on the v2 wire, what shows a tvOS code.
    static func isRESTv2Session(_ request: HTTPRequest) -> Bool {
        guard request.method == "POST", request.url.containsBytes(V2Route.prefix),
            let path = URLParts(request.url)?.path,
            let route = V2Route(method: request.method, path: path)
        else { return false }
        return isSession(route)
    }

    static func isSession(_ route: V2Route) -> Bool {
        if case .createSession = route { return true }
        return false
    }

    /// Where the second screen goes to use the code: the SP's login page for it, which ends on
    /// `Simulator.secondScreenDone`.
    func codeEntryURL(code number: String?) throws(SimulationError) -> String {
        guard let number else { throw SimulationError("no registration code was shown") }
        guard let code, code.code == number else { throw SimulationError("no registration-code request reached an SP") }
        if secondScreenWire.map({ $0 == .restV2 }) ?? code.restV2 {
            return V2Route.authenticate(serviceProvider: code.requestorID, code: code.code).url(atSP: code.sp.url)
        }
        let query = FormCoding.encode([
            ("requestor_id", code.requestorID), ("mso_id", code.mvpdID), ("reg_code", code.code),
            ("domain_name", "adobe.com"), ("redirect_url", Simulator.secondScreenDone),
        ])
        return ServiceRoute.secondScreenLogin.url(code.sp.url) + "?" + query
    }

    /// The login form's fields for a user and password.
    func login(user: String, password: String) -> [String: String] {
        SimulatedUser.loginFields(user: user, password: password)
    }

    /// What a user types into an MVPD's login page, SAML's or OAuth2's: the fields the browser fills
    /// (`Browser.fill`) in whichever shown form has them.
    static func loginFields(user: String, password: String) -> [String: String] {
        ["username": user, "password": password]
    }

    /// `user pick ID [as NAME]` in Apple's picker showing `shown`: for a `SUPPORTED` MVPD the device's
    /// Apple account (NAME, by default the first user at that MVPD) holds Apple's token, got from the
    /// MVPD's IdP; this is the request for it (nil: the MVPD needs none).
    func appleTokenRequest(pick mvpdID: String, asUser: String?, shown: [MVPD]) throws(SimulationError) -> (
        user: String, HTTPRequest
    )? {
        guard let mvpd = shown.first(where: { $0.id == mvpdID }) else {
            throw SimulationError("\(mvpdID) is not in the picker")
        }
        guard mvpd.boardingStatus == .supported else { return nil }
        guard let user = world.users.first(where: { $0.mvpdID == mvpdID && (asUser == nil || $0.name == asUser) })
        else {
            throw SimulationError(
                "no user \(asUser.map { "'\($0)' " } ?? "")at \(mvpdID) for the device's Apple account")
        }
        guard let idp = world.identityProviders.first(where: { $0.mvpdID == mvpdID }) else {
            throw SimulationError("\(mvpdID) has no identity provider")
        }
        return (
            user.name,
            HTTPRequest.form(IdPRoute.platformSSO.url(idp.url), [("username", user.name), ("password", user.password)])
        )
    }
}
