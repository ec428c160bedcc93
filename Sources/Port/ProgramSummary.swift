import PassModel
import ScenarioSyntax

/// What a program is made of, as data: the world's features and its steps (calls, user steps, clock
/// steps, faults) in order. A `differ` rule's `when` conditions ask this, never the program's text.
public struct ProgramSummary: Sendable {
    /// A kind of world a rule may name (`world FEATURE`), each read from the world's declarations.
    public enum Feature: String, Sendable, CaseIterable {
        /// An MVPD whose login is the SDK's SVC one (`svc`).
        case svc
        /// A TempPass MVPD (`temppass`), a promotional one (`promo-temppass`).
        case temppass
        case promoTemppass = "promo-temppass"
        /// An MVPD in Apple's SSO (`sso picker` or `sso supported`); `sso-supported`: Apple's token is used.
        case sso
        case ssoSupported = "sso-supported"
        /// A requestor with a key pair: the SDK 2.x signature (`key`).
        case signed
        /// A requestor with a software statement: client registration (DCR).
        case softwareStatement = "software-statement"
        /// A requestor whose access token or authorization lives other than the default (6 h, 24 h).
        case tokenTTL = "token-ttl"
        case authzTTL = "authz-ttl"
        /// The tvOS platform.
        case tvos
    }

    public var features: Set<Feature>
    /// The shortest lifetime the world gives anything that expires: a requestor's authentication,
    /// authorization, registration code or access token (their defaults where not declared), a TempPass.
    public var shortestLifetime: Millis
    /// The program's steps but its `<` lines and request checks (`seen`, `lint`), in order.
    public var steps: [Step]

    public init(_ file: ScenarioFile) {
        var features: Set<Feature> = []
        for mvpd in file.mvpds {
            if mvpd.svc { features.insert(.svc) }
            if mvpd.tempPass != nil { features.insert(.temppass) }
            if mvpd.promoTempPass != nil { features.insert(.promoTemppass) }
            if mvpd.sso != nil { features.insert(.sso) }
            if mvpd.sso == .supported { features.insert(.ssoSupported) }
        }
        let defaults = Requestor(id: "")
        var lifetimes = file.mvpds.flatMap { [$0.tempPass, $0.promoTempPass].compactMap { $0 } }
        for requestor in file.requestors {
            lifetimes += [requestor.authnTTL, requestor.authzTTL, requestor.regcodeTTL, requestor.tokenTTL]
            if requestor.key != nil { features.insert(.signed) }
            if requestor.softwareStatement != nil { features.insert(.softwareStatement) }
            if requestor.tokenTTL != defaults.tokenTTL { features.insert(.tokenTTL) }
            if requestor.authzTTL != defaults.authzTTL { features.insert(.authzTTL) }
        }
        if file.platform == .tvos { features.insert(.tvos) }
        self.features = features
        shortestLifetime = lifetimes.min() ?? defaults.regcodeTTL
        steps = file.steps.map(\.value).filter {
            switch $0 {
            case .expect, .seen, .lint, .browserAt: return false
            default: return true
            }
        }
    }

    /// The time its clock steps add up to.
    public var elapsed: Millis {
        steps.reduce(Millis.zero) { total, step in
            guard case .clock(let d) = step else { return total }
            return Millis(total.value + d.value)
        }
    }

    /// How many times a provider is chosen: `setSelectedProvider` calls and `user pick` steps.
    public var selectionCount: Int {
        steps.count { step in
            if case .call(_, let call) = step { return call.name == "setSelectedProvider" }
            return step.userAction == "pick"
        }
    }

    /// How many calls the program makes, of every app.
    public var callCount: Int {
        steps.count { if case .call = $0 { return true } else { return false } }
    }
}

extension Step {
    /// A user step's action as a rule names it (`user login`, `user enter-code`); nil for other steps.
    public var userAction: String? {
        switch self {
        case .userLogin: return "login"
        case .userBack: return "back"
        case .userPick: return "pick"
        case .userPickOther: return "pick-other"
        case .userCancel: return "cancel"
        case .userEnterCode: return "enter-code"
        case .userAuthenticate: return "authenticate"
        default: return nil
        }
    }

    static let userActions = ["login", "back", "pick", "pick-other", "cancel", "enter-code", "authenticate"]
}
