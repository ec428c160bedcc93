import PassModel

/// A user's login in a browser that runs to its end at once, outside virtual time: what `passim
/// serve`'s `POST /admin/login` does for a REST API v2 session's code (Harness's `RunningServer.login`).
///
/// It is the browser half of a scenario's `user authenticate $CODE as "NAME"` (`ScenarioRunner.v2Login`),
/// made of the same parts: the `Browser` opens the session's `/api/v2/authenticate/{sp}/{code}` and
/// follows the redirects and auto-submitting forms to the MVPD's login page (SAML, or OAuth2 with
/// PKCE), a `CookieJar` of its own carries the cookies, the user fills the login form with the
/// fields `SimulatedUser.loginFields` gives, and the browser runs until it stops again, normally
/// once it leaves for the session's `redirectUrl`. Only the clock differs: `fetch` answers each
/// load at once, or says (nil) that its URL is on no host of the world, which is where the browser
/// leaves them.
public enum HeadlessLogin {
    /// How the walk ended.
    public enum Outcome: Hashable, Sendable {
        /// After the form was sent the browser left the world's hosts (`fetch` answered nil) or
        /// reached an app's custom scheme, at this URL: the session's `redirectUrl`, the login done.
        case left(at: String)
        /// After the form was sent the browser stopped at a page: the MVPD's login page again, with
        /// the message it shows (wrong user name or password), or another page.
        case stopped(at: String, title: String, message: String?)
        /// Where the user should log in there was no login form: the browser stopped at this page
        /// (title empty when it left the hosts or reached a custom scheme first).
        case noLoginForm(at: String, title: String)
        /// A load was answered with no page to show: its status and body (a REST API v2 error of
        /// `authenticate/{sp}/{code}` for an unknown or used code, an SP's or IdP's error page).
        case refused(at: String, status: Int, body: String)
        /// A load got no answer (a host down or silent), or the browser gave up (too many redirects,
        /// an unreadable page).
        case failed(at: String, reason: String)
    }

    /// Walks the login from `url` as `user` with `password`.
    public static func run(url: String, user: String, password: String, fetch: (HTTPRequest) -> HTTPResult?)
        -> Outcome
    {
        var walk = Walk()
        if let left = walk.drive(walk.browser.open(url, owner: "second screen"), fetch) {
            return .noLoginForm(at: left, title: "")
        }
        switch walk.browser.state {
        case .showing(let at, let page):
            guard let form = walk.browser.fill(SimulatedUser.loginFields(user: user, password: password)) else {
                return .noLoginForm(at: at, title: page.title)
            }
            if let left = walk.drive(form, fetch) { return .left(at: left) }
            switch walk.browser.state {
            case .showing(let at, let page): return .stopped(at: at, title: page.title, message: page.message)
            case .intercepted(let at): return .left(at: at)
            default: return walk.ended()
            }
        case .intercepted(let at): return .noLoginForm(at: at, title: "")
        default: return walk.ended()
        }
    }

    /// The browser, its cookies and the last answer it got.
    private struct Walk {
        var browser = Browser()
        var cookies = CookieJar()
        var last: HTTPResponse?

        /// Loads `first` and whatever the browser asks next until it stops; the URL it was about to
        /// load when that URL is on no host (`fetch` nil), else nil.
        mutating func drive(_ first: Browser.Fetch?, _ fetch: (HTTPRequest) -> HTTPResult?) -> String? {
            var next = first
            while let load = next {
                guard let result = fetch(cookies.apply(to: load.request)) else { return load.request.url }
                if case .response(let response) = result {
                    cookies.store(from: response, url: load.request.url)
                    last = response
                }
                next = browser.receive(result, load: load.load)
            }
            return nil
        }

        /// The outcome of a browser that stopped on an error (or, never, still loading or closed).
        func ended() -> Outcome {
            switch browser.state {
            case .error(let at, let reason):
                if let last, !(200..<400).contains(last.status), reason.hasPrefix("HTTP ") {
                    return .refused(at: at, status: last.status, body: last.bodyText)
                }
                return .failed(at: at, reason: reason)
            case .loading(let at, _): return .failed(at: at, reason: "still loading")
            case .showing(let at, _), .intercepted(let at): return .failed(at: at, reason: "stopped")
            case .closed: return .failed(at: "", reason: "the browser closed")
            }
        }
    }
}
