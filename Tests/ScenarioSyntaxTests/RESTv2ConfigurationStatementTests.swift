import PassModel
import Testing
@testable import ScenarioSyntax

/// `rest-v2 requestor …` and `rest-v2 mvpd …`: a programmer's configuration at Adobe as a world declares it
/// (SCENARIO-FORMAT.md, "World"; docs/WIRE.md, "REST API v2").
@Suite struct RESTv2ConfigurationStatementTests {
    static let head = """
        scenario "t"
        sp main "https://sp.test"
        mvpd Comcast "Xfinity" at main
        requestor R
        """

    func decl(_ line: String) throws -> RESTv2Decl? {
        try parse(Self.head + "\n" + line).restV2.last
    }

    @Test func aRequestorsNameAndDomainsInTheirOrder() throws {
        let d = try decl(
            #"rest-v2 requestor R name "Passim TV" domains passim.test, adobe.com mvpd-initiated partner.test"#)
        #expect(
            d
                == .requestor(
                    .init(
                        id: "R", name: "Passim TV",
                        domains: [
                            .init(name: "passim.test", mvpdInitiated: false),
                            .init(name: "adobe.com", mvpdInitiated: false),
                            .init(name: "partner.test", mvpdInitiated: true),
                        ])))
        // Each option alone; the domains of `mvpd-initiated` come after those of `domains`, whatever the order.
        #expect(try decl(#"rest-v2 requestor R name "N""#) == .requestor(.init(id: "R", name: "N")))
        #expect(
            try decl("rest-v2 requestor R mvpd-initiated b.test domains a.test")
                == .requestor(
                    .init(
                        id: "R",
                        domains: [
                            .init(name: "a.test", mvpdInitiated: false), .init(name: "b.test", mvpdInitiated: true),
                        ]
                    )))
    }

    @Test func anMVPDsFlags() throws {
        #expect(
            try decl("rest-v2 mvpd Comcast auth-per-aggregator true passive-authn false")
                == .mvpd(.init(id: "Comcast", authPerAggregator: true, passiveAuthnEnabled: false)))
        #expect(
            try decl("rest-v2 mvpd Comcast auth-per-browser-session true proxy false")
                == .mvpd(.init(id: "Comcast", authPerBrowserSession: true, isProxy: false)))
    }

    @Test func aMalformedRequestorLineIsAnErrorWithItsCaret() {
        expectDiagnostic(
            Self.head + "\nrest-v2 requestor Nobody name \"N\"",
            """
            t.scenario:5:19: undeclared requestor 'Nobody'
            rest-v2 requestor Nobody name "N"
                              ^
            """)
        expectDiagnostic(
            Self.head + "\nrest-v2 requestor R",
            """
            t.scenario:5:20: expected name, domains or mvpd-initiated after the requestor
            rest-v2 requestor R
                               ^
            """)
        expectDiagnostic(
            Self.head + "\nrest-v2 requestor R domains a.test, -bad.test",
            """
            t.scenario:5:37: invalid domain '-bad.test': a label that starts or ends with a hyphen
            rest-v2 requestor R domains a.test, -bad.test
                                                ^
            """)
        expectDiagnostic(
            Self.head + "\nrest-v2 requestor R domains a.test mvpd-initiated A.test",
            """
            t.scenario:5:51: domain 'A.test' is listed twice
            rest-v2 requestor R domains a.test mvpd-initiated A.test
                                                              ^
            """)
        expectDiagnostic(
            Self.head + "\nrest-v2 requestor R name \"\"",
            """
            t.scenario:5:26: the programmer's name is empty
            rest-v2 requestor R name ""
                                     ^
            """)
        expectDiagnostic(
            Self.head + "\nrest-v2 requestor R title \"N\"",
            """
            t.scenario:5:21: unexpected 'title' (expected name, domains or mvpd-initiated)
            rest-v2 requestor R title "N"
                                ^
            """)
    }

    @Test func aMalformedMVPDLineIsAnErrorWithItsCaret() {
        expectDiagnostic(
            Self.head + "\nrest-v2 mvpd Comcast passive-authn maybe",
            """
            t.scenario:5:36: 'passive-authn' takes true or false, not 'maybe'
            rest-v2 mvpd Comcast passive-authn maybe
                                               ^
            """)
        expectDiagnostic(
            Self.head + "\nrest-v2 mvpd Comcast",
            """
            t.scenario:5:21: expected a flag (auth-per-aggregator, passive-authn, auth-per-browser-session or proxy) and true or false
            rest-v2 mvpd Comcast
                                ^
            """)
        expectDiagnostic(
            Self.head + "\nrest-v2 mvpd Comcast proxy true proxy false",
            """
            t.scenario:5:33: duplicate option 'proxy'
            rest-v2 mvpd Comcast proxy true proxy false
                                            ^
            """)
        expectDiagnostic(
            Self.head + "\nrest-v2 mvpd Dish proxy true",
            """
            t.scenario:5:14: undeclared MVPD 'Dish'
            rest-v2 mvpd Dish proxy true
                         ^
            """)
    }
}
