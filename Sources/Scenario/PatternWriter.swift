import PassModel
import ScenarioSyntax

/// Writes a delivered callback as a `<` line that replays: the canonical text, except for values
/// that are volatile by nature, which become patterns or `$` bindings.
///
/// The rule (docs/RUNNING.md, "Recording"):
/// - a media token (`setToken`'s first argument) → `$token1`, `$token2`, … one name per distinct value;
/// - a tracking GUID (32 hex digits in `sendTrackingData`'s array) → `$guid`, `$guid2`, …;
/// - a registration code (`status(REGCODE, code)`) → `$code`, `$code2`, …;
/// - a URL with a query (`navigateToUrl`) → `/scheme:\/\/host\/path\?.*/` (the query carries
///   nonces, session ids and long encoded parameters); a URL without one stays a literal string;
/// - a value the file binds to a `$name` used by a call or `browser at` → that `$name`;
/// - everything else exactly as the canonical text prints it (constants by symbol, MVPD ids, resources).
/// The same value gets the same name: the first line that writes it binds it, later lines compare.
struct PatternWriter {
    /// Every `$name` the file writes: never generated, so a new name cannot clash with one the file binds.
    let taken: Set<String>
    /// `$names` used by steps other than `<` (calls, `browser at`): their values keep their name.
    let reserved: Set<String>
    /// The MVPD ids the world declares: another id (a configuration an `answer` injected) is written
    /// as a string, since a bare name must be one the world declares.
    let declaredMVPDs: Set<String>
    private var generated: [Value: String] = [:]
    private var generatedNames: Set<String> = []

    init(file: ScenarioFile) {
        declaredMVPDs = Set(file.mvpds.map(\.id))
        var taken: Set<String> = []
        var reserved: Set<String> = []
        for step in file.steps {
            let names = PatternWriter.bindingNames(in: step.value)
            taken.formUnion(names)
            if case .expect = step.value { continue }
            reserved.formUnion(names)
        }
        self.taken = taken
        self.reserved = reserved
    }

    enum Volatile {
        case token, guid, code, url

        var base: String {
            switch self {
            case .token: return "token"
            case .guid: return "guid"
            case .code: return "code"
            case .url: return "url"
            }
        }

        /// Tokens are numbered from 1 (there are often several); the others start unnumbered.
        var firstNumber: Int { self == .token ? 1 : 0 }
    }

    mutating func text(for callback: Callback, bindings: Bindings) -> String {
        let arguments = callback.arguments
        var parts: [String] = []
        for (index, argument) in arguments.enumerated() {
            let label = argument.label.map { $0 + ": " } ?? ""
            if let symbol = argument.symbol {
                parts.append(label + symbol)
                continue
            }
            let kind = PatternWriter.volatileKind(callback, index, arguments)
            parts.append(label + render(argument.value, kind, bindings: bindings))
        }
        return callback.name + "(" + parts.joined(separator: ", ") + ")"
    }

    /// Where a callback carries a volatile value (see the type's comment).
    static func volatileKind(_ callback: Callback, _ index: Int, _ arguments: [Callback.Argument]) -> Volatile? {
        switch (callback, index) {
        case (.setToken, 0): return .token
        case (.navigateToUrl, 0): return .url
        case (.sendTrackingData, 1): return .guid
        case (.status(StatusCode.registrationCode, _), 1): return .code
        default: return nil
        }
    }

    mutating func render(_ value: Value, _ kind: Volatile?, bindings: Bindings) -> String {
        if let name = reservedName(for: value, bindings: bindings) { return "$" + name }
        switch value {
        case .string(let s):
            switch kind {
            case .url?:
                guard let query = s.firstIndex(of: "?") else { return value.description }
                return "/" + PatternWriter.regexEscaped(String(s[..<query])) + "\\?.*/"
            case .guid?:
                guard PatternWriter.isGUID(s) else { return value.description }
                return "$" + name(for: value, .guid, bindings: bindings)
            case .token?, .code?:
                return "$" + name(for: value, kind ?? .token, bindings: bindings)
            case nil:
                return value.description
            }
        case .list(let items):
            var out: [String] = []
            for item in items { out.append(render(item, kind, bindings: bindings)) }
            return "[" + out.joined(separator: ", ") + "]"
        case .dict(let entries):
            var out: [String] = []
            for entry in entries {
                out.append(Value.key(entry.key) + ": " + render(entry.value, nil, bindings: bindings))
            }
            return "{" + out.joined(separator: ", ") + "}"
        case .mvpd(let m) where !declaredMVPDs.contains(m.id):
            return Value.quote(m.id)
        case .null, .bool, .int, .mvpd:
            return value.description
        }
    }

    /// A `$name` the file needs for a later call or `browser at`, bound to exactly this value.
    func reservedName(for value: Value, bindings: Bindings) -> String? {
        reserved.sorted().first { bindings[$0] == value }
    }

    /// The name a volatile value is written as: one the file already bound to it, one given to it
    /// before, or a fresh one.
    mutating func name(for value: Value, _ kind: Volatile, bindings: Bindings) -> String {
        if let bound = bindings.values.keys.sorted().first(where: { bindings[$0] == value }) { return bound }
        if let name = generated[value] { return name }
        var number = kind.firstNumber
        var name: String
        repeat {
            name = number == 0 ? kind.base : kind.base + String(number)
            number += number == 0 ? 2 : 1
        } while taken.contains(name) || generatedNames.contains(name) || bindings[name] != nil
        generated[value] = name
        generatedNames.insert(name)
        return name
    }

    static func isGUID(_ s: String) -> Bool {
        s.utf8.count == 32
            && s.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) || ($0 >= 65 && $0 <= 70) }
    }

    /// A literal as a regex body inside `/…/`: metacharacters and the slash escaped.
    static func regexEscaped(_ s: String) -> String {
        var out = ""
        for scalar in s.unicodeScalars {
            if "\\.*+?()[]{}|^$/".unicodeScalars.contains(scalar) { out += "\\" }
            out.unicodeScalars.append(scalar)
        }
        return out
    }

    static func bindingNames(in step: Step) -> Set<String> {
        var names: Set<String> = []
        func visit(_ v: ValueSyntax) {
            switch v {
            case .binding(let n): names.insert(n)
            case .list(let items): items.forEach(visit)
            case .dict(let entries): entries.forEach { visit($0.value) }
            case .mvpd(_, let fields): fields.forEach { visit($0.value) }
            default: break
            }
        }
        switch step {
        case .call(_, let call), .expect(_, let call, _): call.arguments.forEach { visit($0.value) }
        case .browserAt(let pattern): visit(pattern)
        default: break
        }
        return names
    }
}
