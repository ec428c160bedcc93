/// The operations a client of Adobe Pass performs, each bound once per dialect: the SDK's wire and
/// REST API v2 (Adobe's "Migration from SDK to REST API V2" FAQ maps the one onto the other;
/// rest-api-v2.md 1.7). A scenario's `seen main authorize with resource="R1"` and `net main fail 1
/// authorize` name an operation; each wire's binding says which request it is there and where the
/// request carries each field, so one line holds on both wires.
public struct WireOperation: Sendable {
    public enum ID: String, Sendable, CaseIterable {
        case configuration
        /// The login page the browser opens: the SDK's `authenticate/saml`, v2's `authenticate/{sp}/{code}`.
        case loginPage = "login-page"
        /// Reading the authentication: the SDK's `sessionDevice`, v2's profiles.
        case authentication
        case authorize
        /// The short media token: the SDK's `deviceShortAuthorize`; v2's decision carries it.
        case mediaToken = "media-token"
        case preauthorize
        /// The device's metadata: the SDK's `getMetadataDevice`; v2 has none (the device id is the app's own).
        case metadata
        /// A second-screen registration code: the SDK's `regcode`, v2's session.
        case registrationCode = "registration-code"
        /// The device polling its code: the SDK's `checkauthn`, v2's profile by code.
        case codeCheck = "code-check"
        /// Apple's token exchanged for an authentication: the SDK's `tokens/authn`, v2's partner profile.
        case partnerToken = "partner-token"
        /// A TempPass started: the SDK's `freepreview`, v2's session.
        case tempPass = "temppass"
        case logout
    }

    /// A field an operation carries, by its meaning.
    public enum Field: String, Sendable, CaseIterable {
        case requestor
        case mvpd
        case resource
        /// What the app passed as data (the SDK's `generic_data`; a promotional TempPass's identity on v2).
        case data
        /// The deprecated signed requestor id (the SDK's `signed_requestor_id`); v2 knows DCR only.
        case signedRequestor = "signed-requestor"
    }

    /// Where a request of one wire carries a field.
    public enum Place: Sendable, Equatable {
        /// A query or form parameter of this name.
        case parameter(String)
        /// The path segment at this index (0: the first after the leading slash).
        case pathSegment(Int)
        /// One of the resources a JSON body's `resources` names.
        case resources
        /// The JSON object a header carries (Base64), compared as JSON.
        case jsonHeader(String)
    }

    /// The operation on one wire: its request, by the route types that spell every wire path once
    /// (`Route` for the SDK's, `V2Route` for REST API v2's), and where it carries each field. A field
    /// missing from `fields` is one this wire does not send: a `seen` line's value for it is not checked there.
    public struct Binding: Sendable {
        public enum Request: Sendable {
            case sdk(Route)
            /// Any of these REST v2 operations (the authentication is read from three profile routes).
            case restV2([V2Route.Operation])
        }

        public var request: Request
        public var fields: [Field: Place]

        public init(_ request: Request, _ fields: [Field: Place] = [:]) {
            self.request = request
            self.fields = fields
        }

        /// Whether a request (its method, and its path relative to the SP's URL) is this binding's.
        public func matches(method: String, path: String) -> Bool {
            switch request {
            case .sdk(let route):
                return route.method == method && Route.route(atSPPath: path)?.route == route
            case .restV2(let operations):
                guard let route = V2Route(method: method, path: path) else { return false }
                return route.method == method && operations.contains(route.operation)
            }
        }

        /// A regex the request's paths match whole: what a fault on the operation is matched with (every
        /// runtime, a running server's `/admin/net` included, takes a path pattern).
        public var pathRegex: String {
            switch request {
            case .sdk(let route): return route.pathRegex
            case .restV2(let operations):
                return operations.map { "(?:" + V2Route.pathRegex(of: $0) + ")" }.joined(separator: "|")
            }
        }

        /// How the migration pages show it: its method and path, `{…}` for each variable part.
        public var shown: String {
            switch request {
            case .sdk(let route):
                return route.method + " " + route.pathTemplate
            case .restV2(let operations): return operations.map(V2Route.shown).joined(separator: ", ")
            }
        }
    }

    public var id: ID
    public var sdk: Binding
    /// Nil: REST API v2 has no such request; `why` says where the operation went.
    public var restV2: Binding?
    /// Why the bindings are what they are, with Adobe's page.
    public var why: String

    public func binding(on wire: EngineWire) -> Binding? { wire == .sdk ? sdk : restV2 }

    /// Whether a request (its method, and its path relative to the SP's URL, as the journal keeps
    /// it) is this operation on any wire.
    public func matches(method: String, path: String) -> Bool {
        sdk.matches(method: method, path: path) || restV2?.matches(method: method, path: path) == true
    }

    public static func named(_ id: ID) -> WireOperation {
        all.first { $0.id == id }!  // the table has every ID (a test checks it)
    }

    /// The table: one row per operation.
    public static let all: [WireOperation] = {
        let sdkFields: [Field: Place] = [
            .requestor: .parameter("requestor_id"), .mvpd: .parameter("mso_id"), .resource: .parameter("resource_id"),
            .data: .parameter("generic_data"), .signedRequestor: .parameter("signed_requestor_id"),
        ]
        // v2's paths: /api/v2/{serviceProvider}/…, so the requestor is segment 2 and a last argument 4 or 5.
        let v2Requestor: [Field: Place] = [.requestor: .pathSegment(2)]
        let decision: [Field: Place] = [.requestor: .pathSegment(2), .mvpd: .pathSegment(5), .resource: .resources]
        let session: [Field: Place] = [
            .requestor: .pathSegment(2), .mvpd: .parameter("mvpd"), .data: .jsonHeader("AP-TempPass-Identity"),
        ]
        return [
            WireOperation(
                id: .configuration, sdk: Binding(.sdk(.config), [.requestor: .pathSegment(1)]),
                restV2: Binding(.restV2([.configuration]), v2Requestor),
                why: "FAQ: the provider list comes from GET configuration"),
            WireOperation(
                id: .loginPage, sdk: Binding(.sdk(.authenticateSAML), sdkFields),
                restV2: Binding(.restV2([.authenticate]), [.requestor: .pathSegment(3)]),
                why:
                    "the login page is the session's /authenticate/{sp}/{code} (rest-api-v2.md 1.3), which carries no generic data"
            ),
            WireOperation(
                id: .authentication, sdk: Binding(.sdk(.sessionDevice), sdkFields),
                restV2: Binding(
                    .restV2([.profiles, .profile, .profileForCode]),
                    [.requestor: .pathSegment(2), .mvpd: .pathSegment(4)]),
                why: "FAQ: the authentication comes from the profiles endpoints (of the session's code, or of the MVPD)"
            ),
            WireOperation(
                id: .authorize, sdk: Binding(.sdk(.authorizeDevice), sdkFields),
                restV2: Binding(.restV2([.authorize]), decision),
                why: "FAQ: checkAuthorization/getAuthorization are POST decisions/authorize/{mvpd}"),
            WireOperation(
                id: .mediaToken, sdk: Binding(.sdk(.deviceShortAuthorize), sdkFields), restV2: nil,
                why:
                    "decisions/authorize carries the media token (rest-api-v2.md 1.3, token.serializedToken): no request of its own"
            ),
            WireOperation(
                id: .preauthorize, sdk: Binding(.sdk(.preauthorize), sdkFields),
                restV2: Binding(.restV2([.preauthorize]), decision),
                why: "FAQ: checkPreauthorizedResources is POST decisions/preauthorize/{mvpd}"),
            WireOperation(
                id: .metadata, sdk: Binding(.sdk(.getMetadataDevice), sdkFields), restV2: nil,
                why: "REST API v2 has no device metadata operation (rest-api-v2.md 1.3): the device id is the app's own"
            ),
            WireOperation(
                id: .registrationCode,
                sdk: Binding(.sdk(.registrationCode), [.requestor: .pathSegment(2), .mvpd: .parameter("mvpd")]),
                restV2: Binding(.restV2([.createSession]), session),
                why: "FAQ: the tvOS registration code is a session's code (POST sessions)"),
            WireOperation(
                id: .codeCheck, sdk: Binding(.sdk(.checkAuthentication), sdkFields),
                restV2: Binding(.restV2([.profileForCode]), v2Requestor),
                why: "flows, second screen: the device polls GET profiles/code/{code}"),
            WireOperation(
                id: .partnerToken, sdk: Binding(.sdk(.tokenExchange), sdkFields),
                restV2: Binding(.restV2([.partnerProfile]), v2Requestor),
                why: "partner SSO: Apple's token goes to POST profiles/sso/{partner}"),
            WireOperation(
                id: .tempPass, sdk: Binding(.sdk(.freePreview), sdkFields),
                restV2: Binding(.restV2([.createSession]), session),
                why: "temporary access flows: a TempPass starts as any login, with POST sessions"),
            WireOperation(
                id: .logout, sdk: Binding(.sdk(.restLogout), sdkFields),
                restV2: Binding(.restV2([.logout]), [.requestor: .pathSegment(2), .mvpd: .pathSegment(4)]),
                why: "FAQ: logout is GET logout/{mvpd}"),
        ]
    }()
}
