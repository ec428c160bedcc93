import Foundation

/// Searching and splitting ASCII text by its bytes. The signed `Authorization` header, a request's
/// path: what the mock reads on every request is ASCII, and Foundation's search bridged each text
/// (and the standard library's split walked it by grapheme) for each request. In ASCII text no
/// character combines with another, so a byte finds what a character finds, and these give what
/// `range(of:)` and `split(separator:)` give; any other text goes to them, as before.
extension StringProtocol {
    /// Whether every byte is ASCII.
    private var isASCII: Bool { utf8.allSatisfy { $0 < 0x80 } }

    /// `range(of:)` for an ASCII `needle`.
    func literalRange(of needle: String) -> Range<Index>? {
        guard isASCII, needle.utf8.allSatisfy({ $0 < 0x80 }) else { return range(of: needle) }
        let n = Array(needle.utf8)
        // Foundation finds no empty string.
        guard let first = n.first else { return nil }
        let u = utf8
        var i = u.startIndex
        while i != u.endIndex {
            if u[i] == first {
                var j = u.index(after: i)
                var k = 1
                while k < n.count, j != u.endIndex, u[j] == n[k] {
                    u.formIndex(after: &j)
                    k += 1
                }
                if k == n.count { return i..<j }
            }
            u.formIndex(after: &i)
        }
        return nil
    }

    /// `split(separator:maxSplits:)` (empty pieces omitted) for an ASCII `separator`, written as the
    /// standard library's: a split that drops an empty piece does not count towards `maxSplits`.
    func literalSplit(separator: Character, maxSplits: Int = .max) -> [SubSequence] {
        guard let byte = separator.asciiValue, isASCII else { return split(separator: separator, maxSplits: maxSplits) }
        var result: [SubSequence] = []
        let u = utf8
        var start = u.startIndex
        if maxSplits == 0 || start == u.endIndex {
            if start != u.endIndex { result.append(self[start..<u.endIndex]) }
            return result
        }
        var end = start
        while end != u.endIndex {
            if u[end] == byte {
                let appended = start != end
                if appended { result.append(self[start..<end]) }
                u.formIndex(after: &end)
                start = end
                if appended && result.count == maxSplits { break }
                continue
            }
            u.formIndex(after: &end)
        }
        if start != u.endIndex { result.append(self[start..<u.endIndex]) }
        return result
    }
}
