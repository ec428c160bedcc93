import Foundation

/// Searching and splitting ASCII text by its bytes. The signed `Authorization` header, a request's
/// path: what the mock reads on every request is ASCII, and Foundation's search bridged each text
/// (and the standard library's split walked it by grapheme) for each request. In ASCII text no
/// character combines with another, so a byte finds what a character finds, and these give what
/// `range(of:)` and `split(separator:)` give; any other text goes to them, as before.
extension StringProtocol {
    /// Whether every byte is ASCII.
    private var isASCII: Bool { utf8.allSatisfy { $0 < 0x80 } }

    /// `range(of:)` for an ASCII `needle`. Searched over both texts' bytes when they have them
    /// contiguous (native strings and their substrings): the log entry of every request, the REST
    /// formats and the signed header search this way, and walking the `utf8` views (the ASCII
    /// check, the needle's copy, the search by index) cost more than the search itself.
    func literalRange(of needle: String) -> Range<Index>? {
        let found = utf8.withContiguousStorageIfAvailable { h in
            needle.utf8.withContiguousStorageIfAvailable { n in LiteralSearch(h, n) } ?? .undecided
        }
        switch found ?? .undecided {
        case .undecided: return slowLiteralRange(of: needle)
        case .absent: return nil
        case .at(let bytes):
            let u = utf8
            let start = u.index(u.startIndex, offsetBy: bytes.lowerBound)
            return start..<u.index(start, offsetBy: bytes.count)
        }
    }

    /// `literalRange` as first written, over the `utf8` views: for a text without contiguous bytes,
    /// and for a text or needle that is not ASCII (`range(of:)` decides).
    func slowLiteralRange(of needle: String) -> Range<Index>? {
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

/// The byte half of `literalRange`: where an ASCII needle first occurs in an ASCII text, by byte
/// offsets (a byte is a character there); `undecided` when either is not ASCII.
enum LiteralSearch: Equatable {
    case undecided
    case absent
    case at(Range<Int>)

    init(_ h: UnsafeBufferPointer<UInt8>, _ n: UnsafeBufferPointer<UInt8>) {
        for b in h where b >= 0x80 {
            self = .undecided
            return
        }
        for b in n where b >= 0x80 {
            self = .undecided
            return
        }
        // Foundation finds no empty string.
        guard let first = n.first, h.count >= n.count else {
            self = .absent
            return
        }
        var i = 0
        while i <= h.count - n.count {
            if h[i] == first {
                var k = 1
                while k < n.count, h[i + k] == n[k] { k += 1 }
                if k == n.count {
                    self = .at(i..<(i + n.count))
                    return
                }
            }
            i += 1
        }
        self = .absent
    }
}
