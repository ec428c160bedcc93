import Foundation
import Testing
import PassModel

/// Issue 27 rows 1 and 7: the JSON parser and the pattern matcher are linear in their input. The
/// bounds are generous (a debug build on a busy machine); the quadratic parser took minutes for
/// 100,000 keys and the backtracking matcher years for 40 a's. Real speed figures: BENCHMARKS.md.
@Suite struct LinearTimeTests {
    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        try body()
        let d = clock.now - start
        return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    @Test func anObjectOf100000KeysParsesInLinearTime() throws {
        var text = "{"
        for i in 0..<100_000 { text += "\"key\(i)\":\(i)," }
        text += "\"last\":[1,{\"a\":\"b\"}]}"
        var value: Value?
        let took = try LinearTimeTests.seconds { value = try Value(jsonText: text) }
        guard case .dict(let entries)? = value else {
            Issue.record("not an object")
            return
        }
        #expect(entries.count == 100_001)
        #expect(entries[99_999].key == "key99999" && entries[99_999].value == .int(99_999))
        #expect(took < 10, "100,000 keys took \(took) s")
        // Twice the keys, about twice the time (quadratic would be four times): compared with slack.
        var double = "{"
        for i in 0..<200_000 { double += "\"key\(i)\":\(i)," }
        double += "\"last\":0}"
        let took2 = try LinearTimeTests.seconds { _ = try Value(jsonText: double) }
        #expect(took2 < max(took * 3.5, 0.5), "100,000 keys: \(took) s; 200,000: \(took2) s")
    }

    @Test func aLongArrayAndADuplicateKeyLateInALargeObject() throws {
        let list = "[" + Array(repeating: "1", count: 200_000).joined(separator: ",") + "]"
        #expect(try Value(jsonText: list).listValue?.count == 200_000)
        var text = "{"
        for i in 0..<50_000 { text += "\"k\(i)\":0," }
        text += "\"k7\":1}"
        #expect(throws: JSONError.self) { try Value(jsonText: text) }
    }

    @Test func theMatcherMatchesWhatSwiftRegexMatches() throws {
        let cases: [(String, String, Bool)] = [
            ("/config/.*", "/config/REQ1", true),
            (#"\/api\/v1\/checkauthn\/[A-Z2-9]{7}"#, "/api/v1/checkauthn/ABCDEF2", true),
            (#"\/api\/v1\/checkauthn\/[A-Z2-9]{7}"#, "/api/v1/checkauthn/ABCDEF1", false),
            ("[0-9a-f]{32}", String(repeating: "a", count: 32), true),
            ("[0-9a-f]{32}", String(repeating: "a", count: 31), false),
            (".*mso_id=Comcast.*", "x?mso_id=Comcast&y", true),
            ("enc:.+", "enc:", false),
            ("a|b|cd", "cd", true),
            ("(ab)*c?", "ababc", true),
            ("(?:ab)+", "", false),
            ("x{2,3}", "xxxx", false),
            ("x{2,}", "xxxxx", true),
            (#"\d+\s\w*"#, "12 ab_9", true),
            ("[^/]+", "a/b", false),
            ("^/a$", "/a", true),
            ("(a*)*b", "aaab", true),
        ]
        for (pattern, text, expected) in cases {
            let regex = try LinearRegex(pattern)
            #expect(regex.wholeMatch(text) == expected, "/\(pattern)/ on \(text)")
            let swift = try Regex(pattern)
            #expect(
                (try swift.wholeMatch(in: text) != nil) == expected, "Swift's Regex agrees on /\(pattern)/ and \(text)")
        }
        #expect(try LinearRegex("a{").wholeMatch("a{"), "a brace that is no repetition is itself")
        #expect(try LinearRegex("b+").matches(in: "aabbc"))
        #expect(try !LinearRegex("^b").matches(in: "ab"))
    }

    @Test func aCatastrophicPatternAnswersAtOnce() throws {
        let subject = String(repeating: "a", count: 10_000) + "!"
        for pattern in ["/(a+)+$", "(a+)+$", "(a|a)*$", "(a|aa)+b", "(.*a){20}"] {
            let regex = try LinearRegex(pattern)
            let took = LinearTimeTests.seconds { _ = regex.wholeMatch(subject) }
            #expect(took < 5, "/\(pattern)/ took \(took) s on 10,001 characters")
        }
    }

    @Test func whatNeedsBacktrackingIsRefusedWithItsPlace() {
        let cases: [(String, String, Int)] = [
            (#"(a)\1"#, "not supported", 3),
            ("(?=a)a", "not supported", 0),
            ("(?<!a)b", "not supported", 0),
            ("a**", "quantifier", 2),
            ("(a", "unmatched '('", 0),
            ("a)", "unmatched ')'", 1),
            ("[a", "unterminated", 0),
            ("x{3,2}", "reversed", 1),
            ("(a{1000}){1000}", "limit: pattern-size", 0),
        ]
        for (pattern, message, offset) in cases {
            do {
                _ = try LinearRegex(pattern)
                Issue.record("/\(pattern)/ was taken")
            } catch {
                #expect(error.message.contains(message), "/\(pattern)/: \(error.message)")
                #expect(error.offset == offset, "/\(pattern)/: at \(error.offset)")
            }
        }
    }
}
