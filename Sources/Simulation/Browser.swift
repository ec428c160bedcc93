import PassModel
import PassXML

/// The web view an app opens on `navigateToUrl`. It follows 3xx redirects and auto-submitting forms
/// (which is how SAML travels), and stops where a person or the app must act: a page that needs the
/// user, the custom scheme (`adobepass://ios.app` or the app's SVC scheme), or an error page.
public struct Browser: Hashable, Sendable {
    public enum State: Hashable, Sendable {
        case closed
        /// A request is out; `load` tells a stale response from the current one.
        case loading(url: String, load: Int)
        /// A page that needs the user (a login form).
        case showing(url: String, page: HTMLPage)
        /// The app's custom scheme was reached; the app should call `handleExternalURL`.
        case intercepted(url: String)
        case error(url: String, reason: String)
    }

    public private(set) var state: State = .closed
    /// The app that opened it: its cookies go with every request.
    public private(set) var owner: String = ""
    private var load = 0
    /// Redirects and auto-submits followed since the last stop: a loop guard.
    private var hops = 0
    static let maxHops = 20

    public var isStopped: Bool {
        if case .loading = state { return false }
        return true
    }

    /// Where the browser is, for `browser at`.
    public var location: String? {
        switch state {
        case .closed: return nil
        case .loading(let u, _), .showing(let u, _), .intercepted(let u), .error(let u, _): return u
        }
    }

    /// What to fetch next, if anything.
    public struct Fetch: Hashable, Sendable {
        public var request: HTTPRequest
        public var load: Int
    }

    mutating func open(_ url: String, owner: String) -> Fetch? {
        self.owner = owner
        hops = 0
        return go(HTTPRequest(method: "GET", url: url))
    }

    mutating func close() {
        state = .closed
    }

    private mutating func go(_ request: HTTPRequest) -> Fetch? {
        guard let parts = URLParts(request.url) else {
            state = .error(url: request.url, reason: "invalid URL")
            return nil
        }
        guard parts.isHTTP else {
            state = .intercepted(url: request.url)
            return nil
        }
        hops += 1
        guard hops <= Browser.maxHops else {
            state = .error(url: request.url, reason: "too many redirects")
            return nil
        }
        load += 1
        state = .loading(url: request.url, load: load)
        return Fetch(request: request, load: load)
    }

    /// The response to the current load arrived.
    mutating func receive(_ result: HTTPResult, load: Int) -> Fetch? {
        guard case .loading(let url, let current) = state, current == load else { return nil }
        guard case .response(let response) = result else {
            state = .error(url: url, reason: result == .timeout ? "timed out" : "cannot connect")
            return nil
        }
        let base = URLParts(url)
        if (300..<400).contains(response.status), let location = response.headers["Location"] {
            return go(HTTPRequest(method: "GET", url: base?.resolve(location) ?? location))
        }
        guard (200..<300).contains(response.status) else {
            state = .error(url: url, reason: "HTTP \(response.status)")
            return nil
        }
        guard let page = response.decoded(orParse: HTMLPageXML.parse) else {
            state = .error(url: url, reason: "unreadable page")
            return nil
        }
        if let form = page.forms.first(where: \.autoSubmit) {
            return submit(form, base: base)
        }
        hops = 0
        state = .showing(url: url, page: page)
        return nil
    }

    /// The user fills `values` into the shown form that has those fields and submits it.
    mutating func fill(_ values: [String: String]) -> Fetch? {
        guard case .showing(let url, let page) = state,
            let form = page.forms.first(where: { f in values.keys.allSatisfy { k in f.fields.contains { $0.name == k } }
            })
        else { return nil }
        var filled = form
        for i in filled.fields.indices {
            if let v = values[filled.fields[i].name] { filled.fields[i].value = v }
        }
        return submit(filled, base: URLParts(url))
    }

    private mutating func submit(_ form: HTMLForm, base: URLParts?) -> Fetch? {
        let action = base?.resolve(form.action) ?? form.action
        let fields = form.fields.map { ($0.name, $0.value) }
        if form.method == "GET" {
            let sep = action.contains("?") ? "&" : "?"
            return go(HTTPRequest(method: "GET", url: action + sep + FormCoding.encode(fields)))
        }
        return go(HTTPRequest.form(action, fields))
    }
}
