import PassModel

/// The names a `>` step may call and a `<` step may expect (BEHAVIOR.md, SCENARIO-FORMAT.md): the
/// vocabulary's (`Call.Name`, `Callback.Name`), in its order.
public enum CallNames {
    public static let calls = Call.Name.allCases.map(\.rawValue)
    public static let callbacks = Callback.Name.allCases.map(\.rawValue)
}

/// "did you mean" hints for misspelt names.
package enum Suggestion {
    /// The candidate nearest to `word` within edit distance 2 (the first one on a tie), if any.
    static func closest(to word: String, among candidates: [String]) -> String? {
        var best: (name: String, distance: Int)?
        for candidate in candidates where candidate != word {
            let d = editDistance(Array(word.unicodeScalars), Array(candidate.unicodeScalars))
            if d <= 2, d < (best?.distance ?? Int.max) { best = (candidate, d) }
        }
        return best?.name
    }

    /// ` (did you mean 'x'?)`, or "" when nothing is close.
    package static func hint(for word: String, among candidates: [String]) -> String {
        closest(to: word, among: candidates).map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// The constant a misspelt one most likely means: one within edit distance 2, else the shortest
    /// that holds `word` (`PROVIDER_NOT_SELECTED` → `PROVIDER_NOT_SELECTED_ERROR`), or that `word` begins
    /// with; the first of `Constants.all` on a tie.
    static func closestConstant(to word: String) -> String? {
        let symbols = Constants.all.map(\.symbol)
        if let near = closest(to: word, among: symbols) { return near }
        // Only a word written as constants are (capitals): `auth` is no constant cut short.
        guard word.unicodeScalars.count >= 3, word == word.uppercased() else { return nil }
        let holding = symbols.filter { $0.contains(word) || word.hasPrefix($0) }
        return holding.min { $0.count < $1.count }
    }

    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
