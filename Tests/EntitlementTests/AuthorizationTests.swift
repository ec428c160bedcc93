import PassModel
import PassXML
import Testing
@testable import Entitlement

@Suite struct AuthorizationTests {
    /// Configured and authenticated with X at https://sp.test.
    func authenticated() -> EngineHarness {
        var h = EngineHarness()
        h.call(.setRequestor(requestorID: "REQ1", serviceProviders: nil))
        h.answer(h.sent[0].0, EngineHarness.config("REQ1", [("X", "X")]))
        h.call(.getAuthentication(forceAuthn: false, data: nil, filter: nil))
        h.call(.setSelectedProvider("X"))
        h.call(.handleExternalURL("adobepass://ios.app"))
        h.answer(h.sent.last!.0, EngineHarness.token(mvpd: "X", expires: h.now + .hours(2)))
        _ = h.takeCallbacks()
        return h
    }

    func authzToken(_ r: String, expires: Instant) -> HTTPResult {
        let t = AuthzToken(
            sessionGUID: "guid-1", requestorID: "REQ1", resourceID: r, mvpdID: "X", deviceID: "d", expires: expires)
        return .response(
            HTTPResponse(status: 200, contentType: "application/xml", text: AuthorizeDeviceXML.build(.token(t))))
    }

    @Test func authorizeThenMediaTokenThenCache() throws {
        var h = authenticated()
        h.call(.checkAuthorization(resource: "CNN", data: nil))
        let (authorize, request) = try #require(h.sent.last)
        #expect(request.url == "https://sp.test/authorizeDevice")
        #expect(request.parameter("resource_id") == "CNN")
        #expect(request.parameter("authentication_token").map { $0.contains("guid-1") } == true)
        h.answer(authorize, authzToken("CNN", expires: h.now + .hours(1)))
        let (media, mediaRequest) = try #require(h.sent.last)
        #expect(mediaRequest.url == "https://sp.test/deviceShortAuthorize")
        h.answer(media, .response(HTTPResponse(status: 200, contentType: "text/plain", text: "MEDIA")))
        let hash = Tracking.guidHash("guid-1")
        #expect(
            h.takeCallbacks() == [
                #"setToken("MEDIA", "CNN")"#,
                #"sendTrackingData(TRACKING_AUTHORIZATION, ["true", "X", "\#(hash)", "false", nil, nil, "mobile", "ios", "iOS"])"#,
            ])
        // Cached: straight to the media token.
        let before = h.sent.count
        h.call(.getAuthorization(resource: "CNN", data: nil))
        #expect(h.sent.count == before + 1 && h.sent.last?.1.url == "https://sp.test/deviceShortAuthorize")
        h.answer(h.sent.last!.0, .response(HTTPResponse(status: 200, contentType: "text/plain", text: "MEDIA2")))
        #expect(h.takeCallbacks().last?.contains(#""true", nil, nil"#) == true)
    }

    @Test func refusalsAndFailures() {
        let cases: [(HTTPResult, String)] = [
            (
                .response(
                    HTTPResponse(
                        status: 403, contentType: "application/xml",
                        text: ErrorXML.build(ErrorBody(status: 403, message: "no", details: "Upgrade")))),
                #"tokenRequestFailed("CNN", USER_NOT_AUTHORIZED_ERROR, "Upgrade")"#
            ),
            (
                .response(HTTPResponse(status: 500)),
                #"tokenRequestFailed("CNN", GENERIC_AUTHORIZATION_ERROR, "HTTP 500")"#
            ),
            (
                .failure("connection refused"),
                #"tokenRequestFailed("CNN", GENERIC_AUTHORIZATION_ERROR, "connection refused")"#
            ),
            (.timeout, #"tokenRequestFailed("CNN", GENERIC_AUTHORIZATION_ERROR, "timed out")"#),
        ]
        for (result, expected) in cases {
            var h = authenticated()
            h.call(.checkAuthorization(resource: "CNN", data: nil))
            h.answer(h.sent.last!.0, result)
            let cbs = h.takeCallbacks()
            #expect(cbs.first == expected)
            #expect(
                cbs.count == 2
                    && cbs[1].hasPrefix(#"sendTrackingData(TRACKING_AUTHORIZATION, ["false", nil, nil, nil, "#))
        }
    }

    @Test func preauthorizationCacheAndFailure() throws {
        var h = authenticated()
        h.call(.checkPreauthorizedResources(["A", "B"], cache: true))
        let (id, request) = try #require(h.sent.last)
        #expect(request.parameters.filter { $0.0 == "resource_id" }.map(\.1) == ["A", "B"])
        let body = PreauthorizeXML.build([
            .init(resourceID: "A", authorized: false, error: nil), .init(resourceID: "B", authorized: true, error: nil),
        ])
        h.answer(id, .response(HTTPResponse(status: 200, contentType: "application/xml", text: body)))
        #expect(h.takeCallbacks() == [#"preauthorizedResources(["B"])"#])
        let sent = h.sent.count
        h.call(.checkPreauthorizedResources(["B", "A"], cache: true))
        #expect(h.sent.count == sent, "answered from the cache")
        #expect(h.takeCallbacks() == [#"preauthorizedResources(["B"])"#])
        h.call(.checkPreauthorizedResources(["C", "B"], cache: true))
        #expect(h.sent.last?.1.parameters.filter { $0.0 == "resource_id" }.map(\.1) == ["C"])
        h.answer(h.sent.last!.0, .failure("refused"))
        #expect(h.takeCallbacks() == [#"preauthorizedResources(["B"])"#])
    }

    @Test func metadataFromTheStore() {
        var h = authenticated()
        h.call(.getMetadata(.dict([Value.Entry("opCode", .int(0))])))
        #expect(
            h.takeCallbacks() == [
                #"setMetadataStatus("\#((h.now + .hours(2)).tokenDate)", false, METADATA_AUTHENTICATION, {opCode: 0})"#
            ])
        h.call(.getMetadata(.dict([Value.Entry("opCode", .int(1)), Value.Entry("resource_id", .string("CNN"))])))
        #expect(
            h.takeCallbacks() == [
                #"setMetadataStatus(nil, false, METADATA_AUTHORIZATION, {opCode: 1, resource_id: "CNN"})"#
            ])
    }
}
