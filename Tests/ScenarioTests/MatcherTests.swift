import PassModel
import ScenarioSyntax
import Testing
@testable import Scenario

@Suite struct MatcherTests {
    func pattern(_ text: String) throws -> CallSyntax {
        // The names the patterns use are the world's (a bare name must be one it declares).
        let world =
            "scenario \"m\"\nsp main \"https://sp.test\"\nmvpd Comcast \"Xfinity\" at main\n"
            + "mvpd Dish \"DISH\" at main\n"
        let file = try ScenarioParser.parse(world + "< \(text)\n", path: "m.scenario")
        guard case .expect(_, let call, _) = file.steps[0].value else { throw Failure() }
        return call
    }
    struct Failure: Error {}

    let comcast = MVPD(id: "Comcast", displayName: "Xfinity", boardingStatus: .picker)

    @Test func valuesConstantsAndArity() throws {
        var b = Bindings()
        #expect(
            Matcher.match(
                try pattern("setAuthenticationStatus(0, PROVIDER_NOT_SELECTED_ERROR)"),
                .setAuthenticationStatus(status: 0, errorCode: "Provider Not Selected Error"), bindings: &b))
        #expect(
            Matcher.match(
                try pattern(#"setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, "Provider Not Selected Error")"#),
                .setAuthenticationStatus(status: 0, errorCode: "Provider Not Selected Error"), bindings: &b))
        #expect(
            !Matcher.match(
                try pattern("setAuthenticationStatus(1, _)"),
                .setAuthenticationStatus(status: 0, errorCode: ""), bindings: &b))
        #expect(!Matcher.match(try pattern("navigateToUrl(_)"), .navigateToUrl("u", useSVC: true), bindings: &b))
        #expect(Matcher.match(try pattern("navigateToUrl(_, true)"), .navigateToUrl("u", useSVC: true), bindings: &b))
    }

    @Test func regexMatchesWholeStrings() throws {
        var b = Bindings()
        let p = try pattern(#"navigateToUrl(/https:\/\/sp\.test\/.*/)"#)
        #expect(Matcher.match(p, .navigateToUrl("https://sp.test/x", useSVC: nil), bindings: &b))
        #expect(!Matcher.match(p, .navigateToUrl("xhttps://sp.test/x", useSVC: nil), bindings: &b))
    }

    @Test func bindingsBindOnceAndCompareAfter() throws {
        var b = Bindings()
        #expect(
            Matcher.match(try pattern("setToken($t, \"CNN\")"), .setToken(token: "abc", resource: "CNN"), bindings: &b))
        #expect(b["t"] == .string("abc"))
        #expect(
            !Matcher.match(try pattern("setToken($t, \"HBO\")"), .setToken(token: "zzz", resource: "HBO"), bindings: &b)
        )
        #expect(
            Matcher.match(try pattern("setToken($t, \"HBO\")"), .setToken(token: "abc", resource: "HBO"), bindings: &b))
        // A failed match binds nothing.
        #expect(!Matcher.match(try pattern("setToken($u, \"X\")"), .setToken(token: "q", resource: "Y"), bindings: &b))
        #expect(b["u"] == nil)
    }

    @Test func mvpdPartialMatch() throws {
        var b = Bindings()
        let cb = Callback.displayProviderDialog([comcast])
        #expect(Matcher.match(try pattern("displayProviderDialog([Comcast])"), cb, bindings: &b))
        #expect(
            Matcher.match(
                try pattern(#"displayProviderDialog([Comcast{displayName: "Xfinity", boardingStatus: PICKER}])"#), cb,
                bindings: &b))
        #expect(
            !Matcher.match(try pattern(#"displayProviderDialog([Comcast{displayName: "Other"}])"#), cb, bindings: &b))
        #expect(!Matcher.match(try pattern("displayProviderDialog([Dish])"), cb, bindings: &b))
        #expect(!Matcher.match(try pattern("displayProviderDialog([Comcast, Comcast])"), cb, bindings: &b))
    }

    @Test func dictionariesMatchWithoutOrder() throws {
        var b = Bindings()
        let cb = Callback.setMetadataStatus(
            value: .dict([Value.Entry("zip", .list([.string("1")]))]), encrypted: false, opcode: 3,
            arguments: .dict([Value.Entry("opCode", .int(3)), Value.Entry("user_metadata_name", .string("zip"))]))
        #expect(
            Matcher.match(
                try pattern(
                    #"setMetadataStatus({zip: ["1"]}, false, METADATA_USER_META, {METADATA_USER_META_KEY: "zip", METADATA_OPCODE_KEY: METADATA_USER_META})"#
                ), cb, bindings: &b))
        #expect(
            !Matcher.match(
                try pattern(
                    #"setMetadataStatus({zip: ["1"]}, false, METADATA_USER_META, {METADATA_OPCODE_KEY: METADATA_USER_META})"#
                ), cb, bindings: &b))
    }
}
