/// An endpoint of Adobe Pass that the engine calls (or, beside them, that the mock serves to the SDK's
/// other clients), defined once: its method and its path under the SP (or the SP's origin, for client
/// registration), for the engine to build and for the simulator, the oracle, the lint and the mock to
/// recognise (a path is spelled here and nowhere else).
/// Each case says which family of clients uses it (docs/WIRE.md).
public enum Route: Hashable, Sendable, CaseIterable {
    // The AccessEnabler SDK's own wire (iOS and tvOS).
    /// `GET /config/{requestor}`: the requestor's configuration, its MVPDs.
    case config
    /// `GET /authenticate/saml?…`: the login page a browser opens.
    case authenticateSAML
    /// `POST /sessionDevice`: the authN token after a login.
    case sessionDevice
    /// `POST /authorizeDevice`: the authZ token for a resource.
    case authorizeDevice
    /// `POST /deviceShortAuthorize`: the short media token.
    case deviceShortAuthorize
    /// `POST /preauthorize`: decisions for a list of resources.
    case preauthorize
    /// `POST /getMetadataDevice`: the device id as the SP knows it.
    case getMetadataDevice
    /// `POST /usermetadata`: the user metadata of an authN token (other SDKs; the engine reads the
    /// metadata the token brought).
    case userMetadata
    /// `POST /authenticate/freepreview`: a TempPass (and a promotional one, with its data).
    case freePreview
    /// `GET /logout?…`: the logout page a browser opens.
    case logout

    // REST API v1, which the SDK calls on tvOS and for Apple SSO.
    /// `POST /reggie/v1/{requestor}/regcode`: a registration code for a second screen.
    case registrationCode
    /// `GET /api/v1/checkauthn/{code}`: has the registration code been used yet.
    case checkAuthentication
    /// `POST /api/v1/tokens/authn`: Apple's token exchanged for an authN token.
    case tokenExchange
    /// `DELETE /api/v1/logout`: tvOS's logout, no browser.
    case restLogout

    // Client registration (SDK 3.x, `init(softwareStatement:)`), at the SP's origin.
    /// `POST /o/client/register`
    case clientRegister
    /// `POST /o/client/token`
    case clientToken

    public var method: String {
        switch self {
        case .config, .authenticateSAML, .logout, .checkAuthentication: "GET"
        case .restLogout: "DELETE"
        case .sessionDevice, .authorizeDevice, .deviceShortAuthorize, .preauthorize, .getMetadataDevice, .userMetadata,
            .freePreview,
            .registrationCode, .tokenExchange, .clientRegister, .clientToken:
            "POST"
        }
    }

    /// The path's fixed segments around its one variable part, if it has one (`{requestor}`, `{code}`).
    private var template: (head: String, tail: String?) {
        switch self {
        case .config: ("/config/", "")
        case .authenticateSAML: ("/authenticate/saml", nil)
        case .sessionDevice: ("/sessionDevice", nil)
        case .authorizeDevice: ("/authorizeDevice", nil)
        case .deviceShortAuthorize: ("/deviceShortAuthorize", nil)
        case .preauthorize: ("/preauthorize", nil)
        case .getMetadataDevice: ("/getMetadataDevice", nil)
        case .userMetadata: ("/usermetadata", nil)
        case .freePreview: ("/authenticate/freepreview", nil)
        case .logout: ("/logout", nil)
        case .registrationCode: ("/reggie/v1/", "/regcode")
        case .checkAuthentication: ("/api/v1/checkauthn/", "")
        case .tokenExchange: ("/api/v1/tokens/authn", nil)
        case .restLogout: ("/api/v1/logout", nil)
        case .clientRegister: ("/o/client/register", nil)
        case .clientToken: ("/o/client/token", nil)
        }
    }

    /// The last fixed text of this endpoint's path, which every URL of it contains: a cheap test
    /// before `recognise`, for code that sees every request (the simulator's look for the
    /// registration-code request).
    public var pathEnding: String {
        guard let tail = template.tail, !tail.isEmpty else { return template.head }
        return tail
    }

    /// The path as documentation writes it, `{…}` for its variable part.
    public var pathTemplate: String {
        let (head, tail) = template
        return tail.map { head + "{…}" + $0 } ?? head
    }

    /// A regex (LinearRegex syntax) this endpoint's paths match whole, its variable part one segment:
    /// what a fault injected on an operation (`net SP fail N OPERATION`) is matched with.
    public var pathRegex: String {
        let (head, tail) = template
        guard let tail else { return LinearRegex.escaped(head) }
        return LinearRegex.escaped(head) + "[^/]+" + LinearRegex.escaped(tail)
    }

    /// The URL of this endpoint at `base` (an SP URL, or an origin for client registration), with its
    /// variable part (`parameter`, percent-escaped here) and `query`, if any.
    public func url(_ base: String, _ parameter: String? = nil, query: [(String, String)] = []) -> String {
        let url = base + path(escaped: parameter.map(FormCoding.escape))
        return query.isEmpty ? url : url + "?" + FormCoding.encode(query)
    }

    /// The path (under the SP's base URL) with its variable part, percent-escaped here: what a
    /// caller joins to a base URL itself (`joinURL`, which drops the base's trailing slash).
    public func path(_ parameter: String? = nil) -> String { path(escaped: parameter.map(FormCoding.escape)) }

    /// The path with its variable part exactly as given (`escaped`: already percent-escaped).
    private func path(escaped: String?) -> String {
        let (head, tail) = template
        return tail.map { head + (escaped ?? "") + $0 } ?? head
    }

    /// The endpoint a request to `path` (the URL's path, its SP's own path prefix included) is,
    /// with its variable part as sent; nil when the path is none of them. Longer templates are
    /// tried first, so `/api/v1/logout` is not taken for `/logout`. `method` is not checked: a wrong
    /// method at a known path is that endpoint's business.
    public static func recognise(path: String) -> (route: Route, parameter: String?)? {
        // An ASCII path (every path an engine sends) is matched on its bytes: the same answer as
        // Character comparison, which the fuzzer's step generator paid for on every logged request.
        path.utf8.allSatisfy({ $0 < 0x80 }) ? recognise(asciiPath: path) : recognise(characters: path)
    }

    /// `recognise(path:)` Character by Character (Unicode's equivalence, as `hasSuffix` compares).
    static func recognise(characters path: String) -> (route: Route, parameter: String?)? {
        for route in byLength {
            let (head, tail) = route.template
            guard let tail else {
                if path.hasSuffix(head) { return (route, nil) }
                continue
            }
            // `{head}{parameter}{tail}` at the end of the path, the parameter one non-empty segment.
            guard path.hasSuffix(tail) else { continue }
            let beforeTail = path.dropLast(tail.count)
            guard let slash = beforeTail.lastIndex(of: "/") else { continue }
            let parameter = beforeTail[beforeTail.index(after: slash)...]
            guard !parameter.isEmpty, beforeTail[...slash].hasSuffix(head) else { continue }
            return (route, String(parameter))
        }
        return nil
    }

    /// `recognise(path:)` of an ASCII path, byte by byte.
    static func recognise(asciiPath path: String) -> (route: Route, parameter: String?)? {
        func hasSuffix(_ b: Substring.UTF8View, _ suffix: String.UTF8View) -> Bool {
            b.count >= suffix.count && b.suffix(suffix.count).elementsEqual(suffix)
        }
        let all = Substring(path).utf8
        for route in byLength {
            let (head, tail) = route.template
            guard let tail else {
                if hasSuffix(all, head.utf8) { return (route, nil) }
                continue
            }
            guard hasSuffix(all, tail.utf8) else { continue }
            let beforeTail = all.dropLast(tail.utf8.count)
            guard let slash = beforeTail.lastIndex(of: UInt8(ascii: "/")) else { continue }
            let parameter = beforeTail[beforeTail.index(after: slash)...]
            guard !parameter.isEmpty, hasSuffix(beforeTail[...slash], head.utf8) else { continue }
            return (route, String(Substring(parameter)))
        }
        return nil
    }

    /// The endpoint at exactly `path`, a path relative to its SP (the SP's own prefix removed, as
    /// the mock's host table does), with its variable part as sent.
    /// The mock routes every request to an SP through this. An ASCII path (every path the simulation
    /// sends) is matched over its bytes: the templates are ASCII without CR, so there byte equality,
    /// prefix and suffix are String's, and hashing the path for a table look-up cost more than
    /// comparing it with the fixed paths' bytes. Other paths take `route(characters:)`.
    public static func route(atSPPath path: String) -> (route: Route, parameter: String?)? {
        var path = path
        let ascii: (route: Route, parameter: String?)?? = path.withUTF8 { b in
            b.isASCII ? .some(route(asciiPath: b)) : nil
        }
        if let ascii { return ascii }
        return route(characters: path)
    }

    /// `route(atSPPath:)` by String comparison: a table look-up for the fixed paths, and a prefix
    /// and a suffix for the three with a variable part.
    static func route(characters path: String) -> (route: Route, parameter: String?)? {
        if let route = fixedPaths[path] { return (route, nil) }
        for route in allCases {
            guard let tail = route.template.tail else { continue }
            let head = route.template.head
            guard path.utf8.count > head.utf8.count + tail.utf8.count, path.hasPrefix(head), path.hasSuffix(tail) else {
                continue
            }
            // Byte views: the mock's hot path (Foundation's `contains` searched with CFString here).
            let parameter = path.utf8.dropFirst(head.utf8.count).dropLast(tail.utf8.count)
            if !parameter.contains(UInt8(ascii: "/")) { return (route, String(Substring(parameter))) }
        }
        return nil
    }

    /// `route(characters:)` of an ASCII path's bytes: the fixed paths first, then the ones with a
    /// variable part in `allCases` order, as there.
    private static func route(asciiPath b: UnsafeBufferPointer<UInt8>) -> (route: Route, parameter: String?)? {
        func matches(_ text: StaticString, at start: Int) -> Bool {
            let n = text.utf8CodeUnitCount
            guard start >= 0, start + n <= b.count else { return false }
            let t = text.utf8Start
            for k in 0..<n where b[start &+ k] != t[k] { return false }
            return true
        }
        for (route, head) in fixedTemplates where head.utf8CodeUnitCount == b.count && matches(head, at: 0) {
            return (route, nil)
        }
        for (route, head, tail) in variableTemplates {
            let (h, t) = (head.utf8CodeUnitCount, tail.utf8CodeUnitCount)
            guard b.count > h + t, matches(head, at: 0), matches(tail, at: b.count - t) else { continue }
            let parameter = UnsafeBufferPointer(rebasing: b[h..<(b.count - t)])
            if !parameter.contains(UInt8(ascii: "/")) { return (route, String(decoding: parameter, as: UTF8.self)) }
        }
        return nil
    }

    /// `template` as static text, for `route(asciiPath:)` to compare bytes with no string to hash
    /// or retain; a test checks it is `template`.
    static let fixedTemplates: [(Route, StaticString)] = [
        (.authenticateSAML, "/authenticate/saml"), (.sessionDevice, "/sessionDevice"),
        (.authorizeDevice, "/authorizeDevice"), (.deviceShortAuthorize, "/deviceShortAuthorize"),
        (.preauthorize, "/preauthorize"), (.getMetadataDevice, "/getMetadataDevice"),
        (.userMetadata, "/usermetadata"), (.freePreview, "/authenticate/freepreview"), (.logout, "/logout"),
        (.tokenExchange, "/api/v1/tokens/authn"), (.restLogout, "/api/v1/logout"),
        (.clientRegister, "/o/client/register"), (.clientToken, "/o/client/token"),
    ]
    static let variableTemplates: [(Route, StaticString, StaticString)] = [
        (.config, "/config/", ""), (.registrationCode, "/reggie/v1/", "/regcode"),
        (.checkAuthentication, "/api/v1/checkauthn/", ""),
    ]

    private static let fixedPaths = Dictionary(
        uniqueKeysWithValues: allCases.compactMap { r in r.template.tail == nil ? (r.template.head, r) : nil })

    private static let byLength = allCases.sorted { a, b in
        let (la, lb) = (
            a.template.head.utf8.count + (a.template.tail?.utf8.count ?? 0),
            b.template.head.utf8.count + (b.template.tail?.utf8.count ?? 0)
        )
        return la != lb ? la > lb : a.template.head < b.template.head
    }
}
