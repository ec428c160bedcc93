/// A rule's violations as it finds them: the first `kept` in full and the last, the rest only
/// counted. A journal of a million bad calls is a million violations of one rule; holding each (and
/// printing each) made the report, not the judging, what grew with the journal. Past the limit the
/// rule's list says how many it left out, then shows the last one, so a report still shows the
/// first and the last request of every broken rule (docs/LIMITS.md, `lint-violations`).
struct Findings {
    /// `lint-violations`: the violations of one rule a report shows, before its last.
    static let kept = 100

    private(set) var shown: [Violation] = []
    /// Violations found past `kept`, the last one included.
    private(set) var more = 0
    private var last: Violation?

    init() {}

    init<S: Sequence>(_ violations: S) where S.Element == Violation {
        for v in violations { append(v) }
    }

    var isEmpty: Bool { shown.isEmpty }

    mutating func append(_ v: Violation) {
        if shown.count < Findings.kept {
            shown.append(v)
        } else {
            more += 1
            last = v
        }
    }

    /// What the verdict lists: the shown ones, one that counts those left out (with no requests),
    /// then the last.
    var violations: [Violation] {
        guard let last else { return shown }
        guard more > 1 else { return shown + [last] }
        let left = more - 1
        return shown + [
            Violation(
                "… and \(left) more like these (a report shows \(Findings.kept) a rule and its last; limit: lint-violations)",
                [], represents: left),
            last,
        ]
    }
}
