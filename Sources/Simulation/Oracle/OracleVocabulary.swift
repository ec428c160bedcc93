import PassModel

// The oracle's tables (docs/ORACLE.md, "The tables"): what each call, callback and request is to the
// flows of BEHAVIOR.md, and which call owns which first answer. Every switch here is exhaustive over
// the SDK's vocabulary, with no `default:`: a new call, callback or request kind does not compile
// until this file says what it is to the oracle.

/// What a call starts, or is owed, in the flows the oracle follows.
enum CallRole: Equatable, Sendable {
    /// `setRequestor`: re-configures (invariants 1 and 5); ends a login; the token held is unknown.
    case configure
    /// `setSelectedProvider(id)`: with no login running, a TempPass MVPD logs in (BEHAVIOR.md,
    /// Cancel via nil); otherwise an answer as a cancel's may come (docs/CONFORMANCE.md, AND-1.8).
    case select(String?)
    /// `checkAuthentication`: owed one status, at once, from the store.
    case checkAuthentication
    /// `getAuthentication`: supersedes the login running, starts one.
    case login
    /// `getAuthorization(r)`: supersedes the login running; logs in first (its input shows a dialog
    /// or picker) or is owed its authorization's end.
    case authorizeOrLogin(resource: String)
    /// `checkAuthorization(r)`: owed its authorization's end.
    case authorize(resource: String)
    /// `logout`: ends the login, clears the token, owed its status.
    case logout
    /// `checkPreauthorizedResources(rs)`: owed one answer, a subsequence of `rs` its user may see.
    case preauthorize([String])
    /// Answered by the ledger alone (invariant 4: `getSelectedProvider`, `getMetadata`), or owed
    /// nothing the oracle follows (`init`, `setOptions`, `handleExternalURL`, `getAuthenticationToken`,
    /// `getVersion`).
    case noFlow

    init(_ call: Call) {
        switch call {
        case .setRequestor: self = .configure
        case .setSelectedProvider(let id): self = .select(id)
        case .checkAuthentication: self = .checkAuthentication
        case .getAuthentication: self = .login
        case .getAuthorization(let r, _): self = .authorizeOrLogin(resource: r)
        case .checkAuthorization(let r, _): self = .authorize(resource: r)
        case .logout: self = .logout
        case .checkPreauthorizedResources(let rs, _): self = .preauthorize(rs)
        case .getSelectedProvider, .getMetadata, .initialize, .setOptions, .handleExternalURL,
            .getAuthenticationToken, .getVersion:
            self = .noFlow
        }
    }

    /// What the oracle asks of the call an input is (`InputScratch.call`): kept without its
    /// arguments, so an input's scratch holds no copy of them.
    enum InputKind: Equatable, Sendable {
        case logout, preauthorization, checkAuthentication, other
    }

    var kindOfInput: InputKind {
        switch self {
        case .logout: .logout
        case .preauthorize: .preauthorization
        case .checkAuthentication: .checkAuthentication
        case .configure, .select, .login, .authorizeOrLogin, .authorize, .noFlow: .other
        }
    }

    /// The resource of an authorization (`getAuthorization`, `checkAuthorization`).
    var authorizes: String? {
        switch self {
        case .authorizeOrLogin(let r), .authorize(let r): r
        case .configure, .select, .checkAuthentication, .login, .logout, .preauthorize, .noFlow: nil
        }
    }

    /// A call that may start a login (the dialog or picker it shows belongs to it).
    var mayStartALogin: Bool {
        switch self {
        case .login, .authorizeOrLogin: true
        case .configure, .select, .checkAuthentication, .authorize, .logout, .preauthorize, .noFlow: false
        }
    }

    /// A call owed a `setAuthenticationStatus`.
    var owesAStatus: Bool {
        switch self {
        case .checkAuthentication, .login, .authorizeOrLogin, .logout: true
        case .configure, .select, .authorize, .preauthorize, .noFlow: false
        }
    }
}

/// What a callback is to the flows: which flow delivers it, what it ends.
enum CallbackRole: Sendable {
    /// `setRequestorComplete`: ends the oldest open `setRequestor` (invariant 1).
    case configured(status: Int)
    /// `setAuthenticationStatus`: a check's answer, a login's end, a logout's or a cancel's.
    case authenticationStatus(status: Int, code: String)
    /// `setToken`, `tokenRequestFailed`: an authorization's end (invariant 3).
    case authorizationEnded(resource: String, success: Bool)
    /// The picker up, then down (invariant 7).
    case pickerPresented, pickerDismissed
    /// Only a running login delivers it (invariant 7).
    case loginOnly
    /// `navigateToUrl`: a logout's, or a login's.
    case navigation
    /// `status(code)`: what it is depends on the code (`StatusRole`).
    case status(StatusRole)
    /// `sendTrackingData`: judged with its flow's terminal (property `tracking`).
    case tracking(event: Int, data: [String?])
    /// `preauthorizedResources`: a preauthorization's answer (invariants 4 and 6).
    case preauthorizationAnswer([String])
    /// `setMetadataStatus`, `selectedProvider`: the ledger's alone (invariant 4).
    case metadataAnswer, selectedProviderAnswer

    init(_ callback: Callback) {
        switch callback {
        case .setRequestorComplete(let status): self = .configured(status: status)
        case .setAuthenticationStatus(let status, let code): self = .authenticationStatus(status: status, code: code)
        case .setToken(_, let r): self = .authorizationEnded(resource: r, success: true)
        case .tokenRequestFailed(let r, _, _): self = .authorizationEnded(resource: r, success: false)
        case .presentTvProviderDialog: self = .pickerPresented
        case .dismissTvProviderDialog: self = .pickerDismissed
        case .displayProviderDialog: self = .loginOnly
        case .navigateToUrl: self = .navigation
        case .status(let code, _): self = .status(StatusRole(code))
        case .sendTrackingData(let event, let data): self = .tracking(event: event, data: data)
        case .preauthorizedResources(let allowed): self = .preauthorizationAnswer(allowed)
        case .setMetadataStatus: self = .metadataAnswer
        case .selectedProvider: self = .selectedProviderAnswer
        }
    }

    /// The first callback of a login: its dialog or picker, or its failure when there is nothing to
    /// pick from.
    var startsALogin: Bool {
        switch self {
        case .loginOnly, .pickerPresented: true
        case .authenticationStatus(let status, let code):
            status == Constants.statusError && code == Constants.genericAuthenticationError
        case .configured, .authorizationEnded, .pickerDismissed, .navigation, .status, .tracking,
            .preauthorizationAnswer, .metadataAnswer, .selectedProviderAnswer:
            false
        }
    }
}

extension CallbackRole {
    /// `startsALogin` read off the callback itself, without making its role (once per callback of
    /// every input: the fuzzer's hot path). `OracleTablesTests` checks the two agree.
    static func startsALogin(_ callback: Callback) -> Bool {
        switch callback {
        case .displayProviderDialog, .presentTvProviderDialog: true
        case .setAuthenticationStatus(let status, let code):
            status == Constants.statusError && code == Constants.genericAuthenticationError
        case .setRequestorComplete, .navigateToUrl, .setToken, .tokenRequestFailed, .preauthorizedResources,
            .selectedProvider, .setMetadataStatus, .dismissTvProviderDialog, .status, .sendTrackingData:
            false
        }
    }
}

/// What a `status(code)` callback is. Status codes are open-ended strings: a code this table does not
/// name is a login's (`N003`, `N005`, `REGCODE`, `REG500`, …), the strictest reading.
enum StatusRole: Sendable {
    /// `R400`, `CFG429`, `Z100`, `P100`: may come in any input (BEHAVIOR.md, Throttling).
    case anyInput
    /// `VSA203`: only in a logout's input.
    case logoutOnly
    /// Only while a login runs (invariant 7).
    case loginOnly

    init(_ code: String) { self = StatusRole.table[code] ?? .loginOnly }

    static let table: [String: StatusRole] = [
        StatusCode.registrationRefused: .anyInput, StatusCode.configurationThrottled: .anyInput,
        StatusCode.authorizationThrottled: .anyInput, StatusCode.preauthorizationThrottled: .anyInput,
        StatusCode.vsa203: .logoutOnly,
    ]
}

/// Which queued call owns the first answer delivered, or the first request sent, after the queue
/// starts to drain (invariant 5). A queued call that delivers nothing at once starts before the next
/// one; the one that owns the answer starts with it.
enum Ownership {
    /// The first callback a drained `call` can deliver at once.
    static func canStart(_ call: Call, with callback: CallbackRole) -> Bool {
        switch call {
        case .checkAuthentication:
            if case .authenticationStatus = callback { return true }
            return false
        case .getAuthentication:
            if case .authenticationStatus = callback { return true }
            return callback.startsALogin
        case .getAuthorization:
            // With a token it sends its authorize request and delivers nothing at once: a success
            // status is another call's (a getAuthentication answered from the store).
            if case .authenticationStatus(let status, _) = callback { return status != Constants.statusSuccess }
            return callback.startsALogin
        case .checkAuthorization(let r, _):
            if case .authorizationEnded(r, false) = callback { return true }
            return false
        case .checkPreauthorizedResources:
            if case .preauthorizationAnswer = callback { return true }
            return false
        case .getMetadata:
            if case .metadataAnswer = callback { return true }
            return false
        case .logout:
            switch callback {
            case .status(.logoutOnly), .navigation: return true
            case .configured, .authenticationStatus, .authorizationEnded, .pickerPresented, .pickerDismissed,
                .loginOnly, .status, .tracking, .preauthorizationAnswer, .metadataAnswer, .selectedProviderAnswer:
                return false
            }
        case .initialize, .setOptions, .setRequestor, .setSelectedProvider, .handleExternalURL,
            .getSelectedProvider, .getAuthenticationToken, .getVersion:
            return false
        }
    }

    /// Whether a drained `call` is the one sending `request` (its first request, delivering nothing
    /// at once): a `checkAuthorization(r)` or `getAuthorization(r)` with a token held sends its
    /// authorize request (its media-token request when its authZ token is cached); a
    /// `checkPreauthorizedResources` its preauthorize request; a login with a TempPass selected its
    /// TempPass request. An authorize request with no resource, and any other request, start none.
    static func sends(_ call: Call, _ request: OracleRequest.Kind) -> Bool {
        switch request {
        case .authorize(let resource?):
            return CallRole(call).authorizes == resource
        case .mediaToken:
            return CallRole(call).authorizes != nil
        case .preauthorize:
            if case .checkPreauthorizedResources = call { return true }
            return false
        case .tempPassLogin:
            return CallRole(call).mayStartALogin
        case .authorize(nil), .registration, .other:
            return false
        }
    }

    /// Whether a drained `call` may send a request behind Dynamic Client Registration (the access
    /// token it needs expired or never got): any call that asks the SP, not `setRequestor` (whose
    /// configuration needs no token) nor the calls answered at once.
    static func mayWaitForAccessToken(_ call: Call) -> Bool {
        switch CallRole(call) {
        case .checkAuthentication, .login, .authorizeOrLogin, .authorize, .logout, .preauthorize, .select: true
        case .configure: false
        case .noFlow: if case .getMetadata = call { true } else { false }
        }
    }
}
