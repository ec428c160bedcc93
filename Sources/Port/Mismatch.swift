import PassModel
import ScenarioSyntax

/// Where a run parted from its scenario, as data: what an expectations file's `differ` rule is a
/// predicate over (docs/EXPECTATIONS.md). The runner's message says the same for a person, and may be
/// reworded without changing what a rule explains.
public struct Mismatch: Sendable, Hashable {
    public enum Kind: String, Sendable, CaseIterable {
        /// A `<` line took a callback it does not match.
        case value
        /// The callback came, at another instant than its `<` line pins.
        case instant
        /// A `<` line found its app's engine idle: its callback never came.
        case missing
        /// A callback no line expected, before a step or left at the end.
        case extra
        /// A step could not be carried out: a user step found no login form, the browser never stopped.
        case step
    }

    /// A `<` line's callback with its `$names` as bound.
    public struct Expected: Sendable, Hashable {
        public var name: String
        /// Nil when the line stands for more than one callback (a `_` or a `/regex/` in it).
        public var arguments: [Callback.Argument]?

        public init(name: String, arguments: [Callback.Argument]?) {
            self.name = name
            self.arguments = arguments
        }
    }

    public var kind: Kind
    /// The `<` line's callback (value, instant, missing).
    public var expected: Expected?
    /// The callback that came (value, instant, extra).
    public var actual: Callback?
    /// The lane: the app (0, the first) whose line or callback it is.
    public var app: Int
    /// The step it happened at; nil at the end of the file.
    public var step: Step?

    public init(kind: Kind, expected: Expected? = nil, actual: Callback? = nil, app: Int = 0, step: Step? = nil) {
        self.kind = kind
        self.expected = expected
        self.actual = actual
        self.app = app
        self.step = step
    }
}

extension Mismatch.Expected {
    /// `pattern`'s callback, each `$name` as `bindings` holds it.
    public init(_ pattern: CallSyntax, bindings: Bindings) {
        var arguments: [Callback.Argument]? = []
        for argument in pattern.arguments {
            guard let value = Matcher.value(of: argument.value, bindings: bindings) else {
                arguments = nil
                break
            }
            arguments?.append(Callback.Argument(value, label: argument.label))
        }
        self.init(name: pattern.name, arguments: arguments)
    }
}
