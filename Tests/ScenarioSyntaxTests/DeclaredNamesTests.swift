import PassModel
import Testing
@testable import ScenarioSyntax

/// A bare name in a value is a constant or a name the world declares, and a callback's literal is one
/// the SDK can deliver: found when the file is read, with a caret and "did you mean"
/// (docs/CONFORMANCE.md, choice 110; the hostile files: `Fixtures/hostile/scenarios/`).
@Suite struct DeclaredNamesTests {
    /// The preamble plus `requestor REQ1`, then `line` (line 7).
    func problem(_ line: String) -> Diagnostic? {
        diagnostic(preamble + "\nrequestor REQ1\n" + line)
    }

    @Test func namesTheWorldDeclaresAndEveryConstantAreValues() {
        for line in [
            "> setSelectedProvider(Comcast)", "> setRequestor(\"REQ1\", serviceProviders: [main, backup])",
            "> setRequestor(REQ1)", "< selectedProvider(Comcast)", "< displayProviderDialog([Comcast])",
            "< selectedProvider(alice)", "< selectedProvider(Comcast{displayName: \"Xfinity\"})",
            "> getAuthentication(filter: {TV_PROVIDERS: [Comcast]})",
            // A value no world declares is a string.
            "> setSelectedProvider(\"Nope\")", "< selectedProvider(\"Nope\")",
        ] {
            #expect(problem(line) == nil, "\(line): \(problem(line)?.description ?? "")")
        }
        for (symbol, _) in Constants.all {
            #expect(problem("> getMetadata({METADATA_OPCODE_KEY: \(symbol)})") == nil, "\(symbol)")
        }
    }

    @Test func aMisspeltConstantIsNamedWithTheOneMeant() {
        let d = problem("< setAuthenticationStatus(0, PROVIDER_NOT_SELECTED)")
        #expect(d?.message == "unknown constant 'PROVIDER_NOT_SELECTED' (did you mean 'PROVIDER_NOT_SELECTED_ERROR'?)")
        #expect(d?.location == loc(7, 30))
        #expect(
            d?.description.hasSuffix(
                "\n< setAuthenticationStatus(0, PROVIDER_NOT_SELECTED)\n" + String(repeating: " ", count: 29) + "^")
                == true)
        #expect(problem("< status(N004)")?.message == "unknown constant 'N004' (did you mean 'N003'?)")
        #expect(
            problem("> getMetadata({METADATA_OPCODE_KEY: METADATA_USERMETA})")?.message
                == "unknown constant 'METADATA_USERMETA' (did you mean 'METADATA_USER_META'?)")
        // Written as constants are, with nothing near: the message says where the constants are.
        #expect(
            problem("< setAuthenticationStatus(0, NOT_A_THING)")?.message
                == "unknown constant 'NOT_A_THING' (the constants: docs/spec/BEHAVIOR.md, \"Constants\"); a string is written in quotes: \"NOT_A_THING\""
        )
    }

    @Test func aNameNoWorldDeclaresIsAnErrorOfTheFile() {
        #expect(
            problem("> setSelectedProvider(Comcst)")?.message
                == "undeclared name 'Comcst' (did you mean 'Comcast'?): no MVPD, SP, requestor or user of the world is called so; a value no world declares is a string: \"Comcst\""
        )
        #expect(problem("> setSelectedProvider(Nope)")?.message.hasPrefix("undeclared name 'Nope': no MVPD") == true)
        #expect(problem("> setRequestor(\"REQ1\", serviceProviders: [main, bakup])")?.location == loc(7, 49))
        #expect(
            problem("< displayProviderDialog([Comcast, Dish])")?.message.hasPrefix("undeclared name 'Dish'") == true)
        #expect(problem("< selectedProvider(Dish{displayName: \"DISH\"})")?.message == "undeclared MVPD 'Dish'")
        // A lowercase word is no constant cut short, whatever it holds.
        #expect(problem("< setAuthenticationStatus(0, auth)")?.message.hasPrefix("undeclared name 'auth':") == true)
    }

    @Test func theUsersAndMVPDsOfUserStepsAreDeclared() {
        #expect(problem("user login \"alice\" \"wrong\"") == nil, "a wrong password is how a refused login is written")
        #expect(problem("user login \"bob\" \"secret\"")?.message == "undeclared user 'bob'")
        #expect(
            problem("user enter-code \"alcie\" \"secret\"")?.message
                == "undeclared user 'alcie' (did you mean 'alice'?)")
        #expect(problem("user pick Comcast as \"alice\"") == nil)
        #expect(problem("user pick Comcat")?.message == "undeclared MVPD 'Comcat' (did you mean 'Comcast'?)")
        #expect(problem("user pick Comcast as \"bob\"")?.message == "undeclared user 'bob'")
        #expect(problem("user pick other") == nil)
    }

    @Test func aCallbacksLiteralIsOneTheSDKDelivers() {
        for line in [
            "< setRequestorComplete(1)", "< setRequestorComplete(ACCESS_ENABLER_STATUS_ERROR)",
            "< setAuthenticationStatus(1, \"\")", "< setAuthenticationStatus(0, \"User Not Authenticated Error\")",
            "< setAuthenticationStatus(_, $code)", "< tokenRequestFailed(\"CNN\", USER_NOT_AUTHORIZED_ERROR, _)",
            "< sendTrackingData(2, _)", "< status(CFG429)", "< status(/N00./)",
            // The SDK echoes the metadata opcode the app gave.
            "< setMetadataStatus(nil, false, 9, {opCode: 9})",
        ] {
            #expect(problem(line) == nil, "\(line): \(problem(line)?.description ?? "")")
        }
        #expect(
            problem("< setRequestorComplete(2)")?.message
                == "setRequestorComplete's status is ACCESS_ENABLER_STATUS_SUCCESS (1) or ACCESS_ENABLER_STATUS_ERROR (0), never 2"
        )
        #expect(
            problem("< tokenRequestFailed(\"CNN\", \"User Not Authorised Error\", _)")?.message
                == "tokenRequestFailed's errorCode is USER_NOT_AUTHENTICATED_ERROR, USER_NOT_AUTHORIZED_ERROR or GENERIC_AUTHORIZATION_ERROR, never \"User Not Authorised Error\" (did you mean 'USER_NOT_AUTHORIZED_ERROR'?)"
        )
        #expect(problem("< sendTrackingData(3, _)")?.location == loc(7, 20))
        #expect(problem("< status(\"VSA204\")")?.message.hasPrefix("status's code is VSA203, N003") == true)
        #expect(problem("< setAuthenticationStatus(0, USER_NOT_AUTHORIZED_ERROR)") != nil, "an authorization error")
    }

    @Test func theConstantMeantIsFoundByEditsOrByWhatItHolds() {
        #expect(Suggestion.closestConstant(to: "PROVIDER_NOT_SELECTED") == "PROVIDER_NOT_SELECTED_ERROR")
        #expect(Suggestion.closestConstant(to: "TRACKING_AUTHENTICATON") == "TRACKING_AUTHENTICATION")
        #expect(Suggestion.closestConstant(to: "GENERIC_AUTHENTICATION_ERROR_X") == "GENERIC_AUTHENTICATION_ERROR")
        #expect(Suggestion.closestConstant(to: "auth") == nil)
        #expect(Suggestion.closestConstant(to: "ZZZZ_ZZZZ") == nil)
        #expect(FileParser.looksLikeConstant("REG500") && FileParser.looksLikeConstant("A_B"))
        #expect(!FileParser.looksLikeConstant("CNN") && !FileParser.looksLikeConstant("Comcast"))
    }
}
