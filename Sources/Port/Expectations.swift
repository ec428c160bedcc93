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

    /// `differ /REGEX/ reason`: a difference the differential fuzzer (`passim fuzz --port`) already
    /// knows, matched against its first differing line's message; suite runs ignore these.
    public struct KnownDifference: Sendable {
        public var regex: String
        public var reason: String
        public var line: Int

        public func matches(_ message: String) -> Bool {
            guard let r = try? LinearRegex(regex) else { return false }
            return r.matches(in: message)
        }
    }

    public var path: String
    public var rules: [Rule] = []
    public var constants = ConstantMap()
    public var differences: [KnownDifference] = []

    /// The known difference `message` is, if any.
    public func knownDifference(_ message: String) -> KnownDifference? {
        differences.first { $0.matches(message) }
    }

    public init(path: String, rules: [Rule] = [], constants: ConstantMap = ConstantMap()) {
        self.path = path
        self.rules = rules
        self.constants = constants
    }

    public static func load(_ path: String) throws(PortError) -> Expectations {
        guard let data = FileManager.default.contents(atPath: path) else {
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
                let rest = line.dropFirst("differ".count).trimmingCharacters(in: .whitespaces)
                guard rest.hasPrefix("/"), let close = rest.dropFirst().firstIndex(of: "/") else {
                    throw fail("differ needs a /regex/ and a reason")
                }
                let body = String(rest[rest.index(after: rest.startIndex)..<close])
                let reason = rest[rest.index(after: close)...].trimmingCharacters(in: .whitespaces)
                guard !body.isEmpty, (try? LinearRegex(body)) != nil else {
                    throw fail("differ: /\(body)/ is not a regex")
                }
                guard !reason.isEmpty else { throw fail("differ needs a reason after its /regex/") }
                result.differences.append(KnownDifference(regex: body, reason: reason, line: i + 1))
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
                throw fail("unknown directive \(words[0]) (fail, skip, differ or constant)")
            }
        }
        return result
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
