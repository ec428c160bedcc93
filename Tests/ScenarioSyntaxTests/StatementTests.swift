import PassModel
import Testing
@testable import ScenarioSyntax

@Suite struct HeaderTests {
    @Test func defaults() throws {
        let file = try parse("scenario \"t\"")
        #expect(file.title == "t")
        #expect(file.description == nil)
        #expect(file.tags.isEmpty)
        #expect(file.platform == .ios)
        #expect(file.device == .mobile)
        #expect(file.seed == nil)
        #expect(file.svcScheme == ScenarioFile.defaultSVCScheme)
        #expect(file.appNames == ["app"])
        #expect(file.world.isEmpty && file.steps.isEmpty)
    }

    @Test func everyHeaderStatement() throws {
        let file = try parse(
            """
            # First line
            #   of the description
            #
            # the same block

            # not the description
            scenario "all headers"   # a comment
            tags a b-c
            tags d.e a
            platform tvos
            device gameconsole
            seed 18446744073709551615
            app second
            app third
            svc-scheme "adbe.custom://x"
            """)
        #expect(file.title == "all headers")
        #expect(file.description == "First line   of the description the same block")
        #expect(file.tags == ["a", "b-c", "d.e"])
        #expect(file.platform == .tvos)
        #expect(file.device == .gameconsole)
        #expect(file.seed == UInt64.max)
        #expect(
            file.apps == [
                Located("second", location: loc(13, 1), text: "app second"),
                Located("third", location: loc(14, 1), text: "app third"),
            ])
        #expect(file.appNames == ["app", "second", "third"])
        #expect(file.svcScheme == "adbe.custom://x")
    }

    /// A world with both faces: an app's own wire, the second screen's wire.
    @Test func appAndSecondScreenWires() throws {
        let file = try parse("scenario \"t\"\nwire v2\napp second wire sdk\napp third\nsecond-screen wire sdk")
        #expect(file.wire == .restV2)
        #expect(file.appWires == ["second": .sdk])
        #expect(file.secondScreenWire == .sdk)
        #expect(file.appNames == ["app", "second", "third"])
        for (line, message, column) in [
            ("app second wire v3", "unknown wire 'v3' (expected sdk or v2)", 17),
            ("app second v2", "unexpected 'v2' after the app's name (expected 'wire sdk' or 'wire v2')", 12),
            ("app second wire", "expected a wire (sdk or v2)", 16),
            ("second-screen v2", "expected 'wire sdk' or 'wire v2' after second-screen", 15),
            ("second-screen wire rest", "unknown wire 'rest' (expected sdk or v2)", 20),
        ] {
            let d = diagnostic("scenario \"t\"\n" + line)
            #expect(d?.message.hasPrefix(message) == true, "\(line): \(d?.message ?? "parsed")")
            #expect(
                d?.location.line == 2 && d?.location.column == column, "\(line): \(String(describing: d?.location))")
        }
    }

    @Test(arguments: DeviceType.allCases) func devices(_ device: DeviceType) throws {
        #expect(try parse("scenario \"t\"\ndevice \(device.rawValue)").device == device)
    }

    @Test func crlfAndByteOrderMark() throws {
        let file = try parse("\u{FEFF}scenario \"t\"\r\nsp main \"https://u\"\r\n> logout()\r\n")
        #expect(file.sps == [SPDecl(name: "main", url: "https://u")])
        #expect(file.steps.first?.text == "> logout()")
    }
}

@Suite struct WorldTests {
    @Test func spWithEveryOption() throws {
        let s = try parseLast("sp edge \"https://edge.test\" silent latency 2s unreachable # note")
        #expect(
            s
                == Located(
                    .sp(
                        SPDecl(
                            name: "edge", url: "https://edge.test", latency: .seconds(2), unreachable: true,
                            silent: true)),
                    location: loc(6, 1), text: "sp edge \"https://edge.test\" silent latency 2s unreachable"))
    }

    @Test func mvpdWithEveryOption() throws {
        let s = try parseLast(
            """
            mvpd Dish "DISH" at main, backup logo "https://l.test/d.png" sso supported temppass 4h promo-temppass 30m svc idp-latency 250ms idp-down
            """)
        #expect(
            s?.value
                == .mvpd(
                    MVPDDecl(
                        id: "Dish", displayName: "DISH", sps: ["main", "backup"], logo: "https://l.test/d.png",
                        sso: .supported,
                        tempPass: .hours(4), promoTempPass: .minutes(30), svc: true, idpLatency: Millis(250),
                        idpDown: true)))
        #expect(
            try parseLast("mvpd Dish \"DISH\" at main sso picker")?.value
                == .mvpd(MVPDDecl(id: "Dish", displayName: "DISH", sps: ["main"], sso: .picker)))
    }

    @Test func mvpdSAMLModes() throws {
        for mode in MVPDDecl.SAMLMode.allCases {
            #expect(
                try parseLast("mvpd Dish \"DISH\" at main idp-latency 5ms saml \(mode.rawValue)")?.value
                    == .mvpd(
                        MVPDDecl(id: "Dish", displayName: "DISH", sps: ["main"], idpLatency: Millis(5), saml: mode)))
        }
        #expect(
            MVPDDecl.SAMLMode.allCases.map(\.rawValue) == [
                "signed", "unsigned", "tampered", "expired", "wrong-audience",
            ])
    }

    @Test func mvpdRedeclaredAtAnotherSP() throws {
        let file = try parse(preamble + "\nmvpd Comcast \"Comcast (backup)\" at backup")
        #expect(file.mvpds.map(\.sps) == [["main"], ["backup"]])
        #expect(file.mvpds.map(\.displayName) == ["Xfinity", "Comcast (backup)"])
    }

    @Test func userWithEveryOption() throws {
        let s = try parseLast(
            """
            user bob "pw" at Comcast allow CNN, "HBO Max" deny ESPN, NFL "Upgrade your package" meta zip="12345" maxRating=["TV-MA", 2] household={"id": 7, ok: true, none: null} encrypted zip, household
            """)
        #expect(
            s?.value
                == .user(
                    UserDecl(
                        name: "bob", password: "pw", mvpd: "Comcast", allow: ["CNN", "HBO Max"], deny: ["ESPN", "NFL"],
                        denyMessage: "Upgrade your package",
                        meta: [
                            MetaEntry(key: "zip", value: .string("12345")),
                            MetaEntry(key: "maxRating", value: .list([.string("TV-MA"), .int(2)])),
                            MetaEntry(
                                key: "household",
                                value: .dict([
                                    DictEntrySyntax(writtenKey: "id", keyForm: .string, key: "id", value: .int(7)),
                                    DictEntrySyntax("ok", .bool(true)),
                                    DictEntrySyntax("none", .null),
                                ])),
                        ],
                        encrypted: ["zip", "household"])))
        guard case .user(let user) = s?.value else { return }
        #expect(
            user.meta[2].value.literal
                == .dict([Value.Entry("id", .int(7)), Value.Entry("ok", .bool(true)), Value.Entry("none", .null)]))
    }

    @Test func userNamedLikeAnAction() throws {
        #expect(
            try parseLast("user login \"pw\" at Comcast")?.value
                == .user(UserDecl(name: "login", password: "pw", mvpd: "Comcast")))
    }

    @Test func requestorWithEveryOption() throws {
        let s = try parseLast(
            "requestor R2 at main, backup mvpds Comcast authn-ttl 1h authz-ttl 5m device-id regcode-ttl 10m")
        #expect(
            s?.value
                == .requestor(
                    RequestorDecl(
                        id: "R2", sps: ["main", "backup"], mvpds: ["Comcast"], authnTTL: .hours(1),
                        authzTTL: .minutes(5),
                        deviceID: true, regcodeTTL: .minutes(10))))
        #expect(try parseLast("requestor R3")?.value == .requestor(RequestorDecl(id: "R3")))
    }

    /// Issue 13: the registration and signing options, as SCENARIO-FORMAT.md writes them.
    @Test func requestorWithSoftwareStatementAndKey() throws {
        let s = try parseLast("requestor R4 software-statement \"eyJ.s\" token-ttl 30m key \"PUB\" secret \"SEC\"")
        #expect(
            s?.value
                == .requestor(
                    RequestorDecl(
                        id: "R4", softwareStatement: "eyJ.s", tokenTTL: .minutes(30),
                        key: .init(publicKey: "PUB", secret: "SEC"))))
        #expect(
            try parseLast("requestor R5 key \"P\" secret \"S\" software-statement \"x\"")?.value
                == .requestor(RequestorDecl(id: "R5", softwareStatement: "x", key: .init(publicKey: "P", secret: "S"))))
        for (line, message) in [
            ("requestor R6 token-ttl 1h", "unexpected 'token-ttl'"),
            ("requestor R6 key \"P\"", "expected 'secret' and the private key after the public key"),
            ("requestor R6 software-statement", "expected the software statement in quotes"),
            ("requestor R6 key \"P\" secret", "expected the secret in quotes"),
        ] {
            let d = diagnostic(preamble + "\n" + line)
            #expect(d?.message.hasPrefix(message) == true, "\(line): \(d?.message ?? "parsed")")
        }
    }

    @Test func defaultSP() throws {
        let file = try parse(preamble + "\ndefault-sp backup")
        #expect(file.world.last?.value == .defaultSP("backup"))
        #expect(file.defaultSP == "backup")
        #expect(try parse(preamble).defaultSP == nil)
    }
}

@Suite struct StepTests {
    static let cases: [(String, Step)] = [
        ("user login \"alice\" \"secret\"", .userLogin(user: "alice", password: "secret")),
        ("user back", .userBack),
        ("user pick Comcast", .userPick(mvpd: "Comcast", asUser: nil)),
        ("user pick Comcast as \"alice\"", .userPick(mvpd: "Comcast", asUser: "alice")),
        ("user pick other", .userPickOther),
        ("user cancel", .userCancel),
        ("user enter-code \"alice\" \"secret\"", .userEnterCode(user: "alice", password: "secret")),
        ("browser at \"adobepass://ios.app\"", .browserAt(.string("adobepass://ios.app"))),
        ("browser at /adbe\\.u-passim:\\/\\/.*/", .browserAt(.regex("adbe\\.u-passim://.*"))),
        ("browser at _", .browserAt(.wildcard)),
        ("browser at $url", .browserAt(.binding("url"))),
        ("clock +30s", .clock(.seconds(30))),
        ("clock +1d", .clock(Millis(86_400_000))),
        ("net main down", .net(.sp("main"), .down)),
        ("net main up", .net(.sp("main"), .up)),
        ("net main silent", .net(.sp("main"), .silent)),
        ("net main latency 3s", .net(.sp("main"), .latency(.seconds(3)))),
        ("net main fail 2", .net(.sp("main"), .fail(count: 2, path: nil, status: nil))),
        (
            "net backup fail 1 /.*\\/authorize/ status 500",
            .net(.sp("backup"), .fail(count: 1, path: ".*/authorize", status: 500))
        ),
        ("net main fail 3 status 404", .net(.sp("main"), .fail(count: 3, path: nil, status: 404))),
        (
            "net main answer 2 /.*config.*/ status 200 body \"{\\\"a\\\":1}\"",
            .net(.sp("main"), .fail(count: 2, path: ".*config.*", status: 200, body: "{\"a\":1}"))
        ),
        (
            "net main fail 1 authorize status 503",
            .net(.sp("main"), .fail(count: 1, path: nil, status: 503, operation: .authorize))
        ),
        (
            "seen main authorize with resource=\"R1\" mvpd=\"Comcast\"",
            .seen(
                sp: "main", method: "", path: .operation(.authorize),
                with: [SeenParameter(key: "resource", value: "R1"), SeenParameter(key: "mvpd", value: "Comcast")])
        ),
        (
            "unseen main media-token",
            .seen(sp: "main", method: "", path: .operation(.mediaToken), with: [], unseen: true)
        ),
        ("net mvpd Comcast down", .net(.mvpd("Comcast"), .down)),
        ("net mvpd Comcast up", .net(.mvpd("Comcast"), .up)),
        (
            "seen main GET /api/v1/config/REQ1",
            .seen(sp: "main", method: "GET", path: .literal("/api/v1/config/REQ1"), with: [])
        ),
        ("seen main GET /api/v1/", .seen(sp: "main", method: "GET", path: .literal("/api/v1/"), with: [])),
        ("seen main POST /authn\\/.*/", .seen(sp: "main", method: "POST", path: .regex("authn/.*"), with: [])),
        ("seen main GET /a", .seen(sp: "main", method: "GET", path: .literal("/a"), with: [])),
        ("seen main GET //", .seen(sp: "main", method: "GET", path: .literal("//"), with: [])),
        (
            "seen main POST /authn\\/.*token/ with requestor_id=\"REQ1\" device_info=\"x y\"",
            .seen(
                sp: "main", method: "POST", path: .regex("authn/.*token"),
                with: [
                    SeenParameter(key: "requestor_id", value: "REQ1"), SeenParameter(key: "device_info", value: "x y"),
                ])
        ),
        (
            "seen main GET /authz/(CNN|HBO)/",
            .seen(sp: "main", method: "GET", path: .regex("authz/(CNN|HBO)"), with: [])
        ),
        (
            "unseen main POST /o/client/register",
            .seen(sp: "main", method: "POST", path: .literal("/o/client/register"), with: [], unseen: true)
        ),
        (
            "unseen main POST /authn\\/.*/ with mso_id=\"X\"",
            .seen(
                sp: "main", method: "POST", path: .regex("authn/.*"), with: [SeenParameter(key: "mso_id", value: "X")],
                unseen: true)
        ),
        (
            "http GET main /api/v2/R/configuration expect 200",
            .http(HTTPStep(method: "GET", sp: "main", path: "/api/v2/R/configuration", status: 200))
        ),
        (
            "http POST backup /api/v2/R/sessions header \"AP-Device-Identifier:  fingerprint eA==\" header \"X-Forwarded-For: 192.0.2.1\" form \"mvpd=Comcast&domainName=x\" expect 400 code invalid_header_device_info header \"Content-Type: application/json\" with action=\"none\" status=400 trace=_",
            .http(
                HTTPStep(
                    method: "POST", sp: "backup", path: "/api/v2/R/sessions",
                    headers: [
                        SeenParameter(key: "AP-Device-Identifier", value: "fingerprint eA=="),
                        SeenParameter(key: "X-Forwarded-For", value: "192.0.2.1"),
                    ],
                    body: .form("mvpd=Comcast&domainName=x"), status: 400,
                    fields: [
                        HTTPField(path: "code", pattern: .string("invalid_header_device_info")),
                        HTTPField(path: "action", pattern: .string("none")),
                        HTTPField(path: "status", pattern: .int(400)), HTTPField(path: "trace", pattern: .wildcard),
                    ],
                    answerHeaders: [SeenParameter(key: "Content-Type", value: "application/json")]))
        ),
        (
            "http POST main /api/v2/R/decisions/authorize/Comcast json \"{\\\"resources\\\": [\\\"CNN\\\"]}\" expect 200 with decisions.0.authorized=true decisions.0.source=/mvpd|temppass/",
            .http(
                HTTPStep(
                    method: "POST", sp: "main", path: "/api/v2/R/decisions/authorize/Comcast",
                    body: .json("{\"resources\": [\"CNN\"]}"),
                    status: 200,
                    fields: [
                        HTTPField(path: "decisions.0.authorized", pattern: .bool(true)),
                        HTTPField(path: "decisions.0.source", pattern: .regex("mvpd|temppass")),
                    ]))
        ),
        ("> logout()", .call(app: nil, CallSyntax(name: "logout", arguments: [], location: loc(6, 3)))),
        ("app> logout()", .call(app: "app", CallSyntax(name: "logout", arguments: [], location: loc(6, 6)))),
        (
            "< status(N005)",
            .expect(
                app: nil,
                CallSyntax(
                    name: "status",
                    arguments: [
                        ArgumentSyntax(value: .constant(symbol: "N005", value: .string("N005")), location: loc(6, 10))
                    ],
                    location: loc(6, 3)))
        ),
        (
            "< setRequestorComplete(0) at 30s",
            .expect(
                app: nil,
                CallSyntax(
                    name: "setRequestorComplete", arguments: [ArgumentSyntax(value: .int(0), location: loc(6, 24))],
                    location: loc(6, 3)), at: .seconds(30))
        ),
        (
            "app< setRequestorComplete(_) at 0ms",
            .expect(
                app: "app",
                CallSyntax(
                    name: "setRequestorComplete", arguments: [ArgumentSyntax(value: .wildcard, location: loc(6, 27))],
                    location: loc(6, 6)), at: Millis(0))
        ),
    ]

    @Test(arguments: cases) func step(_ line: String, _ expected: Step) throws {
        #expect(try parseStep(line) == expected)
    }

    @Test func namedApps() throws {
        let file = try parse(
            """
            scenario "two apps"
            app tv
            tv> getAuthentication()
            tv< setAuthenticationStatus(1, "")
            """)
        #expect(
            file.steps.map(\.value) == [
                .call(app: "tv", CallSyntax(name: "getAuthentication", arguments: [], location: loc(3, 5))),
                .expect(
                    app: "tv",
                    CallSyntax(
                        name: "setAuthenticationStatus",
                        arguments: [
                            ArgumentSyntax(value: .int(1), location: loc(4, 29)),
                            ArgumentSyntax(value: .string(""), location: loc(4, 32)),
                        ], location: loc(4, 5))),
            ])
    }

    @Test func labelledArgumentsAndBindings() throws {
        let file = try parse(
            """
            scenario "t"
            > getAuthentication(forceAuthn: true, withData: {email: "a@b.c"})
            < navigateToUrl($url, true)
            > handleExternalURL($url)
            """)
        guard case .call(_, let call) = file.steps[0].value, case .call(_, let again) = file.steps[2].value else {
            Issue.record("expected calls")
            return
        }
        #expect(call.arguments.map(\.label) == ["forceAuthn", "withData"])
        #expect(call.arguments.map(\.location) == [loc(2, 21), loc(2, 39)])
        #expect(call.arguments.map(\.value) == [.bool(true), .dict([DictEntrySyntax("email", .string("a@b.c"))])])
        #expect(again.arguments.map(\.value) == [.binding("url")])
    }

    @Test func everyKnownCallAndCallbackParses() throws {
        var text = "scenario \"names\"\n"
        // The least each call takes (its arguments are checked when the file is parsed).
        let arguments = [
            "setOptions": "{}", "setRequestor": "\"R\"", "setSelectedProvider": "nil", "handleExternalURL": "\"x\"",
            "checkAuthorization": "\"r\"", "getAuthorization": "\"r\"", "checkPreauthorizedResources": "[]",
            "getMetadata": "{}",
        ]
        for name in CallNames.calls { text += "> \(name)(\(arguments[name] ?? ""))\n" }
        // A callback's required arguments are checked too: `_` matches any value.
        for name in Callback.Name.allCases {
            let wildcards = name.parameters.filter { !$0.optional }.map { _ in "_" }
            text += "< \(name.rawValue)(\(wildcards.joined(separator: ", ")))\n"
        }
        let file = try parse(text)
        #expect(file.steps.count == CallNames.calls.count + CallNames.callbacks.count)
        #expect(CallNames.calls.allSatisfy { CallSignature.signature(of: $0) != nil }, "every call has its signature")
    }

    /// Issue 12 row 11: a call's arguments are an error of the file, with the caret on the argument.
    @Test(arguments: [
        ("> setRequestor()", "t.scenario:6:3: missing argument requestorID of setRequestor"),
        ("> logout(1)", "t.scenario:6:10: unexpected argument '1' for logout (expected logout())"),
        ("> setRequestor(\"R\", secret: \"a\", secret: \"b\")", "t.scenario:6:34: unexpected argument 'secret: \"b\"'"),
        (
            "> setRequestor(\"R\", signedRequestorID: \"a\", setSignedRequestorId: \"b\")",
            "t.scenario:6:45: unexpected argument 'setSignedRequestorId: \"b\"'"
        ),
        ("> setRequestor(\"R\", wrong: \"a\")", "t.scenario:6:21: unexpected argument 'wrong: \"a\"'"),
        ("> setRequestor(42)", "t.scenario:6:16: setRequestor's requestorID takes a string, not 42"),
        (
            "> setRequestor(\"R\", serviceProviders: [1])",
            "t.scenario:6:21: setRequestor's serviceProviders takes a list of strings, not [1]"
        ),
        (
            "> getAuthentication(filter: [Comcast], true)",
            "t.scenario:6:40: unexpected argument 'true' for getAuthentication"
        ),
        (
            "> checkPreauthorizedResources(\"r\")",
            "t.scenario:6:31: checkPreauthorizedResources's resources takes a list of strings, not \"r\""
        ),
        ("> setOptions([1])", "t.scenario:6:14: setOptions's options takes a dictionary, not [1]"),
        (
            "> setSelectedProvider(true)",
            "t.scenario:6:23: setSelectedProvider's mvpd takes an MVPD id or nil, not true"
        ),
        (
            "> logout(\"" + String(repeating: "y", count: 3_000) + "\")",
            "t.scenario:6:10: unexpected argument '\"" + String(repeating: "y", count: 58)
                + "…' for logout (expected logout())\n"
        ),
    ])
    func callArgumentsAreCheckedWhenParsed(_ line: String, _ expected: String) {
        let d = diagnostic(preamble + "\n" + line)
        #expect(d?.description.hasPrefix(expected) == true, "\(d?.description ?? "parsed")")
    }

    /// `net SP answer`: its status and its body are required, each with its caret.
    @Test(arguments: [
        ("net main answer 1 body \"x\"", "t.scenario:6:19: expected 'status' and the answer's HTTP status"),
        ("net main answer 1 status 200", "t.scenario:6:29: expected 'body' and the answer's body in quotes"),
        ("net main answer 1 status 200 body x", "t.scenario:6:35: expected the answer's body in quotes"),
        ("net main answer 0 status 200 body \"x\"", "t.scenario:6:17:"),
    ])
    func aNetAnswerNeedsItsStatusAndBody(_ line: String, _ expected: String) {
        let d = diagnostic(preamble + "\n" + line)
        #expect(d?.description.hasPrefix(expected) == true, "\(d?.description ?? "parsed")")
    }

    /// Issue 27 row 8: a callback's arguments are checked when the file is parsed, as a call's are.
    @Test(arguments: [
        (
            "< setRequestorComplete(1, 2)",
            "t.scenario:6:27: setRequestorComplete takes 1 argument, not 2 (expected setRequestorComplete(status))"
        ),
        ("< setRequestorComplete()", "t.scenario:6:3: missing argument status of setRequestorComplete"),
        ("< setRequestorComplete(\"1\")", "t.scenario:6:24: setRequestorComplete's status is an integer, never \"1\""),
        ("< setAuthenticationStatus(1)", "t.scenario:6:3: missing argument errorCode of setAuthenticationStatus"),
        ("< navigateToUrl(_, true, 3)", "t.scenario:6:26: navigateToUrl takes 2 arguments, not 3"),
        (
            "< displayProviderDialog(\"Comcast\")",
            "t.scenario:6:25: displayProviderDialog's mvpds is a list of MVPDs, never \"Comcast\""
        ),
        (
            "< presentTvProviderDialog([], shown: [])",
            "t.scenario:6:31: presentTvProviderDialog's featured takes 'featured:', not 'shown:'"
        ),
        ("< setToken(/t.*/, 42)", "t.scenario:6:19: setToken's resource is a string, never 42"),
    ])
    func callbackArgumentsAreCheckedWhenParsed(_ line: String, _ expected: String) {
        let d = diagnostic(preamble + "\n" + line)
        #expect(d?.description.hasPrefix(expected) == true, "\(d?.description ?? "parsed")")
        #expect(d?.description.contains("^") == true, "a caret under the line")
    }

    @Test func callbacksTakeWhatTheSuiteWrites() throws {
        _ = try parse(
            preamble + """

                < setRequestorComplete(1)
                < setRequestorComplete($status)
                < navigateToUrl(_)
                < navigateToUrl(/https:.*/, true)
                < status(REGCODE)
                < status(REGCODE, $code)
                < selectedProvider(nil)
                < selectedProvider(Comcast)
                < presentTvProviderDialog([Comcast], featured: [])
                < setMetadataStatus({householdID: /enc:.+/}, true, METADATA_USER_META, _)
                < sendTrackingData(TRACKING_AUTHENTICATION, ["true", "Comcast", $guid, nil])
                """)
    }

    @Test func callsTakeWhatTheSuiteWrites() throws {
        _ = try parse(
            preamble + """

                > init(softwareStatement: "s")
                > init("s")
                > getAuthentication(true)
                > getAuthentication(filter: {TV_PROVIDERS: [Comcast]}, forceAuthn: false, withData: {a: 1})
                > setRequestor("R", signedRequestorID: "s", serviceProviders: [main, "https://x"], secret: "k", publicKey: "p")
                > getMetadata({METADATA_OPCODE_KEY: METADATA_AUTHENTICATION})
                > checkPreauthorizedResources(["a"], cache: false)
                > setSelectedProvider(Comcast)
                """)
    }
}
