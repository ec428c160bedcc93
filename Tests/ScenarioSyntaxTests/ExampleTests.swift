import PassModel
import Testing
@testable import ScenarioSyntax

/// The example at the top of SCENARIO-FORMAT.md.
let formatExample = """
    # Backing out of the provider picker resets the authentication flow.
    scenario "cancel at the provider picker"
    tags authn cancel

    sp main "https://sp.auth.test" latency 40ms
    mvpd Comcast "Xfinity" at main
    mvpd Dish "DISH" at main
    user alice "secret" at Comcast allow CNN, HBO deny ESPN
    requestor REQ1

    > setRequestor("REQ1")
    < setRequestorComplete(1)
    > getAuthentication()
    < displayProviderDialog([Comcast, Dish])
    > setSelectedProvider(nil)
    < setAuthenticationStatus(0, PROVIDER_NOT_SELECTED_ERROR)
    < sendTrackingData(TRACKING_AUTHENTICATION, ["false", nil, nil, nil, "mobile", "ios", "iOS"])
    """

@Suite struct ExampleTests {
    @Test func headerAndWorld() throws {
        let file = try parse(formatExample)
        #expect(file.path == testPath)
        #expect(file.title == "cancel at the provider picker")
        #expect(file.description == "Backing out of the provider picker resets the authentication flow.")
        #expect(file.tags == ["authn", "cancel"])
        #expect(file.platform == .ios)
        #expect(file.device == .mobile)
        #expect(file.seed == nil)
        #expect(file.apps.isEmpty)
        #expect(file.svcScheme == "adbe.u-passim://adobe.com")
        #expect(
            file.world == [
                Located(
                    .sp(SPDecl(name: "main", url: "https://sp.auth.test", latency: Millis(40))),
                    location: loc(5, 1), text: "sp main \"https://sp.auth.test\" latency 40ms"),
                Located(
                    .mvpd(MVPDDecl(id: "Comcast", displayName: "Xfinity", sps: ["main"])),
                    location: loc(6, 1), text: "mvpd Comcast \"Xfinity\" at main"),
                Located(
                    .mvpd(MVPDDecl(id: "Dish", displayName: "DISH", sps: ["main"])),
                    location: loc(7, 1), text: "mvpd Dish \"DISH\" at main"),
                Located(
                    .user(
                        UserDecl(
                            name: "alice", password: "secret", mvpd: "Comcast", allow: ["CNN", "HBO"], deny: ["ESPN"])),
                    location: loc(8, 1), text: "user alice \"secret\" at Comcast allow CNN, HBO deny ESPN"),
                Located(.requestor(RequestorDecl(id: "REQ1")), location: loc(9, 1), text: "requestor REQ1"),
            ])
    }

    @Test func steps() throws {
        let file = try parse(formatExample)
        func call(_ name: String, _ line: Int, _ args: [(ValueSyntax, Int)]) -> CallSyntax {
            CallSyntax(
                name: name, arguments: args.map { ArgumentSyntax(value: $0.0, location: loc(line, $0.1)) },
                location: loc(line, 3))
        }
        let notSelected = ValueSyntax.constant(
            symbol: "PROVIDER_NOT_SELECTED_ERROR", value: .string("Provider Not Selected Error"))
        let tracking = ValueSyntax.constant(symbol: "TRACKING_AUTHENTICATION", value: .int(0))
        let expected: [Step] = [
            .call(app: nil, call("setRequestor", 11, [(.string("REQ1"), 16)])),
            .expect(app: nil, call("setRequestorComplete", 12, [(.int(1), 24)])),
            .call(app: nil, call("getAuthentication", 13, [])),
            .expect(app: nil, call("displayProviderDialog", 14, [(.list([.name("Comcast"), .name("Dish")]), 25)])),
            .call(app: nil, call("setSelectedProvider", 15, [(.null, 23)])),
            .expect(app: nil, call("setAuthenticationStatus", 16, [(.int(0), 27), (notSelected, 30)])),
            .expect(
                app: nil,
                call(
                    "sendTrackingData", 17,
                    [
                        (tracking, 20),
                        (
                            .list([
                                .string("false"), .null, .null, .null, .string("mobile"), .string("ios"),
                                .string("iOS"),
                            ]), 45
                        ),
                    ])),
        ]
        #expect(file.steps.map(\.value) == expected)
        #expect(file.steps.map(\.location) == (11...17).map { loc($0, 1) })
        #expect(file.steps.map(\.text) == formatExample.split(separator: "\n").suffix(7).map(String.init))
    }

    @Test func canonicalTextRoundTrips() throws {
        let file = try parse(formatExample)
        for step in file.steps {
            guard case .call(_, let c) = step.value else {
                if case .expect(_, let c, _) = step.value { #expect("< " + c.description == step.text) }
                continue
            }
            #expect("> " + c.description == step.text)
        }
    }
}
