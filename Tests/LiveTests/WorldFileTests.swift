import ScenarioSyntax
import Testing

@Suite struct WorldFileTests {
    @Test func aWorldFileNeedsNoScenarioLine() throws {
        let file = try ScenarioParser.parseWorld(
            """
            # served by passim serve
            sp main "https://sp.auth.test" latency 40ms
            sp backup "https://sp2.auth.test" unreachable
            mvpd Comcast "Xfinity" at main, backup idp-latency 20ms
            user alice "secret" at Comcast allow CNN
            requestor REQ1
            seed 9
            """, path: "w.world")
        #expect(file.title == "")
        #expect(file.sps.map(\.name) == ["main", "backup"])
        #expect(file.sps[1].unreachable)
        #expect(file.mvpds.first?.idpLatency == .init(20))
        #expect(file.users.map(\.name) == ["alice"])
        #expect(file.seed == 9)
        #expect(file.steps.isEmpty)
    }

    @Test func aScenarioLineIsAllowed() throws {
        let file = try ScenarioParser.parseWorld("scenario \"demo\"\nsp main \"https://sp.auth.test\"\n", path: "w")
        #expect(file.title == "demo")
    }

    @Test(arguments: [
        "> setRequestor(\"REQ1\")", "< setRequestorComplete(1)", "app> getAuthentication()",
        "user login \"alice\" \"secret\"",
        "user back", "clock +5s", "net main down", "seen main GET /config/REQ1", "browser at _",
    ])
    func stepsAreRefused(step: String) throws {
        let text = "sp main \"https://sp.auth.test\"\n  \(step)\n"
        #expect {
            _ = try ScenarioParser.parseWorld(text, path: "w.world")
        } throws: { error in
            guard let d = error as? Diagnostic else { return false }
            return d.message == "a world file has no steps" && d.location.line == 2 && d.location.column == 3
        }
    }

    @Test func worldErrorsAreTheParsers() {
        #expect {
            _ = try ScenarioParser.parseWorld("mvpd Comcast \"X\" at nowhere\n", path: "w")
        } throws: { error in
            (error as? Diagnostic)?.location.line == 1
        }
        // `user NAME "PASSWORD" at MVPD` declares a user; it is not a step.
        #expect(throws: Never.self) {
            _ = try ScenarioParser.parseWorld(
                "sp s \"https://a.test\"\nmvpd M \"M\" at s\nuser login \"pw\" at M\n", path: "w")
        }
    }
}
