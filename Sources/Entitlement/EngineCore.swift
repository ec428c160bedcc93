import PassModel

/// What every flow shares and works through, handed `inout` to the flow an input goes to: the app's
/// configuration, the requestor's configuration once fetched, the token store, the app's options and
/// registration, and the one way to the wire (`send`) and to the clock (`startTimer`). A flow sees
/// the core and its own state, never another flow: the rules between flows are the `Engine`'s.
struct EngineCore: Sendable {
    let configuration: EngineConfiguration
    /// The requestor's configuration after a successful `setRequestor`; nil before, while a fetch is
    /// out and after one failed (`StartupFlow` sets it).
    var requestor: Configuration?
    var store = TokenStore()
    var options: [Value.Entry] = []
    var softwareStatement: String?
    var signedRequestorID: String?
    /// The deprecated tvOS `setRequestor(…, secret:, publicKey:)`'s key pair.
    var signer: RequestSigner?
    var signedRequests = 0
    /// SDK 3.x registration at each SP origin: the transport every request goes through (`transmit`).
    var registration = Registration()

    private var nextRequest = 0
    private var nextTimer = 0
    private var nextFlow = 0

    /// What the requests look like on the configuration's wire, and what their answers mean.
    let dialect: any WireDialect

    init(configuration: EngineConfiguration) {
        self.configuration = configuration
        dialect = configuration.dialect
    }

    var tracking: Tracking { Tracking(configuration: configuration) }
    var requestorID: String { requestor?.requestorID ?? "" }
    var defaultSP: String { EngineConfiguration.normalizeSP(configuration.defaultServiceProvider) }

    /// The SP an MVPD was learnt from; every request about it goes there.
    func spURL(forMVPD id: String) -> String {
        requestor?.mvpd(id)?.spURL ?? store.selectedMVPD?.spURL ?? defaultSP
    }

    // MARK: The wire and the clock

    /// Sends a request with the app's options (BEHAVIOR.md: every request carries them) and a
    /// deadline; after `init(softwareStatement:)`, once its origin has an access token (`transmit`).
    /// `signed`: a call of the tvOS registration-code flow. The caller's flow holds the result.
    mutating func send(
        _ request: HTTPRequest, at now: Instant, deadline: Bool = true,
        signed: Bool = false
    ) -> (PendingRequest, [EngineAction]) {
        let id = newRequestID()
        var actions = transmit(
            HeldRequest(
                id: id, wireID: id, request: withOptions(request), signed: signed, retried: false,
                deadline: deadline), at: now)
        var pending = PendingRequest(id: id, deadline: nil)
        if deadline {
            let (timer, start) = startTimer(at: now + configuration.requestTimeout)
            pending.deadline = timer
            actions.append(start)
        }
        return (pending, actions)
    }

    /// Sends a request a dialect encoded.
    mutating func send(_ request: WireRequest, at now: Instant, deadline: Bool = true) -> (
        PendingRequest, [EngineAction]
    ) {
        send(request.http, at: now, deadline: deadline, signed: request.signed)
    }

    /// Sends at once, outside registration: the registration's own requests.
    mutating func sendUnheld(_ request: HTTPRequest, at now: Instant) -> (PendingRequest, [EngineAction]) {
        let id = newRequestID()
        let (timer, start) = startTimer(at: now + configuration.requestTimeout)
        return (PendingRequest(id: id, deadline: timer), [.send(id, withOptions(request)), start])
    }

    mutating func newRequestID() -> RequestID {
        nextRequest += 1
        return RequestID(nextRequest)
    }

    func withOptions(_ request: HTTPRequest) -> HTTPRequest {
        var r = request
        for option in options where option.key != "handleSVC" {
            r.headers.add(option.key, option.value.stringValue ?? option.value.jsonText)
        }
        return r
    }

    mutating func startTimer(at instant: Instant) -> (TimerID, EngineAction) {
        nextTimer += 1
        let id = TimerID(nextTimer)
        return (id, .startTimer(id, at: instant))
    }

    mutating func newFlowID<Kind>() -> FlowID<Kind> {
        nextFlow += 1
        return FlowID(value: nextFlow)
    }

    // MARK: Answers several flows give

    func status(_ ok: Bool, _ code: String) -> EngineAction {
        .deliver(
            .setAuthenticationStatus(status: ok ? Constants.statusSuccess : Constants.statusError, errorCode: code))
    }

    func authenticationFailure(_ code: String) -> [EngineAction] {
        [status(false, code), .deliver(tracking.authenticationFailure())]
    }

    /// Where a login or logout page opens: `navigateToUrl(url)` for the app; for an MVPD that requires
    /// SVC, `navigateToUrl(url, true)` under `handleSVC`, else SFSafariViewController presented by the
    /// SDK itself, no callback (BEHAVIOR.md, Authentication 3).
    func openBrowser(_ url: String, for mvpd: MVPD?) -> EngineAction {
        guard let mvpd, mvpd.requiresSVC else { return .deliver(.navigateToUrl(url, useSVC: nil)) }
        let handleSVC = options.first { $0.key == "handleSVC" }?.value == .bool(true)
        return handleSVC ? .deliver(.navigateToUrl(url, useSVC: true)) : .presentBrowser(url: url)
    }
}
