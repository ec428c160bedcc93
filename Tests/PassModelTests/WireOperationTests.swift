import Testing

@testable import PassModel

/// The operations table: one row per operation, each path a regex, each binding the request Adobe's
/// migration FAQ maps (the requests passim's engine sends on each wire, docs/WIRE.md).
@Suite struct WireOperationTests {
    /// Every operation has one row, and a fault's path pattern compiles and matches what the binding does.
    @Test func everyOperationHasOneRowAndItsPatternsCompile() throws {
        #expect(WireOperation.all.map(\.id) == WireOperation.ID.allCases)
        for operation in WireOperation.all {
            for binding in [operation.sdk] + (operation.restV2.map { [$0] } ?? []) {
                #expect((try? LinearRegex(binding.pathRegex)) != nil, "\(operation.id): \(binding.pathRegex)")
            }
            #expect(!operation.why.isEmpty)
        }
    }

    @Test(arguments: [
        (WireOperation.ID.configuration, "GET", "/config/REQ1", "GET", "/api/v2/REQ1/configuration"),
        (.authentication, "POST", "/sessionDevice", "GET", "/api/v2/REQ1/profiles/Comcast"),
        (.authentication, "POST", "/sessionDevice", "GET", "/api/v2/REQ1/profiles/code/ABC1234"),
        (.authorize, "POST", "/authorizeDevice", "POST", "/api/v2/REQ1/decisions/authorize/Comcast"),
        (.preauthorize, "POST", "/preauthorize", "POST", "/api/v2/REQ1/decisions/preauthorize/Comcast"),
        (.registrationCode, "POST", "/reggie/v1/REQ1/regcode", "POST", "/api/v2/REQ1/sessions"),
        (.codeCheck, "GET", "/api/v1/checkauthn/ABC1234", "GET", "/api/v2/REQ1/profiles/code/ABC1234"),
        (.partnerToken, "POST", "/api/v1/tokens/authn", "POST", "/api/v2/REQ1/profiles/sso/Apple"),
        (.logout, "DELETE", "/api/v1/logout", "GET", "/api/v2/REQ1/logout/Comcast"),
        (.loginPage, "GET", "/authenticate/saml", "GET", "/api/v2/authenticate/REQ1/ABC1234"),
    ])
    func eachWireBindsItsRequest(
        _ id: WireOperation.ID, _ sdkMethod: String, _ sdkPath: String, _ v2Method: String, _ v2Path: String
    ) throws {
        let operation = WireOperation.named(id)
        #expect(operation.sdk.matches(method: sdkMethod, path: sdkPath))
        #expect(!operation.sdk.matches(method: sdkMethod == "GET" ? "POST" : "GET", path: sdkPath), "the method counts")
        let v2 = try #require(operation.restV2)
        #expect(v2.matches(method: v2Method, path: v2Path))
        #expect(!operation.sdk.matches(method: v2Method, path: v2Path) && !v2.matches(method: sdkMethod, path: sdkPath))
        // A fault on the operation falls on the same requests.
        #expect(try LinearRegex(operation.sdk.pathRegex).wholeMatch(sdkPath))
        #expect(try LinearRegex(v2.pathRegex).wholeMatch(v2Path))
    }

    /// Where each wire carries a field: the decision's MVPD is the path's, its resources the body's.
    @Test func fieldsArePlacedPerWire() throws {
        let authorize = WireOperation.named(.authorize)
        #expect(authorize.sdk.fields[.resource] == .parameter("resource_id"))
        #expect(authorize.restV2?.fields[.resource] == .resources)
        #expect(authorize.restV2?.fields[.mvpd] == .pathSegment(5))
        #expect(authorize.restV2?.fields[.data] == nil, "v2's decisions carry no generic data")
        #expect(WireOperation.named(.mediaToken).restV2 == nil && WireOperation.named(.metadata).restV2 == nil)
    }
}
