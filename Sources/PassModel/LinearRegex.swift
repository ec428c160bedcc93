/// Why a pattern was refused: a message and the offset (in Unicode scalars) where the problem is.
public struct PatternError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    /// Scalars from the pattern's start to the problem.
    public var offset: Int
    public init(_ message: String, at offset: Int) {
        self.message = message
        self.offset = offset
    }
    public var description: String { message }
}

/// A regular expression matched in time linear in the subject (O(pattern × subject)), for every
/// pattern a user gives: `net … fail /path/`, `POST /admin/net` `"path"`, a scenario's `/regex/`
/// values and `seen` paths, a port's expectations. Swift's `Regex` backtracks: `/(a+)+$/` against
/// 17 a's and a `!` took 2.5 s, doubling with each character, while the server's lock was held
///. This one compiles to a Thompson NFA and runs all its threads in lockstep (a
/// Pike VM without captures), so no subject can make it take more than one pass.
///
/// The language: literals; `.` (any scalar but a line feed); classes `[abc]`, `[^a-z]` with ranges
/// and the escapes below; `\d \D \w \W \s \S`; any other escaped punctuation as itself, and `\n \r \t`;
/// groups `( )`, `(?: )`, `(?<name> )`; `|`; `* + ?` and `{n}`, `{n,}`, `{n,m}` (a trailing `?` or `+`,
/// lazy or possessive, is accepted and changes nothing: only whether the whole subject matches is
/// asked); `^` and `$` as assertions of the subject's start and end. What needs backtracking or is
/// not regular is refused with a clear error: backreferences, lookaround, atomic groups, flags.
/// Counted repetitions are expanded, bounded by `LinearRegex.maxInstructions` (limit: pattern-size).
public struct LinearRegex: Sendable, Hashable {
    /// `pattern-size`: instructions of the compiled program (a counted repetition copies its body).
    public static let maxInstructions = 10_000

    public let pattern: String
    private let program: [Instruction]

    public init(_ pattern: String) throws(PatternError) {
        self.pattern = pattern
        var parser = PatternParser(Array(pattern.unicodeScalars))
        let node = try parser.parse()
        var compiler = PatternCompiler()
        try compiler.emit(node)
        compiler.append(.match)
        program = compiler.program
    }

    /// The most work one scalar of a subject can cost: each instruction is visited at most once per
    /// scalar, a class as many times as it has ranges. Matching a subject of n scalars costs at most
    /// `stepCost × n`, which is what a server bounds before it takes a pattern (`net-pattern-steps`).
    public var stepCost: Int {
        program.reduce(0) { total, instruction in
            if case .set(let set) = instruction { return total + max(set.ranges.count, 1) }
            return total + 1
        }
    }

    /// Whether the whole of `text` matches.
    public func wholeMatch(_ text: String) -> Bool { run(text, search: false) }

    /// Whether some part of `text` matches (a search: a thread starts at every position).
    public func matches(in text: String) -> Bool { run(text, search: true) }

    private func run(_ text: String, search: Bool) -> Bool {
        let count = program.count
        var current: [Int] = []
        var next: [Int] = []
        current.reserveCapacity(count)
        next.reserveCapacity(count)
        // A program counter is added to a step's list at most once: marks[pc] == the step's number.
        var marks = [Int](repeating: -1, count: count)
        var stack: [Int] = []
        var step = 0
        let scalars = Array(text.unicodeScalars)

        // Follows jumps, splits and assertions from `pc` at `position`, adding the instructions that
        // consume a scalar (or match) to `list`. Iterative: a program may be 10,000 instructions long.
        func addThread(_ pc: Int, position: Int, to list: inout [Int]) {
            stack.append(pc)
            while let pc = stack.popLast() {
                guard marks[pc] != step else { continue }
                marks[pc] = step
                switch program[pc] {
                case .jump(let to): stack.append(to)
                case .split(let a, let b):
                    stack.append(b)
                    stack.append(a)
                case .assertStart: if position == 0 { stack.append(pc + 1) }
                case .assertEnd: if position == scalars.count { stack.append(pc + 1) }
                case .scalar, .any, .set, .match: list.append(pc)
                }
            }
        }

        func matched(_ list: [Int]) -> Bool {
            list.contains { if case .match = program[$0] { return true } else { return false } }
        }

        addThread(0, position: 0, to: &current)
        var position = 0
        while true {
            if position == scalars.count || (search && matched(current)) { return matched(current) }
            if current.isEmpty, !search { return false }
            let c = scalars[position]
            step += 1
            next.removeAll(keepingCapacity: true)
            for pc in current {
                let consumes: Bool
                switch program[pc] {
                case .scalar(let s): consumes = s == c
                case .any: consumes = c != "\n"
                case .set(let set): consumes = set.contains(c)
                default: consumes = false
                }
                if consumes { addThread(pc + 1, position: position + 1, to: &next) }
            }
            swap(&current, &next)
            position += 1
            if search { addThread(0, position: position, to: &current) }
        }
    }

    public static func == (a: LinearRegex, b: LinearRegex) -> Bool { a.pattern == b.pattern }
    public func hash(into hasher: inout Hasher) { hasher.combine(pattern) }
}

// MARK: - Parsing

struct ScalarSet: Sendable, Hashable {
    var ranges: [ClosedRange<UInt32>] = []
    var negated = false

    func contains(_ c: Unicode.Scalar) -> Bool {
        let v = c.value
        let inside = ranges.contains { $0.contains(v) }
        return inside != negated
    }

    static let digit = ScalarSet(ranges: [0x30...0x39])
    static let word = ScalarSet(ranges: [0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A])
    static let space = ScalarSet(ranges: [0x09...0x0D, 0x20...0x20])
}

indirect enum PatternNode {
    case empty
    case scalar(Unicode.Scalar)
    case any
    case set(ScalarSet)
    case start
    case end
    case concat([PatternNode])
    case alternation([PatternNode])
    /// `max` nil: unbounded.
    case repeated(PatternNode, min: Int, max: Int?)
}

/// Recursive descent over the pattern; groups nest at most `maxDepth` deep, so the recursion (here
/// and in the compiler) is bounded whatever the pattern.
struct PatternParser {
    static let maxDepth = 64
    private let s: [Unicode.Scalar]
    private var i = 0
    private var depth = 0

    init(_ s: [Unicode.Scalar]) { self.s = s }

    mutating func parse() throws(PatternError) -> PatternNode {
        let node = try alternation()
        if i < s.count {
            // Only an unmatched `)` stops `alternation` early.
            throw PatternError("unmatched ')'", at: i)
        }
        return node
    }

    private mutating func alternation() throws(PatternError) -> PatternNode {
        var branches = [try concatenation()]
        while i < s.count, s[i] == "|" {
            i += 1
            branches.append(try concatenation())
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    private mutating func concatenation() throws(PatternError) -> PatternNode {
        var items: [PatternNode] = []
        while i < s.count, s[i] != "|", s[i] != ")" {
            var atom = try self.atom()
            atom = try quantified(atom)
            items.append(atom)
        }
        return items.isEmpty ? .empty : items.count == 1 ? items[0] : .concat(items)
    }

    private mutating func quantified(_ atom: PatternNode) throws(PatternError) -> PatternNode {
        var node = atom
        var quantifiers = 0
        while i < s.count {
            let at = i
            var bounds: (Int, Int?)
            switch s[i] {
            case "*": bounds = (0, nil); i += 1
            case "+": bounds = (1, nil); i += 1
            case "?": bounds = (0, 1); i += 1
            case "{":
                guard let b = try braces() else { return node }
                bounds = b
            default: return node
            }
            quantifiers += 1
            if quantifiers > 1 { throw PatternError("a quantifier cannot follow another quantifier", at: at) }
            if case .start = node { throw PatternError("nothing to repeat before '\(s[at])'", at: at) }
            if case .end = node { throw PatternError("nothing to repeat before '\(s[at])'", at: at) }
            // Lazy (`*?`) and possessive (`*+`) forms match the same whole subjects.
            if i < s.count, s[i] == "?" || s[i] == "+" { i += 1 }
            node = .repeated(node, min: bounds.0, max: bounds.1)
        }
        return node
    }

    /// `{n}`, `{n,}`, `{n,m}` at `i`; nil (nothing consumed) when the brace is a literal.
    private mutating func braces() throws(PatternError) -> (Int, Int?)? {
        let start = i
        var j = i + 1
        func number(_ j: inout Int) -> Int? {
            var v = 0
            var digits = 0
            while j < s.count, (48...57).contains(s[j].value) {
                // Capped: a bound past the program's size fails at compile time anyway.
                v = min(v * 10 + Int(s[j].value - 48), 1_000_000)
                digits += 1
                j += 1
            }
            return digits > 0 ? v : nil
        }
        guard let low = number(&j) else { return nil }
        var high: Int? = low
        if j < s.count, s[j] == "," {
            j += 1
            high = number(&j)
        }
        guard j < s.count, s[j] == "}" else { return nil }
        i = j + 1
        if let high, high < low { throw PatternError("repetition {\(low),\(high)} has its bounds reversed", at: start) }
        return (low, high)
    }

    private mutating func atom() throws(PatternError) -> PatternNode {
        let at = i
        let c = s[i]
        i += 1
        switch c {
        case ".": return .any
        case "^": return .start
        case "$": return .end
        case "*", "+", "?": throw PatternError("nothing to repeat before '\(c)'", at: at)
        case "[": return .set(try characterClass(openedAt: at))
        case "\\": return try escape(at: at, inClass: false).node
        case "(":
            if i < s.count, s[i] == "?" {
                // Only non-capturing and named groups: the rest (lookaround, atomic groups, flags,
                // conditionals) need backtracking or change the language.
                if i + 1 < s.count, s[i + 1] == ":" {
                    i += 2
                } else if i + 2 < s.count, s[i + 1] == "<", s[i + 2] != "=", s[i + 2] != "!" {
                    var j = i + 2
                    while j < s.count, s[j] != ">" { j += 1 }
                    guard j < s.count else { throw PatternError("unterminated group name", at: at) }
                    i = j + 1
                } else {
                    throw PatternError(
                        "'(?' constructs other than (?:…) and (?<name>…) are not supported "
                            + "(lookaround, atomic groups and flags need backtracking)", at: at)
                }
            }
            depth += 1
            guard depth <= PatternParser.maxDepth else {
                throw PatternError(
                    "groups nested deeper than \(PatternParser.maxDepth) levels (limit: pattern-size)", at: at)
            }
            let inner = try alternation()
            depth -= 1
            guard i < s.count, s[i] == ")" else { throw PatternError("unmatched '('", at: at) }
            i += 1
            return inner
        case ")": throw PatternError("unmatched ')'", at: at)
        default: return .scalar(c)
        }
    }

    private enum Escaped {
        case scalar(Unicode.Scalar)
        case set(ScalarSet)
        case node(PatternNode)

        var node: PatternNode {
            switch self {
            case .scalar(let c): return .scalar(c)
            case .set(let set): return .set(set)
            case .node(let n): return n
            }
        }
    }

    /// After a backslash at `at`.
    private mutating func escape(at: Int, inClass: Bool) throws(PatternError) -> Escaped {
        guard i < s.count else { throw PatternError("the pattern ends with a lone '\\'", at: at) }
        let c = s[i]
        i += 1
        func negated(_ set: ScalarSet) -> ScalarSet { ScalarSet(ranges: set.ranges, negated: true) }
        switch c {
        case "d": return .set(.digit)
        case "D": return .set(negated(.digit))
        case "w": return .set(.word)
        case "W": return .set(negated(.word))
        case "s": return .set(.space)
        case "S": return .set(negated(.space))
        case "n": return .scalar("\n")
        case "r": return .scalar("\r")
        case "t": return .scalar("\t")
        case "A" where !inClass: return .node(.start)
        case "z" where !inClass, "Z" where !inClass: return .node(.end)
        default:
            if c.isASCII, c.properties.isAlphabetic || ("0"..."9").contains(c) {
                throw PatternError(
                    "escape '\\\(c)' is not supported (backreferences and other escapes "
                        + "need backtracking or are not in this pattern language)", at: at)
            }
            return .scalar(c)
        }
    }

    private mutating func characterClass(openedAt at: Int) throws(PatternError) -> ScalarSet {
        var set = ScalarSet()
        if i < s.count, s[i] == "^" {
            set.negated = true
            i += 1
        }
        var first = true
        while true {
            guard i < s.count else { throw PatternError("unterminated character class '['", at: at) }
            let c = s[i]
            if c == "]", !first {
                i += 1
                return set
            }
            first = false
            let itemAt = i
            i += 1
            var low: Unicode.Scalar
            if c == "\\" {
                switch try escape(at: itemAt, inClass: true) {
                case .scalar(let e): low = e
                case .set(let inner):
                    guard !inner.negated else {
                        throw PatternError("a negated escape (\\D, \\W, \\S) inside [...] is not supported", at: itemAt)
                    }
                    set.ranges += inner.ranges
                    continue
                case .node: throw PatternError("escape not allowed inside [...]", at: itemAt)
                }
            } else if c == "[", i < s.count, s[i] == ":" {
                throw PatternError("POSIX classes [:name:] are not supported", at: itemAt)
            } else {
                low = c
            }
            // A range `a-z`, unless the `-` is last.
            if i + 1 < s.count, s[i] == "-", s[i + 1] != "]" {
                i += 1
                var high = s[i]
                let highAt = i
                i += 1
                if high == "\\" {
                    guard case .scalar(let e) = try escape(at: highAt, inClass: true) else {
                        throw PatternError("a range cannot end in a class escape", at: highAt)
                    }
                    high = e
                }
                guard low.value <= high.value else {
                    throw PatternError("range \(low)-\(high) has its bounds reversed", at: itemAt)
                }
                set.ranges.append(low.value...high.value)
            } else {
                set.ranges.append(low.value...low.value)
            }
        }
    }
}

// MARK: - Compiling

enum Instruction: Sendable, Hashable {
    case scalar(Unicode.Scalar)
    case any
    case set(ScalarSet)
    case jump(Int)
    /// Try both; the order does not matter for a yes/no whole match.
    case split(Int, Int)
    case assertStart
    case assertEnd
    case match
}

struct PatternCompiler {
    var program: [Instruction] = []

    mutating func append(_ instruction: Instruction) { program.append(instruction) }

    private mutating func reserve() throws(PatternError) -> Int {
        guard program.count < LinearRegex.maxInstructions else {
            throw PatternError(
                "pattern too large once its repetitions are expanded: over "
                    + "\(LinearRegex.maxInstructions) instructions (limit: pattern-size)", at: 0)
        }
        program.append(.match)
        return program.count - 1
    }

    mutating func emit(_ node: PatternNode) throws(PatternError) {
        switch node {
        case .empty: break
        case .scalar(let c): program[try reserve()] = .scalar(c)
        case .any: program[try reserve()] = .any
        case .set(let set): program[try reserve()] = .set(set)
        case .start: program[try reserve()] = .assertStart
        case .end: program[try reserve()] = .assertEnd
        case .concat(let items):
            for item in items { try emit(item) }
        case .alternation(let branches):
            // split L1, next; L1: branch; jump end; ... last branch; end:
            var jumps: [Int] = []
            for (k, branch) in branches.enumerated() {
                if k < branches.count - 1 {
                    let split = try reserve()
                    try emit(branch)
                    jumps.append(try reserve())
                    program[split] = .split(split + 1, program.count)
                } else {
                    try emit(branch)
                }
            }
            for j in jumps { program[j] = .jump(program.count) }
        case .repeated(let body, let min, let max):
            for _ in 0..<min { try emit(body) }
            if let max {
                // Each optional copy: split into it or past the rest.
                var splits: [Int] = []
                for _ in min..<max {
                    let split = try reserve()
                    splits.append(split)
                    try emit(body)
                }
                for split in splits { program[split] = .split(split + 1, program.count) }
            } else {
                // loop: split body, end; body; jump loop
                let loop = try reserve()
                try emit(body)
                let back = try reserve()
                program[back] = .jump(loop)
                program[loop] = .split(loop + 1, program.count)
            }
        }
    }
}

extension LinearRegex {
    /// `text` as a pattern that matches exactly it: every character with a meaning in a pattern escaped.
    public static func escaped(_ text: String) -> String {
        var out = ""
        for c in text {
            if ".*+?()[]{}|^$\\/".contains(c) { out.append("\\") }
            out.append(c)
        }
        return out
    }
}
