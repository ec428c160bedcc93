/// Draws a `SequenceDiagram` as a standalone SVG image, without Mermaid or any script: participants
/// in boxes at the top and the bottom, their lifelines, each message an arrow with its text above it
/// (solid: a call or request, dashed: a callback or answer, a cross: no answer), notes in boxes
/// (yellow: the user, green: time passing).
///
/// The same diagram always gives the same bytes: whole-pixel coordinates, no clock, no hashing. Text
/// widths are estimated, not measured, for a monospace font the viewer already has (nothing is
/// fetched), so the layout does not depend on the machine that writes it. No `id` attribute and no
/// `<style>`, so several diagrams inline in one HTML page cannot clash.
public enum SequenceSVG {
    /// Pixels a character takes at `fontSize` in the common monospace fonts (DejaVu Sans Mono,
    /// Menlo: 0.6 em; Consolas is narrower), rounded up so text never outgrows its box.
    static let charWidth = 7.3
    static let fontSize = 12
    static let margin = 12
    static let boxHeight = 30
    static let messageHeight = 28
    static let noteHeight = 30
    /// Room between an arrow's text and the lifelines at its ends.
    static let labelPadding = 24
    static let fonts = "ui-monospace,Menlo,Consolas,'DejaVu Sans Mono','Liberation Mono',monospace"

    /// The width `text` takes: wide (East Asian) characters count twice.
    static func width(_ text: String) -> Int {
        var units = 0
        for c in text.unicodeScalars { units += c.value >= 0x2E80 ? 2 : 1 }
        return Int((Double(units) * charWidth).rounded(.up))
    }

    /// The centre of each participant's lifeline, left to right, `margin` from the left edge, wide
    /// enough apart for their boxes and for the text of every message between them.
    static func columns(_ d: SequenceDiagram) -> [Int] {
        let n = d.participants.count
        guard n > 0 else { return [] }
        let boxes = d.participants.map(boxWidth)
        var gaps = (0..<max(n - 1, 0)).map { (boxes[$0] + boxes[$0 + 1]) / 2 + 20 }
        let index = Dictionary(d.participants.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
        // Each message needs its text's width between its two ends: the shortest spans first, so a
        // long one only widens what the short ones left too narrow. Its own deficit goes evenly to
        // the gaps it spans (the remainder to the last), in the diagram's order: deterministic.
        var needs: [(from: Int, to: Int, width: Int)] = []
        for item in d.items {
            switch item {
            case .message(let from, let to, _, let text):
                guard let a = index[from], let b = index[to] else { continue }
                if a == b {
                    if a < n - 1 { needs.append((a, a + 1, width(text) + 2 * labelPadding)) }
                } else {
                    needs.append((min(a, b), max(a, b), width(text) + labelPadding))
                }
            case .note(let over, let text, _):
                let ends = over.compactMap { index[$0] }
                guard let a = ends.min(), let b = ends.max(), a != b else { continue }
                needs.append((a, b, width(text) + 16))
            }
        }
        let ordered = needs.enumerated().sorted { x, y in
            let (s, t) = (x.element.to - x.element.from, y.element.to - y.element.from)
            return s != t ? s < t : x.offset < y.offset
        }
        for (_, need) in ordered {
            let span = need.to - need.from
            let have = gaps[need.from..<need.to].reduce(0, +)
            guard have < need.width else { continue }
            let deficit = need.width - have
            for k in need.from..<need.to { gaps[k] += deficit / span }
            gaps[need.to - 1] += deficit % span
        }
        var xs = [boxes[0] / 2]
        for g in gaps { xs.append(xs[xs.count - 1] + g) }
        return xs
    }

    static func boxWidth(_ p: SequenceDiagram.Participant) -> Int { max(width(p.label) + 20, 80) }

    /// The SVG document. `title` is the image's accessible name (its `<title>`).
    public static func render(_ d: SequenceDiagram, title: String) -> String {
        let xs = columns(d)
        let index = Dictionary(d.participants.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
        func x(_ id: String) -> Int { index[id].map { xs[$0] } ?? 0 }

        // Everything is placed first, then shifted right so the leftmost thing is `margin` from the edge.
        var left = 0
        var right = 0
        func extend(_ a: Int, _ b: Int) {
            left = min(left, a)
            right = max(right, b)
        }
        for (i, p) in d.participants.enumerated() { extend(xs[i] - boxWidth(p) / 2, xs[i] + boxWidth(p) / 2) }

        var solid = ""  // path data of the solid lines
        var dashed = ""  // of the dashed ones
        var heads = ""  // of the filled arrowheads
        var crosses = ""  // of the crosses of lost messages
        var notes: [(kind: SequenceDiagram.NoteKind, x: Int, y: Int, w: Int)] = []
        var texts: [(x: Int, y: Int, text: String)] = []
        var y = margin + boxHeight + 16
        for item in d.items {
            switch item {
            case .message(let from, let to, let arrow, let text):
                let (a, b) = (x(from), x(to))
                let line = y + 18
                if a == b {
                    // To itself: out to the right and back.
                    let out = a + 30
                    solid += "M\(a) \(line - 8)H\(out)V\(line)H\(a + 8)"
                    heads += "M\(a) \(line)l8-4v8z"
                    texts.append((a + 4 + width(text) / 2, line - 12, text))
                    extend(a, max(out, a + 4 + width(text)))
                } else {
                    let dir = b > a ? 1 : -1
                    let segment = "M\(a) \(line)H\(b)"
                    if arrow == .send { solid += segment } else { dashed += segment }
                    if arrow == .lost {
                        crosses += "M\(b - 5) \(line - 5)l10 10m0-10l-10 10"
                    } else {
                        heads += "M\(b) \(line)l\(-8 * dir)-4v8z"
                    }
                    let middle = (a + b) / 2
                    texts.append((middle, line - 6, text))
                    extend(middle - width(text) / 2, middle + width(text) / 2)
                }
                y += messageHeight
            case .note(let over, let text, let kind):
                let ends = over.map(x)
                let (a, b) = (ends.min() ?? 0, ends.max() ?? 0)
                let w = max(b - a + 20, width(text) + 16)
                let middle = (a + b) / 2
                notes.append((kind, middle - w / 2, y + 3, w))
                texts.append((middle, y + 19, text))
                extend(middle - w / 2, middle - w / 2 + w)
                y += noteHeight
            }
        }
        let bottom = y + 10
        let shift = margin - left
        let width = right - left + 2 * margin
        let height = bottom + boxHeight + margin

        var out =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" "
            + "viewBox=\"0 0 \(width) \(height)\" role=\"img\" font-family=\"\(fonts)\" font-size=\"\(fontSize)\">\n"
        out += "<title>\(escaped(title))</title>\n"
        out += "<rect width=\"\(width)\" height=\"\(height)\" fill=\"#fff\"/>\n"
        out += "<g transform=\"translate(\(shift) 0)\">\n"
        // Lifelines under everything.
        var lifelines = ""
        for cx in xs { lifelines += "M\(cx) \(margin + boxHeight)V\(bottom)" }
        if !lifelines.isEmpty {
            out += "<path d=\"\(lifelines)\" stroke=\"#9aa0ac\" stroke-dasharray=\"3 3\" fill=\"none\"/>\n"
        }
        // Participants, at the top and again at the bottom, as Mermaid draws them.
        out += "<g fill=\"#eef1fb\" stroke=\"#6b78b4\">\n"
        for (i, p) in d.participants.enumerated() {
            let w = boxWidth(p)
            for top in [margin, bottom] {
                out += "<rect x=\"\(xs[i] - w / 2)\" y=\"\(top)\" width=\"\(w)\" height=\"\(boxHeight)\" rx=\"3\"/>\n"
            }
        }
        out += "</g>\n"
        for (kind, fill, stroke) in [
            (SequenceDiagram.NoteKind.user, "#fff5c2", "#c9b458"), (.time, "#e6f4e8", "#7aa884"),
        ] {
            let mine = notes.filter { $0.kind == kind }
            guard !mine.isEmpty else { continue }
            out += "<g fill=\"\(fill)\" stroke=\"\(stroke)\">\n"
            for n in mine {
                out += "<rect x=\"\(n.x)\" y=\"\(n.y)\" width=\"\(n.w)\" height=\"\(noteHeight - 6)\"/>\n"
            }
            out += "</g>\n"
        }
        if !solid.isEmpty { out += "<path d=\"\(solid)\" stroke=\"#333\" fill=\"none\"/>\n" }
        if !dashed.isEmpty {
            out += "<path d=\"\(dashed)\" stroke=\"#333\" stroke-dasharray=\"5 3\" fill=\"none\"/>\n"
        }
        if !heads.isEmpty { out += "<path d=\"\(heads)\" fill=\"#333\"/>\n" }
        if !crosses.isEmpty { out += "<path d=\"\(crosses)\" stroke=\"#b00\" stroke-width=\"2\" fill=\"none\"/>\n" }
        out += "<g text-anchor=\"middle\" fill=\"#1d1f24\">\n"
        for (i, p) in d.participants.enumerated() {
            for top in [margin, bottom] { out += "<text x=\"\(xs[i])\" y=\"\(top + 19)\">\(escaped(p.label))</text>\n" }
        }
        for t in texts { out += "<text x=\"\(t.x)\" y=\"\(t.y)\">\(escaped(t.text))</text>\n" }
        out += "</g>\n</g>\n</svg>\n"
        return out
    }

    /// Text content for SVG (XML): the five entities, characters XML cannot carry replaced, and a line
    /// break as a space (a text element is one line).
    static func escaped(_ s: String) -> String {
        SuiteReports.xml(
            s.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: " "), attribute: false)
    }
}
