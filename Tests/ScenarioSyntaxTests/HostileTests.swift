import Foundation
import PassModel
import Testing
@testable import ScenarioSyntax

/// The hostile scenario and world files of issue 12 (`Fixtures/hostile/scenarios/`): each is refused
/// with a diagnostic naming the limit or the problem, never a crash or a stall.
@Suite struct HostileTests {
    static let folder: String = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            let candidate = url.appendingPathComponent("Fixtures/hostile/scenarios")
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate.path }
        }
        return "Fixtures/hostile/scenarios"
    }()

    /// `key value` lines of a description file (comments skipped); a key may repeat.
    static func description(_ name: String) throws -> [(String, String)] {
        let text = try String(contentsOfFile: folder + "/" + name, encoding: .utf8)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
            guard let space = line.firstIndex(of: " ") else { return nil }
            return (String(line[..<space]), String(line[line.index(after: space)...]))
        }
    }

    static func parseFixture(_ name: String) -> Diagnostic? {
        do {
            let path = folder + "/" + name
            if name.hasSuffix(".world") {
                _ = try ScenarioParser.parseWorld(try String(contentsOfFile: path, encoding: .utf8), path: name)
            } else {
                _ = try ScenarioParser.parse(fileAt: path)
            }
            return nil
        } catch let d as Diagnostic {
            return d
        } catch {
            return Diagnostic(location: loc(0, 0), message: "\(error)", lineText: "")
        }
    }

    @Test func deepValuesMeetALimitNotTheEndOfTheStack() throws {
        let d = try Self.description("deep-value.txt")
        let prefix = d.first { $0.0 == "prefix" }?.1 ?? ""
        let suffix = d.first { $0.0 == "suffix" }?.1 ?? ""
        let cases = d.filter { $0.0 == "case" }.map { $0.1.split(separator: " ") }
        #expect(cases.count == 2)
        for c in cases {
            let depth = Int(c[0]) ?? 0
            let limit = String(c[1])
            let nested = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            let scenario = "scenario \"deep\"\nsp main \"https://sp.test\"\n" + prefix + nested + suffix + "\n"
            let world = "sp main \"https://sp.test\"\nmvpd M \"M\" at main\nuser u \"p\" at M meta k=" + nested + "\n"
            for (text, line, column) in [
                (scenario, 3, prefix.count + 65), (world, 3, "user u \"p\" at M meta k=".count + 65),
            ] {
                let diagnostic: Diagnostic?
                do {
                    if text == world {
                        _ = try ScenarioParser.parseWorld(text, path: testPath)
                    } else {
                        _ = try ScenarioParser.parse(text, path: testPath)
                    }
                    diagnostic = nil
                } catch { diagnostic = error }
                #expect(
                    diagnostic?.message.hasSuffix("(limit: \(limit))") == true,
                    "\(depth): \(diagnostic?.message ?? "parsed")")
                #expect(diagnostic?.location.line == line)
                if limit == "value-depth" {
                    #expect(diagnostic?.message == "value nested deeper than 64 levels (limit: value-depth)")
                    #expect(diagnostic?.location.column == column)
                } else {
                    #expect(diagnostic?.message == "line longer than 16384 characters (limit: line-length)")
                    #expect(diagnostic?.location.column == 16_385)
                }
            }
        }
    }

    @Test func sixtyFourLevelsAreFine() throws {
        let nested = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        let file = try parse("scenario \"t\"\n> getMetadata(\(nested))")
        #expect(file.steps.count == 1)
    }

    @Test func manyTagsMeetTheLimitAndRepeatsAreLinear() throws {
        let d = try Self.description("many-tags.txt")
        func number(_ key: String) -> Int { Int(d.first { $0.0 == key }?.1 ?? "") ?? 0 }
        let count = number("count"), perLine = number("perLine"), distinct = number("distinct")
        #expect(count == 200_000)
        func file(_ tag: (Int) -> String) -> String {
            var lines = ["scenario \"tags\""]
            var i = 0
            while i < count {
                lines.append("tags " + (i..<min(i + perLine, count)).map(tag).joined(separator: " "))
                i += perLine
            }
            return lines.joined(separator: "\n")
        }
        let many = diagnostic(file { "t\($0)" })
        #expect(many?.message == "more than 256 tags (limit: tags)")
        #expect(many?.location.line == 2)
        // 200,000 repeats of three tags: kept once each, in the order first seen.
        let repeated = try parse(file { "r\(($0 * 7) % distinct)" })
        #expect(repeated.tags == ["r0", "r1", "r2"])
    }

    @Test func longLinesAndValuesAndCountsMeetTheirLimits() {
        let long = diagnostic("scenario \"t\"\n# " + String(repeating: "x", count: 20_000))
        #expect(long?.message == "line longer than 16384 characters (limit: line-length)")
        #expect(long?.location == loc(2, 16_385))
        // The echo of a long line is a window around the column, the caret under it.
        #expect(long.map { $0.description.split(separator: "\n")[1].count } ?? 0 < 300)

        let value = diagnostic("scenario \"t\"\n> handleExternalURL(\"" + String(repeating: "x", count: 9_000) + "\")")
        #expect(value?.message == "string longer than 8192 characters (limit: value-length)")
        #expect(value?.location == loc(2, 21))

        let steps = diagnostic("scenario \"t\"\n" + String(repeating: "> logout()\n", count: 10_001))
        #expect(steps?.message == "more than 10000 steps (limit: steps)")
        #expect(steps?.location == loc(10_002, 1))

        // `REQ` rather than `R`: `R400` names a status code (a constant, not a name).
        let world = "scenario \"t\"\n" + (0...2_000).map { "requestor REQ\($0)" }.joined(separator: "\n")
        #expect(diagnostic(world)?.message == "more than 2000 world statements (limit: world-statements)")

        let big = String(repeating: "# comment\n", count: 500_000)
        #expect(diagnostic("scenario \"t\"\n" + big)?.message == "file larger than 4194304 bytes (limit: file-bytes)")
    }

    @Test func controlCharactersAreEscapedAndTheCaretStaysUnderTheColumn() throws {
        let d = try #require(Self.parseFixture("control-chars.scenario"))
        let text = d.description
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(text.debugDescription)")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(
            lines[0].hasSuffix(
                #"control-chars.scenario:3:21: control character U+001B (in a string, write it as \u{1B})"#),
            "\(lines[0])")
        #expect(lines[1] == #"> handleExternalURL(\u{1B}[2J\u{7}\u{0}\u{D}x)"#)
        #expect(lines[2] == String(repeating: " ", count: 20) + "^")
    }

    @Test func aLongLineIsShownAsAWindowWithTheCaretUnderTheColumn() throws {
        let d = try #require(
            diagnostic("scenario \"t\"\n> handleExternalURL(\"" + String(repeating: "x", count: 5_000) + "\", 7)"))
        let lines = d.description.split(separator: "\n").map { Array($0.unicodeScalars) }
        #expect(lines[1].count <= 202)
        let caret = try #require(lines[2].firstIndex(of: "^"))
        #expect(lines[1][caret] == "7")
        #expect(lines[1].first == "…")
    }

    @Test func aCaretAfterAnEscapeCountsTheEscapedWidth() {
        let d = Diagnostic(location: loc(1, 3), message: "bad \u{1B}[31mred", lineText: "\u{7}\u{1B}x")
        #expect(d.description == "t.scenario:1:3: bad \\u{1B}[31mred\n\\u{7}\\u{1B}x\n           ^")
    }

    @Test(arguments: [
        (
            "arity-setRequestor.scenario",
            "arity-setRequestor.scenario:6:3: missing argument requestorID of setRequestor (expected setRequestor(requestorID, [signedRequestorID: …], [setSignedRequestorId: …], [serviceProviders: …], [secret: …], [publicKey: …]))"
        ),
        (
            "arity-extra.scenario",
            "arity-extra.scenario:5:24: unexpected argument '\"REQ2\"' for setRequestor (expected setRequestor(requestorID, [signedRequestorID: …], [setSignedRequestorId: …], [serviceProviders: …], [secret: …], [publicKey: …]))"
        ),
        (
            "arg-type.scenario",
            "arg-type.scenario:6:21: getAuthentication's forceAuthn takes true or false, not \"yes\""
        ),
        (
            "sp-not-a-url.scenario",
            "sp-not-a-url.scenario:2:9: invalid SP URL \"not a url at all\": expected an absolute http:// or https:// URL"
        ),
        (
            "sp-url-userinfo.world",
            "sp-url-userinfo.world:1:9: invalid SP URL \"https://admin:secret@sp.test\": a base URL has no user info"
        ),
    ])
    func fileErrors(_ name: String, _ expected: String) throws {
        let d = try #require(Self.parseFixture(name))
        let first = d.description.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.hasSuffix(expected), "\(first)")
        #expect(d.caretLine == String(repeating: " ", count: d.location.column - 1) + "^")
    }
}
