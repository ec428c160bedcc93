import Foundation
import PassModel

/// A port's expectations file (`--expect FILE`, docs/PORTING.md): scenarios expected to fail or to be
/// skipped, each with its reason, and the port's own values of constants.
public struct Expectations: Sendable {
    public enum Kind: String, Sendable {
        case fail
        case skip
    }

    public struct Rule: Sendable {
        public var kind: Kind
        public var pattern: String
        public var reason: String
        public var line: Int
    }

    /// `parity timing reason`: for the parity fuzzer (`passim fuzz --parity`), a callback may come at
    /// another instant on the other wire (its requests are another number of round trips), so long as
    /// the same callbacks come in the same order: a program whose first difference is an instant is
    /// compared again with its `<` lines unpinned.
    public struct ParityTiming: Sendable {
        public var reason: String
        public var line: Int
    }

    /// `timing N reason`: a `<` line's pinned instant (`at T`) also holds when the callback comes
    /// within N round trips of T, a round trip being the longest one the scenario's world gives a host
    /// (`ScenarioFile.longestRoundTrip`). For a wire that sends another number of requests for one call
    /// (REST API v2): the callbacks, their order and their values are checked as written.
    public struct Timing: Sendable {
        public var roundTrips: Int
        public var reason: String
        public var line: Int
    }

    /// `equivalent /EXPECTED/ /ACTUAL/ reason`: a `<` line whose text matches EXPECTED is satisfied
    /// by a callback whose text matches ACTUAL. A difference a wire makes by design, written once
    /// (the REST API v2 expectations file), not scenario by scenario.
    ///
    /// `equivalent /EXPECTED/ /ACTUAL/ after /PREVIOUS/ reason`: only where the callback the app took
    /// just before matches PREVIOUS, which tells what the wire answers (an Apple SSO profile's logout,
    /// announced by `status(VSA203)`, opens no page on REST API v2).
    public struct Equivalence: Sendable {
        public var expected: LinearRegex
        public var actual: LinearRegex
        public var after: LinearRegex?
        public var reason: String
        public var line: Int

        /// Whether it lets callback text `actual` satisfy line text `expected`, the app's previous
        /// callback being `previous` (nil: none, or unknown).
        public func applies(expected: String, actual: String, previous: String?) -> Bool {
            guard self.expected.matches(in: expected), self.actual.matches(in: actual) else { return false }
            guard let after else { return true }
            return previous.map { after.matches(in: $0) } ?? false
        }
    }

    /// `mask /REGEX/ reason`: what a wire writes its own way inside a callback (a GUID it derives
    /// from another session id): a `<` line written out in full is satisfied by a callback that
    /// differs from it only in text matching REGEX.
    ///
    /// `mask /EXPECTED/ as /ACTUAL/ reason`: the same, one way: where the line's text matches
    /// EXPECTED, the callback's may hold what matches ACTUAL instead (tracking's cached "true" that
    /// the wire always reports "false"). A callback that says EXPECTED where the line says ACTUAL
    /// still fails, so the wire's own value stays checked.
    public struct Mask: Sendable {
        public var regex: LinearRegex
        /// `(?:regex).*`: whether a match starts at a position, in one pass (`masked`).
        var startsHere: LinearRegex
        /// The callback's side of a one-way mask, with its own `startsHere`; nil: `regex` on both.
        public var actual: LinearRegex?
        var actualStartsHere: LinearRegex?
        public var reason: String
        public var line: Int

        /// `(?:regex).*`, nil when it does not compile.
        static func startsHere(_ regex: LinearRegex) -> LinearRegex? { try? LinearRegex("(?:" + regex.pattern + ").*") }

        /// A one-way mask's regexes for the callback's side, else the line's.
        func side(actual isActual: Bool) -> (regex: LinearRegex, startsHere: LinearRegex) {
            if isActual, let actual, let actualStartsHere { return (actual, actualStartsHere) }
            return (regex, startsHere)
        }
    }

    public var path: String
    public var rules: [Rule] = []
    public var masks: [Mask] = []
    public var equivalences: [Equivalence] = []
    public var constants = ConstantMap()
    /// `differ …` (DifferenceRule): what the fuzzers know may differ; suite runs ignore these.
    public var differences: [DifferenceRule] = []
    /// `parity mask /REGEX/ reason`: a `mask` the parity fuzzer applies and suite runs do not (a value
    /// a generated program meets in any form, such as an expiry `getMetadata` reports, where a suite
    /// scenario pins it on purpose).
    public var parityMasks: [Mask] = []
    public var parityTimings: [ParityTiming] = []
    /// At most one (the parser refuses a second): the tolerance of a pinned instant.
    public var timing: Timing?

    /// The first `differ` rule that explains `mismatch`, met in `program` (nil: unknown), if any.
    public func knownDifference(_ mismatch: Mismatch, in program: ProgramSummary?) -> DifferenceRule? {
        differences.first { $0.explains(mismatch, in: program) }
    }

    /// The rules the parity fuzzer compares with: the parity masks before the file's own (a parity
    /// mask reads the text as the wire wrote it, before a file mask rewrote part of it).
    public var forParity: Expectations {
        var e = self
        e.masks = parityMasks + masks
        return e
    }

    /// This file's rules followed by `other`'s (`--expect` given twice): the first match wins, so
    /// this file's come first.
    public func merged(with other: Expectations) -> Expectations {
        var e = self
        e.path += ", " + other.path
        e.rules += other.rules
        e.masks += other.masks
        e.equivalences += other.equivalences
        e.differences += other.differences
        e.parityMasks += other.parityMasks
        e.parityTimings += other.parityTimings
        e.timing = timing ?? other.timing
        e.constants.merge(other.constants)
        return e
    }

    public init(path: String, rules: [Rule] = [], constants: ConstantMap = ConstantMap()) {
        self.path = path
        self.rules = rules
        self.constants = constants
    }

    public static func load(_ path: String) throws(PortError) -> Expectations {
        // Read as a stream, so what is not a regular file reads too (`--expect /dev/null`: no rules).
        guard let handle = FileHandle(forReadingAtPath: path), let data = try? handle.readToEnd() ?? Data() else {
            throw PortError("\(path): cannot read the expectations file")
        }
        return try parse(String(decoding: data, as: UTF8.self), path: path)
    }

    public static func parse(_ text: String, path: String) throws(PortError) -> Expectations {
        var result = Expectations(path: path)
        for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            func fail(_ message: String) -> PortError { PortError("\(path):\(i + 1): \(message)\n  \(line)") }
            let words = line.split(maxSplits: 2, whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            switch words[0] {
            case "fail", "skip":
                guard words.count == 3 else { throw fail("\(words[0]) needs a pattern and a reason") }
                guard Expectations.isValid(pattern: words[1]) else {
                    throw fail(
                        "a pattern is a path relative to the suite folder, without .scenario, with * and ** (got \(words[1]))"
                    )
                }
                result.rules.append(
                    Rule(
                        kind: words[0] == "fail" ? .fail : .skip, pattern: words[1],
                        reason: words[2].trimmingCharacters(in: .whitespaces), line: i + 1))
            case "differ":
                result.differences.append(try DifferenceRule.parse(line, number: i + 1, path: path))
            case "parity":
                var rest = Substring(line.dropFirst(words[0].count)).drop { $0 == " " || $0 == "\t" }
                let kind = rest.prefix { $0 != " " && $0 != "\t" }
                rest = rest.dropFirst(kind.count).drop { $0 == " " || $0 == "\t" }
                switch kind {
                case "mask":
                    guard let regex = Expectations.takeRegex(&rest) else { throw fail("parity mask needs a /regex/") }
                    let reason = rest.trimmingCharacters(in: .whitespaces)
                    guard !reason.isEmpty else { throw fail("parity mask needs a reason after its /regex/") }
                    guard let startsHere = Mask.startsHere(regex) else {
                        throw fail("parity mask: /\(regex.pattern)/ cannot be searched")
                    }
                    result.parityMasks.append(Mask(regex: regex, startsHere: startsHere, reason: reason, line: i + 1))
                case "timing":
                    let reason = rest.trimmingCharacters(in: .whitespaces)
                    guard !reason.isEmpty else { throw fail("parity timing needs a reason") }
                    result.parityTimings.append(ParityTiming(reason: reason, line: i + 1))
                default:
                    throw fail("parity takes mask /regex/ reason or timing reason (got '\(kind)')")
                }
            case "timing":
                guard words.count == 3, let n = Int(words[1]), (1...9).contains(n) else {
                    throw fail("timing needs a number of round trips (1 to 9) and a reason")
                }
                if let first = result.timing { throw fail("a second timing line (the first is line \(first.line))") }
                result.timing = Timing(
                    roundTrips: n, reason: words[2].trimmingCharacters(in: .whitespaces), line: i + 1)
            case "mask":
                var rest = Substring(line.dropFirst(words[0].count)).drop { $0 == " " || $0 == "\t" }
                guard let regex = Expectations.takeRegex(&rest) else { throw fail("mask needs a /regex/") }
                var actual: LinearRegex?
                if Expectations.takeKeyword("as", &rest) {
                    guard let other = Expectations.takeRegex(&rest) else {
                        throw fail("mask: as needs the callback's /regex/")
                    }
                    actual = other
                }
                let reason = rest.trimmingCharacters(in: .whitespaces)
                guard !reason.isEmpty else { throw fail("mask needs a reason after its /regex/") }
                let actualStartsHere = actual.flatMap(Mask.startsHere)
                guard let startsHere = Mask.startsHere(regex) else {
                    throw fail("mask: /\(regex.pattern)/ cannot be searched")
                }
                if let actual, actualStartsHere == nil { throw fail("mask: /\(actual.pattern)/ cannot be searched") }
                result.masks.append(
                    Mask(
                        regex: regex, startsHere: startsHere, actual: actual, actualStartsHere: actualStartsHere,
                        reason: reason, line: i + 1))
            case "request", "field":
                // The operations table (PassModel's WireOperation) says what a request is on each wire.
                throw fail(
                    "\(words[0]) rules are gone: a scenario names an operation (`seen SP authorize with resource=\"R1\"`, "
                        + "`net SP fail 1 authorize`), which each wire resolves (SCENARIO-FORMAT.md)")
            case "equivalent":
                var rest = Substring(line.dropFirst(words[0].count)).drop { $0 == " " || $0 == "\t" }
                guard let first = Expectations.takeRegex(&rest) else { throw fail("\(words[0]) needs a /regex/ first") }
                rest = rest.drop { $0 == " " || $0 == "\t" }
                guard let second = Expectations.takeRegex(&rest) else {
                    throw fail("equivalent needs a second /regex/")
                }
                var after: LinearRegex?
                if Expectations.takeKeyword("after", &rest) {
                    guard let previous = Expectations.takeRegex(&rest) else {
                        throw fail("equivalent: after needs the previous callback's /regex/")
                    }
                    after = previous
                }
                let reason = rest.trimmingCharacters(in: .whitespaces)
                guard !reason.isEmpty else { throw fail("equivalent needs a reason after its patterns") }
                result.equivalences.append(
                    Equivalence(expected: first, actual: second, after: after, reason: reason, line: i + 1))
            case "constant":
                guard words.count == 3 else { throw fail("constant needs a symbol and a JSON value") }
                let value: Value
                do {
                    value = try Value(jsonText: words[2].trimmingCharacters(in: .whitespaces))
                } catch {
                    throw fail("the value must be a JSON string or number: \(error.message)")
                }
                do {
                    try result.constants.add(symbol: words[1], portValue: value)
                } catch {
                    throw fail(error.message)
                }
            default:
                throw fail(
                    "unknown directive \(words[0]) (fail, skip, differ, constant, mask, equivalent, timing or parity)"
                )
            }
        }
        return result
    }

    /// Whether `text`, its leading blanks dropped, starts with the word `keyword` (`when`, `as`,
    /// `after`): then the word and the blanks after it are taken off too, leaving what it introduces.
    static func takeKeyword(_ keyword: String, _ text: inout Substring) -> Bool {
        text = text.drop { $0 == " " || $0 == "\t" }
        guard text.hasPrefix(keyword + " ") || text.hasPrefix(keyword + "\t") else { return false }
        text = text.dropFirst(keyword.count).drop { $0 == " " || $0 == "\t" }
        return true
    }

    /// A `/regex/` at the start of `text` (a `\/` inside is a slash of the regex), taken off it; nil
    /// when there is none or it does not compile.
    static func takeRegex(_ text: inout Substring) -> LinearRegex? {
        guard text.first == "/" else { return nil }
        var body = ""
        var index = text.index(after: text.startIndex)
        while index < text.endIndex {
            let c = text[index]
            if c == "\\", text.index(after: index) < text.endIndex {
                body.append(c)
                index = text.index(after: index)
                body.append(text[index])
            } else if c == "/" {
                text = text[text.index(after: index)...]
                return body.isEmpty ? nil : try? LinearRegex(body)
            } else {
                body.append(c)
            }
            index = text.index(after: index)
        }
        return nil
    }

    /// Whether callback text `actual` satisfies the `<` line whose text is `expected` by an
    /// `equivalent` rule or the masks, the app's previous callback being `previous`.
    public func equivalent(expected: String, actual: String, previous: String? = nil) -> Bool {
        if equivalences.contains(where: { $0.applies(expected: expected, actual: actual, previous: previous) }) {
            return true
        }
        guard !masks.isEmpty else { return false }
        let both = masked(expected: expected, actual: actual)
        return both.expected == both.actual
    }

    /// Both texts with every leftmost-longest match of each `mask` replaced by `…`: a mask in each
    /// text it matches; a one-way mask (`as`) only when its line's regex matches `expected` and its
    /// callback's regex matches `actual`, each in its own text.
    func masked(expected: String, actual: String) -> (expected: String, actual: String) {
        var line = Array(expected.unicodeScalars), callback = Array(actual.unicodeScalars)
        for mask in masks {
            let lineSide = mask.side(actual: false), callbackSide = mask.side(actual: true)
            let inLine = lineSide.regex.matches(in: Self.string(line[...]))
            let inCallback = callbackSide.regex.matches(in: Self.string(callback[...]))
            guard mask.actual == nil || (inLine && inCallback) else { continue }
            if inLine { line = Self.replacing(line, lineSide) }
            if inCallback { callback = Self.replacing(callback, callbackSide) }
        }
        return (Self.string(line[...]), Self.string(callback[...]))
    }

    /// `text` with every leftmost-longest match of `regex` replaced by `…`. A position is tried as a
    /// match's end only where one starts (`startsHere`, one pass each): the suite on v2 asks this of
    /// every tracking line.
    private static func replacing(
        _ scalars: [Unicode.Scalar], _ side: (regex: LinearRegex, startsHere: LinearRegex)
    ) -> [Unicode.Scalar] {
        var out: [Unicode.Scalar] = []
        var i = 0
        while i < scalars.count {
            let end =
                side.startsHere.wholeMatch(string(scalars[i...]))
                ? (i + 1...scalars.count).reversed().first { side.regex.wholeMatch(string(scalars[i..<$0])) } : nil
            if let end {
                out.append("…")
                i = end
            } else {
                out.append(scalars[i])
                i += 1
            }
        }
        return out
    }

    private static func string(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }

    /// The first rule that matches the scenario file at `scenarioPath`.
    public func rule(for scenarioPath: String) -> Rule? {
        rules.first { Expectations.matches($0.pattern, scenarioPath) }
    }

    /// Rules that match none of `paths` (worth a warning: a stale line).
    public func unused(among paths: [String]) -> [Rule] {
        rules.filter { rule in !paths.contains { Expectations.matches(rule.pattern, $0) } }
    }

    static func isValid(pattern: String) -> Bool {
        !pattern.isEmpty && !pattern.hasPrefix("/") && !pattern.hasSuffix(".scenario")
            && !pattern.split(separator: "/", omittingEmptySubsequences: false).contains {
                $0.isEmpty || $0 == "." || $0 == ".."
            }
    }

    /// The pattern matches the trailing path components of the file (extension dropped): `authn/*`
    /// matches `Scenarios/authn/classic-login.scenario`; `**` spans any number of components.
    static func matches(_ pattern: String, _ path: String) -> Bool {
        var trimmed = path
        if trimmed.hasSuffix(".scenario") { trimmed.removeLast(".scenario".count) }
        let parts = trimmed.split(separator: "/").map(String.init)
        let pat = pattern.split(separator: "/").map(String.init)
        return parts.indices.contains { start in match(pat[...], parts[start...]) } || (parts.isEmpty && pat == ["**"])
    }

    private static func match(_ pat: ArraySlice<String>, _ parts: ArraySlice<String>) -> Bool {
        guard let first = pat.first else { return parts.isEmpty }
        if first == "**" {
            return parts.indices.contains { match(pat.dropFirst(), parts[$0...]) }
                || match(pat.dropFirst(), parts[parts.endIndex...])
        }
        guard let part = parts.first, glob(first, part) else { return false }
        return match(pat.dropFirst(), parts.dropFirst())
    }

    /// `*` matches any run of characters within one component.
    static func glob(_ pattern: String, _ text: String) -> Bool {
        let p = Array(pattern), t = Array(text)
        var pi = 0, ti = 0, star = -1, mark = 0
        while ti < t.count {
            if pi < p.count, p[pi] == t[ti] {
                pi += 1; ti += 1
            } else if pi < p.count, p[pi] == "*" {
                star = pi; mark = ti; pi += 1
            } else if star >= 0 {
                pi = star + 1; mark += 1; ti = mark
            } else {
                return false
            }
        }
        while pi < p.count, p[pi] == "*" { pi += 1 }
        return pi == p.count
    }
}
