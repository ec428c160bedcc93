/// A rule's violations as it finds them: the first `kept` in full, the rest only counted. A journal
/// of a million bad calls is a million violations of one rule; holding each (and printing each) made
/// the report, not the judging, what grew with the journal. Past the limit the report ends the
/// rule's list with one line saying how many more there were (docs/LIMITS.md, `lint-violations`).
struct Findings {
    /// `lint-violations`: the violations of one rule a report shows.
    static let kept = 100

    private(set) var shown: [Violation] = []
    /// Violations found past `kept`.
    private(set) var more = 0

    init() {}

    init<S: Sequence>(_ violations: S) where S.Element == Violation {
        for v in violations { append(v) }
    }

    var isEmpty: Bool { shown.isEmpty }

    mutating func append(_ v: Violation) {
        if shown.count < Findings.kept { shown.append(v) } else { more += 1 }
    }

    /// What the verdict lists: the shown ones, then one that counts the rest (with no requests).
    var violations: [Violation] {
        guard more > 0 else { return shown }
        return shown + [
            Violation(
                "… and \(more) more like these (a report shows \(Findings.kept) a rule; limit: lint-violations)", [])
        ]
    }
}
