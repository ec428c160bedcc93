import PassModel

/// A browser the simulation drives: the device's web view (the app that opened it lends it its
/// cookies, as WKWebView shares the app's) or the second screen where a tvOS user enters the
/// registration code (a phone or laptop: its own cookies). Both follow redirects and forms the same
/// way (`Browser`); they differ only in whose cookies go with each load and who they are in the trace.
struct BrowserSession {
    /// Which browser a page load belongs to (events carry it back to the session).
    enum Screen: Int, Hashable, Sendable {
        case device
        case second
    }

    let screen: Screen
    var browser = Browser()
    /// The second screen's cookies; the device's browser carries its owner app's instead, and these
    /// only while the app's REST API v2 client owns it (`Simulator.restV2Client`).
    var cookies = CookieJar()

    init(_ screen: Screen) { self.screen = screen }

    /// Who sends its requests, in the trace.
    var party: TraceEvent.Party {
        switch screen {
        case .device: return .browser
        case .second: return .secondScreen
        }
    }
}
