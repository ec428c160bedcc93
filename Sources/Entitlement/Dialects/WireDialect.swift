import PassModel
import PassXML

/// A request a flow asks for, encoded on the engine's wire.
struct WireRequest: Hashable, Sendable {
    var http: HTTPRequest
    /// A call of the SDK's registration-code flow, which the deprecated tvOS key pair signs.
    var signed = false
}

/// The engine's wire: what each request a flow asks for looks like, and what each answer means.
/// Flows speak intents (fetch the configuration, start a login with this MVPD, authorize this
/// resource with this token) and act on meanings (a code to show, a token, a permit, a denial); the
/// encoding, the headers and the parsing are the dialect's, so no flow tests which wire it is on.
/// One per wire (`SDKDialect`, `RESTv2Dialect`): following a change of a wire, or adding one, is one
/// dialect file and its tests (docs/CONTRIBUTING.md).
protocol WireDialect: Sendable {
    // MARK: Startup

    func configurationRequest(requestorID: String, sp: String, _ core: EngineCore) -> WireRequest
    /// The configuration an answer carries; nil when it carries none (an error, an unusable body).
    func configuration(in result: HTTPResult, _ core: EngineCore) -> SPConfiguration?

    // MARK: Authentication

    /// `checkAuthentication` for a device whose token or selection names `mvpd`: the request that asks
    /// the SP for its profile, or nil when the token store answers.
    func profileCheckRequest(mvpd: String, _ core: EngineCore) -> WireRequest?
    /// What a profile check's answer says of `mvpd` at `now`.
    func checkedProfile(in result: HTTPResult, mvpd: String, _ core: EngineCore, at now: Instant) -> ProfileCheckAnswer

    /// How a login with `mvpd` chosen (neither kind of TempPass) begins.
    func loginOpening(for mvpd: MVPD, data: Value?, _ core: EngineCore) -> LoginOpening
    /// A TempPass's login; `data`, a promotional pass's (the user's e-mail).
    func tempPassRequest(for mvpd: MVPD, data: Value?, _ core: EngineCore) -> WireRequest
    /// Apple's token for `mvpd`, given to the SP.
    func platformSSORequest(for mvpd: MVPD, appleToken: String, _ core: EngineCore, at now: Instant) -> WireRequest
    /// What the answer to a login's first request says to do next.
    func loginStarted(_ result: HTTPResult, _ start: LoginStartContext, _ core: EngineCore, at now: Instant)
        -> LoginStart

    /// A poll of a second screen's code.
    func codeCheckRequest(_ code: RegistrationCode, mvpd: MVPD, _ core: EngineCore) -> WireRequest
    func codeChecked(_ result: HTTPResult, _ context: TokenContext, _ core: EngineCore, at now: Instant) -> CodeCheck

    /// The token's read after the browser reached the redirect URL (`session`: the SP's
    /// authentication session the browser logged in for, if the wire has one).
    func tokenRequestAfterBrowser(mvpd: MVPD, session: LoginSession?, _ core: EngineCore) -> WireRequest
    /// What the answer to a token's read holds.
    func loginToken(in result: HTTPResult, _ context: TokenContext, _ core: EngineCore, at now: Instant)
        -> LoginTokenAnswer

    // MARK: Authorization

    /// The authZ token that serves `resource` without asking the SP, if the wire keeps one for that
    /// (the store drops one it finds expired).
    func servingAuthorization(for resource: String, _ core: inout EngineCore, at now: Instant) -> AuthzToken?
    func authorizeRequest(resource: String, data: Value?, token: AuthnToken, _ core: EngineCore) -> WireRequest
    func authorizeAnswer(
        _ result: HTTPResult, resource: String, asked: AuthnToken, _ core: EngineCore, at now: Instant
    ) -> AuthorizeAnswer
    /// The short media token, asked with an authZ token (`authorizeAnswer` said `permitted`, or the
    /// token served from the store).
    func mediaTokenRequest(_ authz: AuthzToken, requestorID: String, _ core: EngineCore) -> WireRequest
    func mediaTokenAnswer(_ result: HTTPResult) -> MediaTokenAnswer

    // MARK: Preauthorization

    func preauthorizeRequest(resources: [String], token: AuthnToken, _ core: EngineCore) -> WireRequest
    /// The decisions an answer carries, in its order; nil when it carries none.
    func decisions(in result: HTTPResult) -> [(resource: String, authorized: Bool)]?

    // MARK: Logout

    /// tvOS: the logout request for the device (`mvpd`, the token's or the selected one), or nil
    /// when there is nothing to ask (the logout answers at once).
    func deviceLogoutRequest(mvpd: String?, sp: String, _ core: EngineCore) -> WireRequest?
    /// iOS: how the logout of a valid token goes to the browser.
    func logoutStep(token: AuthnToken, svc: Bool, sp: String, _ core: EngineCore) -> LogoutStep
    /// The page a logout answer names, if any.
    func logoutPage(in result: HTTPResult, mvpd: String) -> String?

    // MARK: Metadata

    /// `getMetadata` of the device id.
    func deviceIDQuery(_ core: EngineCore) -> DeviceIDQuery
    func deviceID(in result: HTTPResult) -> String?
}

extension EngineConfiguration {
    /// The dialect of the configuration's wire (the one place that asks which wire it is).
    var dialect: any WireDialect {
        switch wire {
        case .sdk: SDKDialect()
        case .restV2: RESTv2Dialect(self)
        }
    }
}
