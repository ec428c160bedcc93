import PassModel

/// What a request the engine sends is, to the oracle: the one place a request is recognised (by
/// its path today; once PassModel has a typed route table, by its route: only `init` changes).
/// Everything else in the oracle switches over `Kind`, exhaustively, so a new kind the oracle must
/// follow is a compile error wherever it matters, not a URL suffix missed in one of several places.
struct OracleRequest: Equatable, Sendable {
    enum Kind: Equatable, Sendable {
        /// `authorizeDevice`: an authorization asks for its authZ token for `resource`.
        case authorize(resource: String?)
        /// `deviceShortAuthorize`: an authorization asks for its media token (the resource is not
        /// in the request: the oracle knows it from the authorization that sends it).
        case mediaToken
        /// `preauthorize`: a preauthorization's request.
        case preauthorize
        /// `authenticate/freepreview`: a login with a TempPass selected.
        case tempPassLogin
        /// Anything else (configuration, registration, session, logout, metadata, the browser's
        /// pages): the oracle follows none of it.
        case other
    }

    let kind: Kind
    /// The authN token it carries (`authentication_token`), read only from the kinds that carry one
    /// (the others are not decoded at all: the fuzzer's hot path).
    let authnToken: String?

    init(_ request: HTTPRequest) {
        let kind = OracleRequest.kind(ofPath: request.url)
        switch kind {
        case .authorize, .mediaToken, .preauthorize:
            let parameters = request.parameters
            if case .authorize = kind {
                self.kind = .authorize(resource: parameters.first { $0.0 == "resource_id" }?.1)
            } else {
                self.kind = kind
            }
            authnToken = parameters.first { $0.0 == "authentication_token" }?.1
        case .tempPassLogin, .other:
            self.kind = kind
            authnToken = nil
        }
    }

    /// By the URL's last path segment, read as bytes (most requests are none of these: the fuzzer's
    /// hot path). The URL's end, as the engine writes it: no query on these POSTs.
    static func kind(ofPath url: String) -> Kind {
        var url = url
        return url.withUTF8 { bytes in
            let slash = bytes.lastIndex(of: UInt8(ascii: "/")) ?? -1
            let segment = UnsafeBufferPointer(rebasing: bytes[(slash + 1)...])
            func named(_ name: StaticString) -> Bool {
                segment.count == name.utf8CodeUnitCount
                    && segment.elementsEqual(UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
            }
            if named("authorizeDevice") { return .authorize(resource: nil) }
            if named("deviceShortAuthorize") { return .mediaToken }
            if named("preauthorize") { return .preauthorize }
            if named("freepreview") {
                let before = UnsafeBufferPointer(rebasing: bytes[..<max(slash, 0)])
                let parent = "/authenticate"
                return before.count >= parent.utf8.count && before.suffix(parent.utf8.count).elementsEqual(parent.utf8)
                    ? .tempPassLogin : .other
            }
            return .other
        }
    }

    /// A hand-built classification (the oracle's unit tests).
    init(kind: Kind, authnToken: String? = nil) {
        self.kind = kind
        self.authnToken = authnToken
    }
}
