import Foundation
import PassModel
import Testing
@testable import ScenarioSyntax

@Suite struct DiagnosticTests {
    @Test func format() {
        let d = Diagnostic(location: loc(3, 4), message: "boom", lineText: "\tab cd")
        #expect(d.description == "t.scenario:3:4: boom\n\tab cd\n\t  ^")
    }

    @Test func unknownStatement() {
        expectDiagnostic(
            "scenario \"t\"\n  frobnicate x",
            """
            t.scenario:2:3: unknown statement 'frobnicate'
              frobnicate x
              ^
            """)
        expectDiagnostic(
            "scenario \"t\"\nrequestr R",
            """
            t.scenario:2:1: unknown statement 'requestr' (did you mean 'requestor'?)
            requestr R
            ^
            """)
    }

    @Test func unknownSAMLMode() {
        expectDiagnostic(
            "scenario \"t\"\nsp main \"https://sp.test\"\nmvpd C \"C\" at main saml forged",
            """
            t.scenario:3:25: unknown saml mode 'forged' (expected one of signed, unsigned, tampered, expired, wrong-audience)
            mvpd C "C" at main saml forged
                                    ^
            """)
        expectDiagnostic(
            "scenario \"t\"\nsp main \"https://sp.test\"\nmvpd C \"C\" at main saml",
            """
            t.scenario:3:24: expected a SAML mode
            mvpd C "C" at main saml
                                   ^
            """)
    }

    @Test func unterminatedString() {
        expectDiagnostic(
            "scenario \"t\"\nsp main \"https://x # y",
            """
            t.scenario:2:9: unterminated string
            sp main "https://x # y
                    ^
            """)
    }

    @Test func badEscape() {
        expectDiagnostic(
            "scenario \"a\\qb\"",
            #"""
            t.scenario:1:12: invalid escape '\q' (expected \", \\, \n, \t or \u{...})
            scenario "a\qb"
                       ^
            """#)
    }

    @Test func badDurations() {
        expectDiagnostic(
            preamble + "\nsp x \"https://u\" latency 40",
            """
            t.scenario:6:26: invalid duration '40' (expected e.g. 250ms, 30s, 5m, 2h or 1d)
            sp x "https://u" latency 40
                                     ^
            """)
        expectDiagnostic(
            preamble + "\nnet main latency 4x",
            """
            t.scenario:6:18: invalid duration '4x' (expected e.g. 250ms, 30s, 5m, 2h or 1d)
            net main latency 4x
                             ^
            """)
        expectDiagnostic(
            preamble + "\nclock +1.5s",
            """
            t.scenario:6:8: invalid duration '1.5s' (expected e.g. 250ms, 30s, 5m, 2h or 1d)
            clock +1.5s
                   ^
            """)
        expectDiagnostic(
            preamble + "\n< setRequestorComplete(1) at soon",
            """
            t.scenario:6:30: invalid duration 'soon' (expected e.g. 250ms, 30s, 5m, 2h or 1d)
            < setRequestorComplete(1) at soon
                                         ^
            """)
        expectDiagnostic(
            preamble + "\n< setRequestorComplete(1) at",
            """
            t.scenario:6:29: expected a duration (e.g. 250ms, 30s, 5m, 2h or 1d)
            < setRequestorComplete(1) at
                                        ^
            """)
        expectDiagnostic(
            preamble + "\n> setRequestor(\"R\") at 3s",
            """
            t.scenario:6:21: 'at' pins when a callback comes ('< CALLBACK at T'); a call happens when its step runs
            > setRequestor("R") at 3s
                                ^
            """)
        expectDiagnostic(
            preamble + "\nclock 5s",
            """
            t.scenario:6:7: expected '+' and a duration (e.g. clock +30s)
            clock 5s
                  ^
            """)
    }

    @Test func undeclaredSP() {
        expectDiagnostic(
            "scenario \"t\"\nmvpd Comcast \"X\" at main",
            """
            t.scenario:2:21: undeclared SP 'main'
            mvpd Comcast "X" at main
                                ^
            """)
        expectDiagnostic(
            preamble + "\nnet mian down",
            """
            t.scenario:6:5: undeclared SP 'mian' (did you mean 'main'?)
            net mian down
                ^
            """)
        expectDiagnostic(
            preamble + "\nseen nope GET /x",
            """
            t.scenario:6:6: undeclared SP 'nope'
            seen nope GET /x
                 ^
            """)
        expectDiagnostic(
            preamble + "\nrequestor R at main, edge",
            """
            t.scenario:6:22: undeclared SP 'edge'
            requestor R at main, edge
                                 ^
            """)
        expectDiagnostic(
            preamble + "\ndefault-sp edge",
            """
            t.scenario:6:12: undeclared SP 'edge'
            default-sp edge
                       ^
            """)
    }

    @Test func undeclaredMVPD() {
        expectDiagnostic(
            preamble + "\nuser bob \"pw\" at Dish",
            """
            t.scenario:6:18: undeclared MVPD 'Dish'
            user bob "pw" at Dish
                             ^
            """)
        expectDiagnostic(
            preamble + "\nrequestor R mvpds Comcast, Comcats",
            """
            t.scenario:6:28: undeclared MVPD 'Comcats' (did you mean 'Comcast'?)
            requestor R mvpds Comcast, Comcats
                                       ^
            """)
        expectDiagnostic(
            preamble + "\nnet mvpd Dish down",
            """
            t.scenario:6:10: undeclared MVPD 'Dish'
            net mvpd Dish down
                     ^
            """)
    }

    @Test func undeclaredApp() {
        expectDiagnostic(
            "scenario \"t\"\ntv> logout()",
            """
            t.scenario:2:1: undeclared app 'tv'
            tv> logout()
            ^
            """)
    }

    @Test func duplicates() {
        expectDiagnostic(
            preamble + "\nsp main \"https://other.test\"",
            """
            t.scenario:6:4: duplicate SP 'main' (first declared at line 2)
            sp main "https://other.test"
               ^
            """)
        expectDiagnostic(
            preamble + "\nmvpd Comcast \"Again\" at backup, main",
            """
            t.scenario:6:6: MVPD 'Comcast' is already declared at SP 'main' (line 4)
            mvpd Comcast "Again" at backup, main
                 ^
            """)
        expectDiagnostic(
            preamble + "\nuser alice \"x\" at Comcast",
            """
            t.scenario:6:6: duplicate user 'alice' (first declared at line 5)
            user alice "x" at Comcast
                 ^
            """)
        expectDiagnostic(
            "scenario \"t\"\nrequestor R\nrequestor R",
            """
            t.scenario:3:11: duplicate requestor 'R' (first declared at line 2)
            requestor R
                      ^
            """)
        expectDiagnostic(
            "scenario \"t\"\napp app",
            """
            t.scenario:2:5: duplicate app 'app' (the first app is implicitly named 'app')
            app app
                ^
            """)
        expectDiagnostic(
            "scenario \"t\"\nplatform ios\nplatform tvos",
            """
            t.scenario:3:1: duplicate 'platform' statement (first at line 2)
            platform tvos
            ^
            """)
        expectDiagnostic(
            "scenario \"t\"\nscenario \"u\"",
            """
            t.scenario:2:1: duplicate 'scenario' statement (first at line 1)
            scenario "u"
            ^
            """)
    }

    @Test func worldAfterStep() {
        expectDiagnostic(
            preamble + "\n> logout()\nsp late \"https://late.test\"",
            """
            t.scenario:7:1: 'sp' must come before the first step (header and world statements come first)
            sp late "https://late.test"
            ^
            """)
        expectDiagnostic(
            preamble + "\n> logout()\nuser bob \"pw\" at Comcast",
            """
            t.scenario:7:1: 'user' must come before the first step (header and world statements come first)
            user bob "pw" at Comcast
            ^
            """)
        expectDiagnostic(
            preamble + "\n> logout()\ntags late",
            """
            t.scenario:7:1: 'tags' must come before the first step (header and world statements come first)
            tags late
            ^
            """)
    }

    @Test func missingScenario() {
        expectDiagnostic(
            "# only a comment\n  sp main \"u\"",
            """
            t.scenario:2:3: expected 'scenario "title"' as the first statement
              sp main "u"
              ^
            """)
        expectDiagnostic(
            "# nothing\n\n",
            """
            t.scenario:1:1: missing 'scenario "title"' statement
            # nothing
            ^
            """)
        expectDiagnostic(
            "> logout()",
            """
            t.scenario:1:1: expected 'scenario "title"' as the first statement
            > logout()
            ^
            """)
    }

    @Test func unknownCallAndCallback() {
        expectDiagnostic(
            "scenario \"t\"\n> getAuthentcation()",
            """
            t.scenario:2:3: unknown call 'getAuthentcation' (did you mean 'getAuthentication'?)
            > getAuthentcation()
              ^
            """)
        expectDiagnostic(
            "scenario \"t\"\n> frobnicate()",
            """
            t.scenario:2:3: unknown call 'frobnicate'
            > frobnicate()
              ^
            """)
        expectDiagnostic(
            "scenario \"t\"\n<  setTokn(_, \"CNN\")",
            """
            t.scenario:2:4: unknown callback 'setTokn' (did you mean 'setToken'?)
            <  setTokn(_, "CNN")
               ^
            """)
        expectDiagnostic(
            "scenario \"t\"\n< logout()",
            """
            t.scenario:2:3: unknown callback 'logout' ('logout' is a call: write '> logout(...)')
            < logout()
              ^
            """)
    }

    @Test func patternInCall() {
        let message = "patterns ('_', /regex/, Id{...}) are only allowed in expectations and 'browser at'"
        expectDiagnostic(
            "scenario \"t\"\n> checkAuthorization(_)",
            """
            t.scenario:2:22: \(message)
            > checkAuthorization(_)
                                 ^
            """)
        expectDiagnostic(
            "scenario \"t\"\n> handleExternalURL(/adobepass:.*/)",
            """
            t.scenario:2:21: \(message)
            > handleExternalURL(/adobepass:.*/)
                                ^
            """)
        expectDiagnostic(
            "scenario \"t\"\n> setSelectedProvider([Comcast{id: \"C\"}])",
            """
            t.scenario:2:24: \(message)
            > setSelectedProvider([Comcast{id: "C"}])
                                   ^
            """)
        expectDiagnostic(
            "scenario \"t\"\n> handleExternalURL($url)",
            """
            t.scenario:2:21: '$url' is not bound (a call may only pass a '$name' an earlier expectation bound)
            > handleExternalURL($url)
                                ^
            """)
    }

    @Test func badRegex() {
        // The caret goes to the problem inside the pattern (LinearRegex's offset).
        expectDiagnostic(
            "scenario \"t\"\n< navigateToUrl(/https:(.*/)",
            """
            t.scenario:2:24: invalid regex: unmatched '('
            < navigateToUrl(/https:(.*/)
                                   ^
            """)
        expectDiagnostic(
            "scenario \"t\"\n< navigateToUrl(/abc)",
            """
            t.scenario:2:17: unterminated regex (expected a closing '/')
            < navigateToUrl(/abc)
                            ^
            """)
        expectDiagnostic(
            preamble + "\nseen main GET /a(b/",
            """
            t.scenario:6:17: invalid regex: unmatched '('
            seen main GET /a(b/
                            ^
            """)
        expectDiagnostic(
            preamble + "\nnet main fail 1 /*/",
            """
            t.scenario:6:18: invalid regex: nothing to repeat before '*'
            net main fail 1 /*/
                             ^
            """)
        // Issue 27 row 7: what needs backtracking is refused where it is written.
        expectDiagnostic(
            preamble + "\nnet main fail 1 /(a)\\1/",
            """
            t.scenario:6:21: invalid regex: escape '\\1' is not supported (backreferences and other escapes need backtracking or are not in this pattern language)
            net main fail 1 /(a)\\1/
                                ^
            """)
    }

    /// Issue 44 row 10: an injected status is a final answer, as `POST /admin/net` says too.
    @Test func anInjectedStatusIsAFinalOne() {
        expectDiagnostic(
            preamble + "\nnet main fail 1 status 101",
            """
            t.scenario:6:24: invalid HTTP status '101' (expected an integer from 200 to 599)
            net main fail 1 status 101
                                   ^
            """)
        expectDiagnostic(
            preamble + "\nnet main answer 2 status 199 body \"x\"",
            """
            t.scenario:6:26: invalid HTTP status '199' (expected an integer from 200 to 599)
            net main answer 2 status 199 body "x"
                                     ^
            """)
    }

    @Test func trailingGarbage() {
        expectDiagnostic(
            preamble + "\nuser back now",
            """
            t.scenario:6:11: unexpected 'now' after the statement
            user back now
                      ^
            """)
        expectDiagnostic(
            "scenario \"t\"\n> logout() )",
            """
            t.scenario:2:12: unexpected ')' after the statement
            > logout() )
                       ^
            """)
        expectDiagnostic(
            preamble + "\nsp edge \"https://u\" laggy",
            """
            t.scenario:6:21: unexpected 'laggy' (expected latency, unreachable or silent)
            sp edge "https://u" laggy
                                ^
            """)
    }

    @Test func otherValueErrors() {
        expectDiagnostic(
            preamble + "\n< status(Comcast{colour: 1})",
            """
            t.scenario:6:18: unknown MVPD field 'colour'
            < status(Comcast{colour: 1})
                             ^
            """)
        expectDiagnostic(
            "scenario \"t\"\n< status({a: 1, a: 2})",
            """
            t.scenario:2:17: duplicate key 'a'
            < status({a: 1, a: 2})
                            ^
            """)
        expectDiagnostic(
            "scenario \"t\"\n< status(1.5)",
            """
            t.scenario:2:10: invalid number '1.5'
            < status(1.5)
                     ^
            """)
        expectDiagnostic(
            "scenario \"t\"\n< status(1",
            """
            t.scenario:2:11: expected ',' or ')'
            < status(1
                      ^
            """)
        expectDiagnostic(
            preamble + "\nuser bob \"pw\" at Comcast meta zip=Comcast",
            """
            t.scenario:6:35: expected a JSON value (a string, an integer, true, false, null, a list or a dictionary)
            user bob "pw" at Comcast meta zip=Comcast
                                              ^
            """)
        expectDiagnostic(
            preamble + "\nseen main get /x",
            """
            t.scenario:6:11: invalid HTTP method or operation 'get' (expected an uppercase word such as GET or POST, or one of configuration, login-page, authentication, authorize, media-token, preauthorize, metadata, registration-code, code-check, partner-token, temppass, logout)
            seen main get /x
                      ^
            """)
        expectDiagnostic(
            "scenario \"t\"\nmvpd PICKER \"x\" at main",
            """
            t.scenario:2:6: 'PICKER' is a constant and cannot be used as a name
            mvpd PICKER "x" at main
                 ^
            """)
    }

    @Test func readsAFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("syntax-\(UUID().uuidString).scenario")
            .path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(formatExample.utf8)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = try ScenarioParser.parse(fileAt: path)
        #expect(file.path == path)
        #expect(file.steps.count == 7)
        #expect(file.steps.first?.location.file == path)
    }

    @Test func unreadableFile() {
        do {
            _ = try ScenarioParser.parse(fileAt: "/nonexistent/x.scenario")
            Issue.record("expected a diagnostic")
        } catch {
            #expect(error.description == "/nonexistent/x.scenario:1:1: cannot read file: no such file\n\n^")
        }
    }

    @Test func httpStep() {
        expectDiagnostic(
            preamble + "\nhttp GET main api/v2 expect 200",
            """
            t.scenario:6:15: expected a path from the host's root, starting with '/' (e.g. /api/v2/REQ1/configuration)
            http GET main api/v2 expect 200
                          ^
            """)
        expectDiagnostic(
            preamble + "\nhttp get main /a expect 200",
            """
            t.scenario:6:6: invalid HTTP method 'get' (expected an uppercase word such as GET or POST)
            http get main /a expect 200
                 ^
            """)
        #expect(diagnostic(preamble + "\nhttp GET nowhere /a expect 200")?.location.column == 10)
        expectDiagnostic(
            preamble + "\nhttp GET main /a",
            """
            t.scenario:6:17: expected 'header', 'form', 'json' or 'expect STATUS'
            http GET main /a
                            ^
            """)
        expectDiagnostic(
            preamble + "\nhttp GET main /a expect 700",
            """
            t.scenario:6:25: invalid HTTP status '700' (expected an integer from 100 to 599)
            http GET main /a expect 700
                                    ^
            """)
        expectDiagnostic(
            preamble + "\nhttp GET main /a header \"NoColon\" expect 200",
            """
            t.scenario:6:25: expected a header as "Name: value"
            http GET main /a header "NoColon" expect 200
                                    ^
            """)
        expectDiagnostic(
            preamble + "\nhttp POST main /a form \"a=1\" json \"{}\" expect 200",
            """
            t.scenario:6:30: the request already has a body
            http POST main /a form "a=1" json "{}" expect 200
                                         ^
            """)
        expectDiagnostic(
            preamble + "\nhttp GET main /s/$code expect 200",
            """
            t.scenario:6:18: '$code' is not bound (an http step may only use a '$name' an earlier expectation bound)
            http GET main /s/$code expect 200
                             ^
            """)
        // Bound by an earlier http step's `with`, a name may be used in a later path and header.
        #expect(
            diagnostic(
                preamble
                    + "\nhttp POST main /s expect 201 with code=$code\nhttp GET main /s/$code header \"X-Code: $code\" expect 200"
            ) == nil)
    }
}
