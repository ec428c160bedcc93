import PassModel
import ScenarioSyntax

/// Reading a `differ` line (docs/EXPECTATIONS.md, "differ").
extension DifferenceRule {
    /// A word of the line and the column it starts at (1-based). A callback pattern is one word: blanks
    /// inside parentheses, brackets, braces, quotes or a `/regex/` do not split it.
    struct Word {
        var text: String
        var column: Int
    }

    /// Parses `differ …`, line `number` of `path`; `text` is the whole line, trimmed.
    static func parse(_ text: String, number: Int, path: String) throws(PortError) -> DifferenceRule {
        func fail(_ message: String) -> PortError { PortError("\(path):\(number): \(message)\n  \(text)") }
        guard let because = text.range(of: " because ") else {
            throw fail("differ needs `because REASON` at the end")
        }
        let reason = text[because.upperBound...].trimmingCharacters(in: .whitespaces)
        guard !reason.isEmpty else { throw fail("differ needs a reason after `because`") }
        var words = try split(String(text[..<because.lowerBound]), fail: fail)[...]
        _ = words.popFirst()  // differ

        guard let kindsWord = words.popFirst() else { throw fail("differ needs its kinds of difference first") }
        var kinds: Set<Mismatch.Kind> = []
        for name in kindsWord.text.split(separator: ",") {
            guard let kind = Mismatch.Kind(rawValue: String(name)) else {
                throw fail(
                    "no kind of difference '\(name)' (\(Mismatch.Kind.allCases.map(\.rawValue).joined(separator: ", ")))"
                )
            }
            kinds.insert(kind)
        }
        var rule = DifferenceRule(
            kinds: kinds, expected: nil, got: nil, place: nil, conditions: [], reason: reason, line: number)

        func pattern(_ word: Word, isCall: Bool) throws(PortError) -> CallPattern {
            guard word.text.contains("(") else {
                let known =
                    isCall ? Call.Name(rawValue: word.text) != nil : Callback.Name(rawValue: word.text) != nil
                guard known else { throw fail("unknown \(isCall ? "call" : "callback") '\(word.text)'") }
                return CallPattern(name: word.text, syntax: nil)
            }
            do {
                let syntax = try ScenarioParser.callPattern(
                    word.text, isCall: isCall, path: path, line: number, column: word.column, lineText: text)
                return CallPattern(name: syntax.name, syntax: syntax)
            } catch {
                throw PortError(error.description)
            }
        }
        func patterns(_ clause: String) throws(PortError) -> [CallPattern] {
            var out: [CallPattern] = []
            repeat {
                guard let word = words.popFirst() else { throw fail("\(clause) needs a callback") }
                out.append(try pattern(word, isCall: false))
            } while words.first?.text == "or" && words.popFirst() != nil
            return out
        }
        func count(_ word: Word?) -> Int? {
            guard let word, word.text.hasSuffix("+"), let n = Int(word.text.dropLast()), n >= 1 else { return nil }
            return n
        }
        func duration(_ word: Word?, _ what: String) throws(PortError) -> Millis {
            guard let word, word.text.hasSuffix("+"), let d = Millis(text: String(word.text.dropLast())) else {
                throw fail("\(what) needs a duration and + (at least: 30m+, 10s+)")
            }
            return d
        }
        func stepCondition() throws(PortError) -> StepCondition {
            switch words.popFirst()?.text {
            case "call":
                guard let word = words.popFirst() else { throw fail("call needs a call's name or pattern") }
                let alternatives =
                    word.text.contains("(")
                    ? [word]
                    : word.text.split(separator: "|").map {
                        Word(text: String($0), column: word.column)
                    }
                var calls: [CallPattern] = []
                for alternative in alternatives { calls.append(try pattern(alternative, isCall: true)) }
                var least = 1
                if let n = count(words.first) {
                    least = n
                    _ = words.popFirst()
                }
                return .call(calls, atLeast: least)
            case "user":
                guard let word = words.popFirst() else { throw fail("user needs an action") }
                let actions = word.text.split(separator: "|").map(String.init)
                for action in actions where !Step.userActions.contains(action) {
                    throw fail("no user action '\(action)' (\(Step.userActions.joined(separator: ", ")))")
                }
                return .user(actions)
            case "clock":
                return .clock(try duration(words.popFirst(), "clock"))
            case "fault":
                let kinds = (words.popFirst()?.text ?? "").split(separator: "|").map(String.init)
                var faults: [Fault] = []
                for kind in kinds {
                    switch kind {
                    case "fail": faults.append(.fail(status: nil))
                    case "down": faults.append(.down)
                    case "silent": faults.append(.silent)
                    case "latency": faults.append(.latency(atLeast: .zero))
                    default: throw fail("fault takes fail, down, silent or latency (KIND|KIND), got '\(kind)'")
                    }
                }
                guard !faults.isEmpty else { throw fail("fault takes fail, down, silent or latency") }
                // One kind may be narrowed: `fault fail 401`, `fault latency 10s+`.
                if faults.count == 1, let word = words.first {
                    if faults[0] == .fail(status: nil), let status = Int(word.text) {
                        _ = words.popFirst()
                        faults = [.fail(status: status)]
                    } else if faults[0] == .latency(atLeast: .zero), word.text.hasSuffix("+") {
                        faults = [.latency(atLeast: try duration(words.popFirst(), "fault latency"))]
                    }
                }
                return .fault(faults)
            case let other:
                throw fail(
                    "a condition is calls N+, selections N+, world FEATURE, call, user, clock or fault (got '\(other ?? "nothing")')"
                )
            }
        }
        func condition() throws(PortError) -> Condition {
            switch words.first?.text {
            case "calls":
                _ = words.popFirst()
                guard let n = count(words.popFirst()) else { throw fail("calls needs a number and + (10+)") }
                return .calls(n)
            case "selections":
                _ = words.popFirst()
                guard let n = count(words.popFirst()) else { throw fail("selections needs a number and + (2+)") }
                return .selections(n)
            case "clock" where words.dropFirst().first?.text == "past-ttl":
                words = words.dropFirst(2)
                return .pastShortestLifetime
            case "world":
                _ = words.popFirst()
                guard let word = words.popFirst(), let feature = ProgramSummary.Feature(rawValue: word.text) else {
                    throw fail(
                        "world needs a feature (\(ProgramSummary.Feature.allCases.map(\.rawValue).joined(separator: ", ")))"
                    )
                }
                return .world(feature)
            default:
                var chain = [try stepCondition()]
                while words.first?.text == "then" {
                    _ = words.popFirst()
                    chain.append(try stepCondition())
                }
                if chain.count > 1, chain.contains(where: { if case .call(_, let n) = $0 { n > 1 } else { false } }) {
                    throw fail("a count (N+) is for a call alone, not in a `then` sequence")
                }
                return .sequence(chain)
            }
        }

        while let clause = words.popFirst() {
            switch clause.text {
            case "expected":
                guard rule.expected == nil else { throw fail("a second expected clause") }
                rule.expected = try patterns("expected")
            case "got":
                guard rule.got == nil else { throw fail("a second got clause") }
                rule.got = try patterns("got")
            case "at":
                guard rule.place == nil else { throw fail("a second at clause") }
                switch words.popFirst()?.text {
                case "end": rule.place = .end
                case "user":
                    let actions = (words.popFirst()?.text ?? "").split(separator: "|").map(String.init)
                    guard !actions.isEmpty, actions.allSatisfy(Step.userActions.contains) else {
                        throw fail("at user needs an action (\(Step.userActions.joined(separator: ", ")))")
                    }
                    rule.place = .user(actions)
                case "call":
                    guard let name = words.popFirst()?.text, Call.Name(rawValue: name) != nil else {
                        throw fail("at call needs a call's name")
                    }
                    rule.place = .call(name)
                default: throw fail("at takes end, user ACTION or call NAME")
                }
            case "when":
                guard rule.conditions.isEmpty else { throw fail("a second when clause (join conditions with and)") }
                rule.conditions.append(try condition())
                while words.first?.text == "and" {
                    _ = words.popFirst()
                    rule.conditions.append(try condition())
                }
            default:
                throw fail("expected expected, got, at, when or because (got '\(clause.text)')")
            }
        }
        guard rule.expected != nil || rule.got != nil || rule.place != nil else {
            throw fail(
                "a differ rule names what differs (expected, got or at): one over a kind of program alone would hide its regressions"
            )
        }
        return rule
    }

    /// The words of `text`, a callback pattern being one word.
    static func split(_ text: String, fail: (String) -> PortError) throws(PortError) -> [Word] {
        var words: [Word] = []
        var current = "", start = 0, depth = 0
        var quoted = false, regex = false, escaped = false
        for (i, c) in text.enumerated() {
            if escaped {
                escaped = false
            } else if c == "\\" && (quoted || regex) {
                escaped = true
            } else if quoted {
                if c == "\"" { quoted = false }
            } else if regex {
                if c == "/" { regex = false }
            } else if c == "\"" {
                quoted = true
            } else if c == "/" && depth > 0 {
                regex = true
            } else if "([{".contains(c) {
                depth += 1
            } else if ")]}".contains(c) {
                depth -= 1
            } else if c == " " || c == "\t", depth == 0 {
                if !current.isEmpty { words.append(Word(text: current, column: start + 1)) }
                current = ""
                continue
            }
            if current.isEmpty { start = i }
            current.append(c)
        }
        guard depth == 0, !quoted, !regex else { throw fail("an unclosed parenthesis, quote or /regex/") }
        if !current.isEmpty { words.append(Word(text: current, column: start + 1)) }
        return words
    }
}
