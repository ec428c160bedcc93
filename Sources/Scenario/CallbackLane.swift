import PassModel

/// Which kind of flow delivers a callback, as far as the callback alone tells (a port or a live run
/// gives the runner nothing more). Under an expectations file's `timing N` rule, a `<` line may take
/// its callback before callbacks of other lanes delivered up to N round trips before it: on a wire that
/// sends another number of requests for one call (REST API v2), two flows in flight end in another
/// order, while each flow's own callbacks keep theirs (docs/PORTING.md, "timing").
///
/// Lanes are coarse on purpose: two authorizations are one lane, as are a login and a logout (both
/// open the browser and end in `setAuthenticationStatus`), so no reordering is accepted that the
/// callbacks cannot show to be of different flows.
enum CallbackLane: Hashable {
    case configuration, authentication, authorization, preauthorization, query

    init(_ callback: Callback) {
        switch callback {
        case .setRequestorComplete: self = .configuration
        case .setAuthenticationStatus, .displayProviderDialog, .navigateToUrl, .presentTvProviderDialog,
            .dismissTvProviderDialog:
            self = .authentication
        case .setToken, .tokenRequestFailed: self = .authorization
        case .preauthorizedResources: self = .preauthorization
        case .selectedProvider, .setMetadataStatus: self = .query
        case .status(let code, _):
            // The throttle's codes name their call (rest-api-v2.md 1.7): Z100 an authorization, P100 a
            // preauthorization, CFG429 a setRequestor; R400 (a refused registration) is setRequestor's
            // too. Every other status comes from a login or a logout (VSA203, N003, N005, REGCODE, REG500).
            switch code {
            case StatusCode.authorizationThrottled: self = .authorization
            case StatusCode.preauthorizationThrottled: self = .preauthorization
            case StatusCode.configurationThrottled, StatusCode.registrationRefused: self = .configuration
            default: self = .authentication
            }
        case .sendTrackingData(let event, _):
            // An authorization's tracking, else an authentication's or a provider selection's.
            self = event == Constants.trackingAuthorization ? .authorization : .authentication
        }
    }

    /// Which of `pending` (an app's delivered callbacks, in order) a `<` line may take before the
    /// next one: the first after it that `accepts` takes, delivered within `window` of the next, with
    /// only callbacks of other lanes delivered before it. Nil when none qualifies.
    static func bringable(
        _ pending: [(callback: Callback, at: Instant)], within window: Millis, accepts: (Callback) -> Bool
    ) -> Int? {
        guard let next = pending.first else { return nil }
        var passed: Set<CallbackLane> = []
        for (k, p) in pending.enumerated() {
            guard p.at <= next.at + window else { return nil }
            let lane = CallbackLane(p.callback)
            if k > 0, !passed.contains(lane), accepts(p.callback) { return k }
            passed.insert(lane)
        }
        return nil
    }
}
