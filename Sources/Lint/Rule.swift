/// How binding a rule is: Adobe's checklist says "Mandatory Requirements" and "Recommended Practices".
public enum Severity: String, Hashable, Sendable, CaseIterable {
    case mandatory, recommended
}

/// The kind of client a rule applies to (docs/CLIENTS.md).
public enum Family: String, Hashable, Sendable, CaseIterable {
    case restV2 = "REST v2"
    case restV1 = "REST v1"
    case sdkWire = "SDK wire"
    case legacyWeb = "legacy web"
}

/// One finding: what a rule saw, and the requests that show it.
public struct Violation: Hashable, Sendable {
    public var message: String
    public var evidence: [ClassifiedRequest]
    /// How many violations this one stands for: 1, or the count of those a report leaves out
    /// (`Findings`), whose line has no requests.
    public var represents: Int
    public init(_ message: String, _ evidence: [ClassifiedRequest], represents: Int = 1) {
        self.message = message
        self.evidence = evidence
        self.represents = represents
    }
}

/// What a rule concluded on one journal.
public enum Verdict: Hashable, Sendable {
    /// Judged on `checked` requests, none broke it.
    case passed(checked: Int)
    case broken([Violation])
    /// The journal cannot show it: never counted as passed.
    case notApplicable(String)

    public var name: String {
        switch self {
        case .passed: "passed"
        case .broken: "broken"
        case .notApplicable: "not applicable"
        }
    }
}

/// A rule as data: its id, what it cites, how binding it is, whom it applies to, and its check.
public struct Rule: Sendable {
    public var id: String
    public var title: String
    /// The checklist row (`Adobe REST API V2 Checklist, Mandatory 7, "Send Authorization Header"`)
    /// or page it comes from.
    public var citation: String
    public var severity: Severity
    public var families: [Family]
    public var check: @Sendable (Journal) -> Verdict

    public init(
        id: String, title: String, citation: String, severity: Severity, families: [Family],
        check: @escaping @Sendable (Journal) -> Verdict
    ) {
        self.id = id
        self.title = title
        self.citation = citation
        self.severity = severity
        self.families = families
        self.check = check
    }
}
