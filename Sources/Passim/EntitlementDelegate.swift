/// The app's side of `AccessEnabler`: the SDK's `EntitlementDelegate` (and `EntitlementStatus`)
/// callbacks, named as Swift imports the Objective-C selectors (docs: "The delegate, selector by
/// selector"). Every method has an empty default, so a delegate writes only what it uses.
///
/// `deliver(_:)` receives every callback first; its default calls the named method. A delegate that
/// wants the callbacks as values (a port adapter, a recorder) implements `deliver(_:)` instead.
public protocol EntitlementDelegate: AnyObject {
    func deliver(_ callback: Callback)

    /// `setRequestorComplete:`
    func setRequestorComplete(_ status: Int)
    /// `setAuthenticationStatus:errorCode:`
    func setAuthenticationStatus(_ status: Int, errorCode: String)
    /// `displayProviderDialog:`
    func displayProviderDialog(_ mvpds: [MVPD])
    /// `navigateToUrl:` (`useSVC` nil) and `navigateToUrl:useSVC:`
    func navigate(toUrl url: String, useSVC: Bool?)
    /// `setToken:forResource:`
    func setToken(_ token: String, forResource resource: String)
    /// `tokenRequestFailed:errorCode:errorDescription:`
    func tokenRequestFailed(_ resource: String, errorCode: String, errorDescription: String)
    /// `preauthorizedResources:`
    func preauthorizedResources(_ resources: [String])
    /// `selectedProvider:`
    func selectedProvider(_ mvpd: MVPD?)
    /// `setMetadataStatus:encrypted:forKey:andArguments:`
    func setMetadataStatus(_ metadata: Value, encrypted: Bool, forKey key: Int, andArguments arguments: Value)
    /// `presentTvProviderDialog:` (the picker as the MVPDs it shows, not a view controller)
    func presentTvProviderDialog(shown: [MVPD], featured: [MVPD])
    /// `dismissTvProviderDialog:`
    func dismissTvProviderDialog(shown: [MVPD], featured: [MVPD])
    /// `sendTrackingData:forEventType:`
    func sendTrackingData(_ data: [String?], forEventType event: Int)
    /// `EntitlementStatus`'s `status:` (its `errorId` and `message`)
    func status(_ code: String, message: String?)
}

extension EntitlementDelegate {
    public func deliver(_ callback: Callback) {
        switch callback {
        case .setRequestorComplete(let status): setRequestorComplete(status)
        case .setAuthenticationStatus(let status, let code): setAuthenticationStatus(status, errorCode: code)
        case .displayProviderDialog(let mvpds): displayProviderDialog(mvpds)
        case .navigateToUrl(let url, let svc): navigate(toUrl: url, useSVC: svc)
        case .setToken(let token, let resource): setToken(token, forResource: resource)
        case .tokenRequestFailed(let resource, let code, let details):
            tokenRequestFailed(resource, errorCode: code, errorDescription: details)
        case .preauthorizedResources(let resources): preauthorizedResources(resources)
        case .selectedProvider(let mvpd): selectedProvider(mvpd)
        case .setMetadataStatus(let value, let encrypted, let opcode, let arguments):
            setMetadataStatus(value, encrypted: encrypted, forKey: opcode, andArguments: arguments)
        case .presentTvProviderDialog(let shown, let featured):
            presentTvProviderDialog(shown: shown, featured: featured)
        case .dismissTvProviderDialog(let shown, let featured):
            dismissTvProviderDialog(shown: shown, featured: featured)
        case .status(let code, let message): status(code, message: message)
        case .sendTrackingData(let event, let data): sendTrackingData(data, forEventType: event)
        }
    }

    public func setRequestorComplete(_ status: Int) {}
    public func setAuthenticationStatus(_ status: Int, errorCode: String) {}
    public func displayProviderDialog(_ mvpds: [MVPD]) {}
    public func navigate(toUrl url: String, useSVC: Bool?) {}
    public func setToken(_ token: String, forResource resource: String) {}
    public func tokenRequestFailed(_ resource: String, errorCode: String, errorDescription: String) {}
    public func preauthorizedResources(_ resources: [String]) {}
    public func selectedProvider(_ mvpd: MVPD?) {}
    public func setMetadataStatus(_ metadata: Value, encrypted: Bool, forKey key: Int, andArguments arguments: Value) {}
    public func presentTvProviderDialog(shown: [MVPD], featured: [MVPD]) {}
    public func dismissTvProviderDialog(shown: [MVPD], featured: [MVPD]) {}
    public func sendTrackingData(_ data: [String?], forEventType event: Int) {}
    public func status(_ code: String, message: String?) {}
}
