import Foundation
import PassModel
import ScenarioSyntax
import Testing
@testable import Scenario

/// `passim record`: rewriting `<` lines from what the engine does.
@Suite struct RecorderTests {
    static let world = """
        # A comment that must survive.
        scenario "t"
        sp main "https://sp.test"
        mvpd Comcast "Xfinity" at main
        user alice "secret" at Comcast allow CNN
        requestor REQ1

        """

    func record(_ body: String, fresh: Bool = false) throws -> Recorder.Recording {
        try Recorder(fresh: fresh).record(text: Self.world + body, path: "t.scenario")
    }

    /// The text after the world: what the steps became.
    func steps(_ r: Recorder.Recording) -> String {
        String(r.text.dropFirst(Self.world.count))
    }

    @Test func aMatchingLineIsKeptAndCommentsAndBlankLinesStay() throws {
        let body = """
            > setRequestor("REQ1")   # configure
            <   setRequestorComplete(_)   # any status

            # the dialog
            > getAuthentication()
            < displayProviderDialog([Comcast])

            """
        let r = try record(body)
        #expect(!r.changed)
        #expect(r.text == Self.world + body)
    }

    @Test func aWrongLineIsRewrittenKeepingIndentationAndTrailingComment() throws {
        let r = try record(
            """
            > setRequestor("REQ1")
              < setRequestorComplete(0)   # was wrong

            """)
        #expect(
            steps(r) == """
                > setRequestor("REQ1")
                  < setRequestorComplete(1)   # was wrong

                """)
        #expect(r.replay.status == .passed)
    }

    @Test func freshRewritesEvenMatchingLines() throws {
        let r = try record("> setRequestor(\"REQ1\")\n< setRequestorComplete(_)\n", fresh: true)
        #expect(steps(r) == "> setRequestor(\"REQ1\")\n< setRequestorComplete(1)\n")
    }

    @Test func missingCallbacksAreInsertedAfterTheStepBeforeTheCall() throws {
        let r = try record(
            """
            > setRequestor("REQ1")
            < setRequestorComplete(1)
            > getAuthentication()
            # the user picks
            > setSelectedProvider(Comcast)
            < sendTrackingData(TRACKING_GET_SELECTED_PROVIDER, _)

            """)
        #expect(
            steps(r) == """
                > setRequestor("REQ1")
                < setRequestorComplete(1)
                > getAuthentication()
                < displayProviderDialog([Comcast])
                # the user picks
                > setSelectedProvider(Comcast)
                < sendTrackingData(TRACKING_GET_SELECTED_PROVIDER, _)
                < navigateToUrl(/https:\\/\\/sp\\.test\\/authenticate\\/saml\\?.*/)

                """)
        #expect(r.onlyAddsOrRemoves)
        #expect(r.replay.status == .passed)
        #expect(r.replay.transcript == r.result.transcript)
    }

    @Test func aLineThatFindsNothingIsRemoved() throws {
        let r = try record(
            """
            > setRequestor("REQ1")
            < setRequestorComplete(1)
            < setRequestorComplete(1)   # one too many
            > getSelectedProvider()
            < selectedProvider(nil)

            """)
        #expect(
            steps(r) == """
                > setRequestor("REQ1")
                < setRequestorComplete(1)
                > getSelectedProvider()
                < selectedProvider(nil)

                """)
        #expect(r.onlyAddsOrRemoves)
    }

    @Test func aSecondAppGetsItsPrefixAndAnExplicitPrefixStays() throws {
        let world = Self.world.replacingOccurrences(
            of: "requestor REQ1\n", with: "requestor REQ1\nrequestor REQ2\napp second\n")
        let r = try Recorder().record(
            text: world + """
                app> setRequestor("REQ1")
                app< setRequestorComplete(0)
                second> setRequestor("REQ2")

                """, path: "t.scenario")
        #expect(
            String(r.text.dropFirst(world.count)) == """
                app> setRequestor("REQ1")
                app< setRequestorComplete(1)
                second> setRequestor("REQ2")
                second< setRequestorComplete(1)

                """)
    }

    /// A draft (no `<` line) is recorded as the app would run it: after each `>` and `user` step time
    /// runs until the engine awaits no answer, so the login written the natural way is recorded.
    @Test func aFileWithoutExpectationsGetsWhatEachStepBrings() throws {
        let r = try record(
            """
            > setRequestor("REQ1")
            > getAuthentication()
            > setSelectedProvider(Comcast)
            user login "alice" "secret"
            > handleExternalURL("adobepass://ios.app")
            > checkAuthentication()
            """)
        #expect(
            steps(r) == """
                > setRequestor("REQ1")
                < setRequestorComplete(1)
                > getAuthentication()
                < displayProviderDialog([Comcast])
                > setSelectedProvider(Comcast)
                < sendTrackingData(TRACKING_GET_SELECTED_PROVIDER, ["Comcast", "mobile", "ios", "iOS"])
                < navigateToUrl(/https:\\/\\/sp\\.test\\/authenticate\\/saml\\?.*/)
                user login "alice" "secret"
                > handleExternalURL("adobepass://ios.app")
                < setAuthenticationStatus(1, "")
                < sendTrackingData(TRACKING_AUTHENTICATION, ["true", "Comcast", $guid, "false", "mobile", "ios", "iOS"])
                > checkAuthentication()
                < setAuthenticationStatus(1, "")
                < sendTrackingData(TRACKING_AUTHENTICATION, ["true", "Comcast", $guid, "true", "mobile", "ios", "iOS"])
                """, "the same GUID is bound once and reused; no final newline, as before")
        #expect(r.replay.status == .passed)
    }

    /// In a draft two `>` steps written together are two steps of an app that waits: the second
    /// comes once the first's answers have (here the configuration's).
    @Test func twoCallsWrittenTogetherInADraftWaitForTheFirstsAnswers() throws {
        let r = try record(
            """
            > setRequestor("REQ1")
            > getSelectedProvider()
            """)
        #expect(
            steps(r) == """
                > setRequestor("REQ1")
                < setRequestorComplete(1)
                > getSelectedProvider()
                < selectedProvider(nil)
                """)
        #expect(r.replay.status == .passed)
    }

    /// A `clock` line right after a step says itself how much time passes there: `clock +0ms` puts the
    /// next call at the same instant, before the configuration came (the race a file with `<` lines
    /// writes with two `>` steps together).
    @Test func aClockLineAfterACallSaysHowMuchTimePasses() throws {
        let r = try record(
            """
            > setRequestor("REQ1")
            clock +0ms
            > getSelectedProvider()
            """)
        #expect(
            steps(r) == """
                > setRequestor("REQ1")
                clock +0ms
                > getSelectedProvider()
                < selectedProvider(nil)
                < setRequestorComplete(1)
                """)
        #expect(r.replay.status == .passed)
        #expect(
            r.replay.transcript == ScenarioRunner().run(try ScenarioParser.parse(r.text, path: "t.scenario")).transcript
        )
        // What came during the clock's time is written after it.
        let later = try record("> setRequestor(\"REQ1\")\nclock +10ms\n> getSelectedProvider()\n")
        #expect(
            steps(later)
                == "> setRequestor(\"REQ1\")\nclock +10ms\n< setRequestorComplete(1)\n> getSelectedProvider()\n< selectedProvider(nil)\n"
        )
    }

    @Test func aNameALaterCallUsesKeepsItsName() throws {
        let r = try record(
            """
            > setRequestor("REQ1")
            < setRequestorComplete(1)
            > getAuthentication()
            < displayProviderDialog([Comcast])
            > setSelectedProvider(Comcast)
            < sendTrackingData(TRACKING_GET_SELECTED_PROVIDER, _)
            < navigateToUrl($u)
            user login "alice" "secret"
            > handleExternalURL($u)

            """, fresh: true)
        #expect(steps(r).contains("< navigateToUrl($u)\n"))
        #expect(
            steps(r).contains("< sendTrackingData(TRACKING_AUTHENTICATION, [\"true\", \"Comcast\", $guid, \"false\""))
        #expect(r.replay.status == .passed)
    }

    @Test func crlfLineEndingsAreKept() throws {
        let text = (Self.world + "> setRequestor(\"REQ1\")\n< setRequestorComplete(0)\n").replacingOccurrences(
            of: "\n", with: "\r\n")
        let r = try Recorder().record(text: text, path: "t.scenario")
        #expect(r.text == text.replacingOccurrences(of: "setRequestorComplete(0)", with: "setRequestorComplete(1)"))
    }

    @Test func aFailingNonExpectationStepIsAnErrorNotAFile() {
        #expect(throws: Recorder.Failure.self) {
            try record("> setRequestor(\"REQ1\")\nbrowser at \"nowhere\"\n")
        }
        #expect(throws: Recorder.Failure.self) {
            try Recorder().record(text: "bogus\n", path: "t.scenario")
        }
    }

    // MARK: Pinned times (`< … at T`)

    static let silentWorld = """
        scenario "t"
        sp main "https://sp.test" silent
        requestor REQ1

        """

    func recordSilent(_ body: String, fresh: Bool = false) throws -> Recorder.Recording {
        try Recorder(fresh: fresh).record(text: Self.silentWorld + body, path: "t.scenario")
    }

    @Test func aRightPinnedTimeIsKept() throws {
        let body = "> setRequestor(\"REQ1\")\n< setRequestorComplete(_) at 30s   # the timeout\n"
        let r = try recordSilent(body)
        #expect(!r.changed)
        #expect(r.text == Self.silentWorld + body)
    }

    @Test func aWrongPinnedTimeIsRewrittenOnlyWhenFresh() throws {
        let body = "> setRequestor(\"REQ1\")\n< setRequestorComplete(0) at 1m\n"
        do {
            _ = try recordSilent(body)
            Issue.record("a wrong pinned time was recorded without --fresh")
        } catch {
            #expect("\(error)".contains("was delivered at 30s, the line pins it at 1m"))
        }
        let r = try recordSilent(body, fresh: true)
        #expect(
            String(r.text.dropFirst(Self.silentWorld.count))
                == "> setRequestor(\"REQ1\")\n< setRequestorComplete(0) at 30s\n")
    }

    @Test func aRewrittenCallbackKeepsItsPin() throws {
        // The callback is wrong, its time right: the line is rewritten with the pin as written.
        let r = try recordSilent("> setRequestor(\"REQ1\")\n< setRequestorComplete(1) at 30000ms\n")
        #expect(
            String(r.text.dropFirst(Self.silentWorld.count))
                == "> setRequestor(\"REQ1\")\n< setRequestorComplete(0) at 30s\n")
    }

    @Test func newLinesAreNotPinned() throws {
        let r = try recordSilent("> setRequestor(\"REQ1\")\n")
        #expect(
            String(r.text.dropFirst(Self.silentWorld.count)) == "> setRequestor(\"REQ1\")\n< setRequestorComplete(0)\n")
    }

    // MARK: Volatile values

    func writer(_ fileBody: String = "") throws -> PatternWriter {
        PatternWriter(file: try ScenarioParser.parse(Self.world + fileBody, path: "t.scenario"))
    }

    @Test func tokensGUIDsAndCodesBecomeBindingsReusedByValue() throws {
        var w = try writer()
        let b = Bindings()
        #expect(w.text(for: .setToken(token: "AAA", resource: "CNN"), bindings: b) == "setToken($token1, \"CNN\")")
        #expect(w.text(for: .setToken(token: "AAA", resource: "HBO"), bindings: b) == "setToken($token1, \"HBO\")")
        #expect(w.text(for: .setToken(token: "BBB", resource: "CNN"), bindings: b) == "setToken($token2, \"CNN\")")
        let guid = "8bd1a52dafbf2673b60215375d5933c2"
        let tracking = Callback.sendTrackingData(event: 0, data: ["true", "Comcast", guid, "false", nil])
        #expect(
            w.text(for: tracking, bindings: b)
                == "sendTrackingData(TRACKING_AUTHENTICATION, [\"true\", \"Comcast\", $guid, \"false\", nil])")
        #expect(w.text(for: tracking, bindings: b).contains("$guid,"))
        #expect(w.text(for: .status(code: "REGCODE", message: "WXVPXLS"), bindings: b) == "status(REGCODE, $code)")
        #expect(w.text(for: .status(code: "N003", message: nil), bindings: b) == "status(N003)")
    }

    @Test func urlsWithAQueryBecomeARegexOfSchemeHostAndPath() throws {
        var w = try writer()
        let b = Bindings()
        #expect(
            w.text(for: .navigateToUrl("https://sp.test/a.b/logout?x=1&y=2", useSVC: true), bindings: b)
                == #"navigateToUrl(/https:\/\/sp\.test\/a\.b\/logout\?.*/, true)"#)
        #expect(
            w.text(for: .navigateToUrl("adobepass://ios.app", useSVC: nil), bindings: b)
                == #"navigateToUrl("adobepass://ios.app")"#)
        // The regex is valid scenario syntax and matches the URL it came from.
        let line = try ScenarioParser.parse(
            Self.world + "< " + w.text(for: .navigateToUrl("https://sp.test/p(1)?q", useSVC: nil), bindings: b) + "\n",
            path: "t")
        guard case .expect(_, let pattern, _) = line.steps[0].value else { throw Failure() }
        var bindings = Bindings()
        #expect(Matcher.match(pattern, .navigateToUrl("https://sp.test/p(1)?other", useSVC: nil), bindings: &bindings))
    }
    struct Failure: Error {}

    @Test func stableValuesStayLiteralAsTheCanonicalTextPrintsThem() throws {
        var w = try writer()
        let b = Bindings()
        let failed = Callback.tokenRequestFailed(
            resource: "ESPN", errorCode: "User Not Authorized Error", details: "Upgrade")
        #expect(w.text(for: failed, bindings: b) == failed.description)
        let dialog = Callback.displayProviderDialog([MVPD(id: "Comcast", displayName: "Xfinity")])
        #expect(w.text(for: dialog, bindings: b) == "displayProviderDialog([Comcast])")
        let status = Callback.setAuthenticationStatus(status: 0, errorCode: "Provider Not Selected Error")
        #expect(w.text(for: status, bindings: b) == "setAuthenticationStatus(0, PROVIDER_NOT_SELECTED_ERROR)")
    }

    @Test func generatedNamesAvoidNamesTheFileUses() throws {
        var w = try writer("> setRequestor(\"REQ1\")\n< setRequestorComplete($token1)\n")
        #expect(
            w.text(for: .setToken(token: "AAA", resource: "CNN"), bindings: Bindings()) == "setToken($token2, \"CNN\")")
    }

    // MARK: Writing files

    @Test func theCIVariableForbidsWriting() {
        #expect(SuiteUpdate.refusal(environment: ["CI": "true"]) != nil)
        #expect(SuiteUpdate.refusal(environment: ["CI": ""]) != nil)
        #expect(SuiteUpdate.refusal(environment: ["HOME": "/root"]) == nil)
    }

    @Test func updateMissingWritesOnlyAddedOrRemovedLines() throws {
        let missing = temporaryScenario(
            Self.world + "> setRequestor(\"REQ1\")\nclock +1s\n> getSelectedProvider()\n< selectedProvider(nil)\n")
        let wrong = temporaryScenario(Self.world + "> setRequestor(\"REQ1\")\n< setRequestorComplete(0)\n")
        let wrongBefore = try String(contentsOfFile: wrong, encoding: .utf8)
        let report = SuiteRun().run(paths: [missing, wrong])
        #expect(report.failed == 2)
        let outcome = SuiteUpdate.record(SuiteUpdate.candidates(report, mode: .missing), mode: .missing)
        #expect(outcome.written == [missing])
        #expect(try String(contentsOfFile: wrong, encoding: .utf8) == wrongBefore)
        #expect(
            try String(contentsOfFile: missing, encoding: .utf8).contains(
                "> setRequestor(\"REQ1\")\nclock +1s\n< setRequestorComplete(1)\n> getSelectedProvider()"))
        let failed = SuiteUpdate.record(
            SuiteUpdate.candidates(SuiteRun().run(paths: [missing, wrong]), mode: .failed), mode: .failed)
        #expect(failed.written == [wrong])
        #expect(SuiteRun().run(paths: [missing, wrong]).status == .passed)
    }

    // MARK: The whole suite, round trip

    /// The file without its `<` lines (the parser says which lines they are), as a draft that means
    /// what the file meant: a draft waits after each `>` and `user` step, the file only where a `<`
    /// line is; so where a step is not followed by a `<` (or `clock`) line, a `clock +0ms` says that
    /// no time passes there.
    static func stripped(_ text: String, _ file: ScenarioFile) -> String {
        var expectLines = Set<Int>()
        var marks = Set<Int>()
        for (i, s) in file.steps.enumerated() {
            if case .expect = s.value { expectLines.insert(s.location.line) }
            guard Self.waitsInADraft(s.value), i + 1 < file.steps.count else { continue }
            switch file.steps[i + 1].value {
            case .expect, .clock: break
            default: marks.insert(s.location.line)
            }
        }
        return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().flatMap { i, line in
            if expectLines.contains(i + 1) { return [Substring]() }
            return marks.contains(i + 1) ? [line, Substring(Self.marker)] : [line]
        }.joined(separator: "\n")
    }

    /// The steps after which a draft lets time run until the engine awaits no answer.
    static func waitsInADraft(_ step: Step) -> Bool {
        switch step {
        case .call, .userLogin, .userBack, .userPick, .userPickOther, .userCancel, .userEnterCode, .userAuthenticate:
            return true
        default: return false
        }
    }

    static let marker = "clock +0ms"
    static func isExpect(_ step: Step) -> Bool { if case .expect = step { return true } else { return false } }

    /// The transcript's text without the markers `stripped` put in, each stretch of `<` lines in the
    /// order of its apps (the first app's, then the others by name): two apps' queues are apart, so
    /// the recorder may write what they took at one step in either order.
    static func unmarked(_ transcript: String) -> [String] {
        let lines = transcript.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            .filter { $0.trimmingCharacters(in: .whitespaces) != marker }
        func app(_ line: String) -> String? {
            guard let arrow = line.firstIndex(of: "<"),
                line[..<arrow].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
            else { return nil }
            return String(line[..<arrow])
        }
        var out: [String] = []
        var stretch: [String] = []
        for line in lines + [""] {
            if app(line) != nil, !line.isEmpty {
                stretch.append(line)
                continue
            }
            // A stable sort: each app's own lines keep their order.
            out += stretch.enumerated().sorted { a, b in
                let (x, y) = (app(a.element) ?? "", app(b.element) ?? "")
                return x != y ? x < y : a.offset < b.offset
            }.map(\.element)
            stretch = []
            out.append(line)
        }
        return out
    }

    /// The file with its `< … at T` pins removed: a recording writes no pin of its own, so the
    /// transcripts compare without them.
    static func unpinned(_ text: String, _ file: ScenarioFile) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for step in file.steps {
            guard case .expect(_, _, .some) = step.value else { continue }
            let i = step.location.line - 1
            let pin = " at \(step.text.split(separator: " ").last ?? "")"
            if step.text.hasSuffix(pin) {
                lines[i] = lines[i].replacingOccurrences(of: step.text, with: String(step.text.dropLast(pin.count)))
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Which steps are `<` lines, in order (the markers left out): equal skeletons mean time runs at
    /// the same places.
    static func skeleton(_ file: ScenarioFile) -> [Bool] {
        file.steps.filter { $0.text != marker }.map { Self.isExpect($0.value) }
    }

    @Test func everyScenarioStrippedAndRecordedReplaysWithTheSameTranscript() throws {
        let paths = try SuiteLoader.files(in: [packageRoot + "/Scenarios"])
        #expect(paths.count >= 100)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("passim-roundtrip-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        var sameTiming = 0
        var timingPinned = 0
        for path in paths {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            let pinned = try ScenarioParser.parse(text, path: path)
            let original = try ScenarioParser.parse(Self.unpinned(text, pinned), path: path)
            let originalRun = ScenarioRunner().run(original)
            let recording: Recorder.Recording
            do {
                recording = try Recorder().record(text: Self.stripped(text, original), path: path)
            } catch {
                // A draft waits after a step until its answers came, or, when a `clock` line follows, lets
                // exactly that much time pass; a file whose `<` lines ran time before a `clock` line means
                // an instant a round trip later, which no draft writes. Where the file pins what the
                // instant decides (a request's signature), the draft records another request.
                #expect(text.contains("signature="), "\(path): \(error)")
                timingPinned += 1
                continue
            }
            #expect(recording.replay.status == .passed, "\(path)\n\(recording.replay.failureReport)")
            #expect(recording.replay.transcript == recording.result.transcript, "\(path)")
            let recorded = try ScenarioParser.parse(recording.text, path: path)
            if Self.skeleton(recorded) == Self.skeleton(original) {
                sameTiming += 1
                #expect(Self.unmarked(recording.replay.transcript) == Self.unmarked(originalRun.transcript), "\(path)")
            }
            // Recording a recorded file changes nothing.
            #expect(try Recorder().record(text: recording.text, path: path).text == recording.text, "\(path)")
            let copy = dir + "/" + path.dropFirst(packageRoot.count + 1).replacingOccurrences(of: "/", with: "_")
            #expect(FileManager.default.createFile(atPath: copy, contents: Data(recording.text.utf8)))
        }
        // The recorded files pass as `passim run` runs them.
        let rerun = SuiteRun().run(paths: [dir])
        #expect(rerun.status == .passed, "\(rerun.output)")
        #expect(rerun.results.count == paths.count - timingPinned)
        #expect(timingPinned <= 2, "\(timingPinned) files could not be recorded from their drafts")
        // Most files put time in the same places once recorded (the rest are queued calls and timing races).
        #expect(sameTiming * 10 >= paths.count * 8, "\(sameTiming) of \(paths.count)")
    }
}
