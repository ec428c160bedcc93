/// A sequence diagram of one run, apart from how it is drawn: the participants left to right, then
/// the messages and notes top to bottom. `CallbackDocs.sequence` builds it from a run's trace;
/// `mermaid` writes it as Mermaid source and `SequenceSVG` draws it, so both show the same thing.
public struct SequenceDiagram: Hashable, Sendable {
    public struct Participant: Hashable, Sendable {
        /// A name Mermaid accepts (letters, digits and `_`).
        public var id: String
        public var label: String
    }

    public enum Arrow: Hashable, Sendable {
        /// A call or a request: a solid line (Mermaid `->>`).
        case send
        /// A callback or an answer: a dashed line (`-->>`).
        case reply
        /// A request that got no answer: a dashed line ending in a cross (`--x`).
        case lost
    }

    public enum Item: Hashable, Sendable {
        case message(from: String, to: String, arrow: Arrow, text: String)
        /// Over one participant, or spanning from the first to the last named.
        case note(over: [String], text: String, kind: NoteKind)
    }

    /// What a note says: something the user does, or time passing (drawn apart).
    public enum NoteKind: Hashable, Sendable { case user, time }

    public var participants: [Participant]
    public var items: [Item]

    /// Mermaid `sequenceDiagram` source. Texts are written as Mermaid reads them: `;` and `#` (a
    /// statement break and an entity to Mermaid) as `#59;` and `#35;`.
    public var mermaid: String {
        var out = "sequenceDiagram\n"
        for p in participants {
            out += p.id == p.label ? "    participant \(p.id)\n" : "    participant \(p.id) as \(p.label)\n"
        }
        for item in items {
            switch item {
            case .message(let from, let to, let arrow, let text):
                let sign =
                    switch arrow {
                    case .send: "->>"
                    case .reply: "-->>"
                    case .lost: "--x"
                    }
                out += "    \(from)\(sign)\(to): \(Self.mermaidText(text))\n"
            case .note(let over, let text, _):
                out += "    Note over \(over.joined(separator: ",")): \(Self.mermaidText(text))\n"
            }
        }
        return out
    }

    static func mermaidText(_ text: String) -> String {
        var out = ""
        for c in text.unicodeScalars {
            switch c {
            case ";": out += "#59;"
            case "#": out += "#35;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
