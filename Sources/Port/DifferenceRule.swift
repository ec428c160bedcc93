import PassModel
import ScenarioSyntax

/// `differ KINDS [expected P] [got P] [at STEP] [when CONDITIONS] because REASON`: a difference the
/// fuzzers know (`passim fuzz --parity`, `--port`), as a predicate over a typed `Mismatch` and over a
/// `ProgramSummary` of the program it was met in (docs/EXPECTATIONS.md). It names what differs (a
/// callback expected or got, or the step it happened at), so it never explains every difference of a
/// kind of program.
public struct DifferenceRule: Sendable {
    /// A callback or call: a bare name stands for any arguments.
    public struct CallPattern: Sendable {
        public var name: String
        public var syntax: CallSyntax?
    }

    /// `at STEP`: where the run parted.
    public enum Place: Sendable, Equatable {
        /// `at end`: a callback left when the program ended.
        case end
        /// `at user ACTION|ACTION`.
        case user([String])
        /// `at call NAME`: before that call (a callback nobody expected by then).
        case call(String)
    }

    /// One condition over the program.
    public enum Condition: Sendable {
        /// `calls N+`: at least N calls.
        case calls(Int)
        /// `selections N+`: at least N provider choices, the app's (`setSelectedProvider`) or the user's
        /// in Apple's picker (`user pick`).
        case selections(Int)
        /// `world FEATURE`.
        case world(ProgramSummary.Feature)
        /// `clock past-ttl`: the clock steps add up to the shortest lifetime the world gives (something
        /// can have expired on one wire and not yet on the other).
        case pastShortestLifetime
        /// Step conditions, in this order in the program (`A then B`); a lone `call P N+` counts N of them.
        case sequence([StepCondition])
    }

    public enum StepCondition: Sendable {
        /// `call NAME|NAME` or `call PATTERN`, with `N+` (alone only) the number of such calls.
        case call([CallPattern], atLeast: Int)
        /// `user ACTION|ACTION`.
        case user([String])
        /// `clock D+`: a clock step of at least D.
        case clock(Millis)
        /// `fault KIND|KIND`: a `net` step of one of these kinds (`fail`, `down`, `silent`, `latency`);
        /// `fault fail STATUS`, `fault latency D+` narrow one kind.
        case fault([Fault])
    }

    public enum Fault: Sendable, Equatable {
        case fail(status: Int?)
        case down
        case silent
        case latency(atLeast: Millis)
    }

    public var kinds: Set<Mismatch.Kind>
    public var expected: [CallPattern]?
    public var got: [CallPattern]?
    public var place: Place?
    public var conditions: [Condition]
    public var reason: String
    public var line: Int

    /// Whether it explains `mismatch`, met in the program `program` (nil: unknown, so a rule with
    /// conditions does not apply).
    public func explains(_ mismatch: Mismatch, in program: ProgramSummary?) -> Bool {
        guard kinds.contains(mismatch.kind) else { return false }
        if let expected {
            guard let line = mismatch.expected,
                expected.contains(where: { $0.matches(name: line.name, arguments: line.arguments) })
            else { return false }
        }
        if let got {
            guard let actual = mismatch.actual,
                got.contains(where: { $0.matches(name: actual.name, arguments: actual.arguments) })
            else { return false }
        }
        if let place {
            switch (place, mismatch.step) {
            case (.end, nil): break
            case (.user(let actions), let step?) where step.userAction.map(actions.contains) == true: break
            case (.call(let name), .call(_, let call)?) where call.name == name: break
            default: return false
            }
        }
        guard !conditions.isEmpty else { return true }
        guard let program else { return false }
        return conditions.allSatisfy { $0.holds(in: program) }
    }
}

extension DifferenceRule.CallPattern {
    /// Whether a callback (or call) of this name and these arguments matches; nil arguments (a line
    /// that stands for many callbacks) match a bare name only.
    func matches(name: String, arguments: [Callback.Argument]?) -> Bool {
        guard name == self.name else { return false }
        guard let syntax else { return true }
        guard let arguments else { return false }
        var bindings = Bindings()
        return Matcher.match(syntax, name: name, arguments: arguments, bindings: &bindings)
    }

    /// Whether program step `step` is a call this pattern names: each argument the pattern writes
    /// (by label, else by position) has the value it says; the call may pass others.
    func matches(call step: Step) -> Bool {
        guard case .call(_, let call) = step, call.name == name else { return false }
        guard let syntax else { return true }
        for (i, wanted) in syntax.arguments.enumerated() {
            let passed =
                wanted.label.map { label in call.arguments.first { $0.label == label } }
                ?? (call.arguments.indices.contains(i) ? call.arguments[i] : nil)
            guard let passed, let value = Matcher.value(of: passed.value, bindings: Bindings()) else { return false }
            var bindings = Bindings()
            guard Matcher.match(wanted.value, value, bindings: &bindings) else { return false }
        }
        return true
    }
}

extension DifferenceRule.Condition {
    func holds(in program: ProgramSummary) -> Bool {
        switch self {
        case .calls(let n): return program.callCount >= n
        case .selections(let n): return program.selectionCount >= n
        case .world(let feature): return program.features.contains(feature)
        case .pastShortestLifetime: return program.elapsed >= program.shortestLifetime
        case .sequence(let conditions):
            if conditions.count == 1, case .call(let patterns, let n) = conditions[0] {
                return program.steps.count { step in patterns.contains { $0.matches(call: step) } } >= n
            }
            // Each condition at a step after the previous one's (the earliest such step: greedy is exact).
            var index = program.steps.startIndex
            for condition in conditions {
                guard let found = program.steps[index...].firstIndex(where: condition.holds(at:)) else { return false }
                index = found + 1
            }
            return true
        }
    }
}

extension DifferenceRule.StepCondition {
    func holds(at step: Step) -> Bool {
        switch self {
        case .call(let patterns, _): return patterns.contains { $0.matches(call: step) }
        case .user(let actions): return step.userAction.map(actions.contains) ?? false
        case .clock(let least):
            guard case .clock(let d) = step else { return false }
            return d >= least
        case .fault(let faults):
            guard case .net(_, let action) = step else { return false }
            return faults.contains { fault in
                switch (fault, action) {
                case (.fail(let wanted), .fail(_, _, let status, _, _)):
                    return wanted == nil || wanted == (status ?? 503)
                case (.down, .down), (.silent, .silent): return true
                case (.latency(let least), .latency(let d)): return d >= least
                default: return false
                }
            }
        }
    }
}
