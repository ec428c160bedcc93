import Foundation
import PassModel
import Testing
@testable import MockPass

/// The byte search and split the mock reads headers and paths with give what Foundation's
/// `range(of:)` and the standard library's `split` give, on ASCII text (searched by bytes) and on
/// any other (handed to them), over seeded random texts of the characters that matter.
@Suite struct LiteralSearchTests {
    static let alphabet: [String] = [
        "a", "b", ",", " ", "=", "/", "\r", "\n", "\r\n", "é", "e\u{301}", "\u{301}", ",\u{301}", "=\u{301}",
    ]

    static func texts(ascii: Bool) -> [String] {
        var rng = SeededRandom(seed: 48)
        let letters = ascii ? alphabet.filter { $0.utf8.allSatisfy { $0 < 0x80 } } : alphabet
        return (0..<3000).map { _ in
            (0..<Int(rng.next() % 12)).map { _ in letters[Int(rng.next() % UInt64(letters.count))] }.joined()
        }
    }

    @Test(arguments: [true, false]) func aSearchFindsWhatFoundationFinds(ascii: Bool) {
        for text in Self.texts(ascii: ascii) {
            for needle in [",", ", ", "=", "a,b", "/b/", ", a=", "\r\n", "ab"] {
                #expect(text.literalRange(of: needle) == text.range(of: needle), "\(Array(text.utf8)) \(needle)")
                let sub = text.dropFirst()
                #expect(sub.literalRange(of: needle) == sub.range(of: needle), "\(Array(sub.utf8)) \(needle)")
            }
        }
    }

    /// The search over contiguous bytes (`LiteralSearch`) against the search over the `utf8` views
    /// it stands in for (`slowLiteralRange`), on texts, their substrings (a slice's bytes start at
    /// its own start), an empty needle, a needle longer than the text and one that is not ASCII.
    @Test(arguments: [true, false]) func theByteSearchIsTheSlowSearch(ascii: Bool) {
        let needles = [",", ", ", "=", "a,b", "/b/", ", a=", "\r\n", "ab", "", "a b,a b=a b/a b,a b", "é"]
        for text in Self.texts(ascii: ascii) + ["", "ab", "xab", "/decisions/", "a/profiles/b"] {
            for needle in needles {
                #expect(text.literalRange(of: needle) == text.slowLiteralRange(of: needle), "\(text) \(needle)")
                for sub in [text.dropFirst(), text.dropLast(), text.dropFirst(2).dropLast()] {
                    let fast = sub.literalRange(of: needle), slow = sub.slowLiteralRange(of: needle)
                    #expect(fast == slow, "\(Array(sub.utf8)) \(needle)")
                    #expect(fast.map { sub[$0] } == slow.map { sub[$0] })
                }
            }
        }
    }

    @Test(arguments: [true, false]) func aSplitGivesWhatTheStandardLibraryGives(ascii: Bool) {
        for text in Self.texts(ascii: ascii) {
            for separator: Character in [",", " ", "="] {
                for maxSplits in [0, 1, 2, Int.max] {
                    #expect(
                        text.literalSplit(separator: separator, maxSplits: maxSplits)
                            == text.split(separator: separator, maxSplits: maxSplits),
                        "\(Array(text.utf8)) \(separator) \(maxSplits)")
                    let sub = text.dropFirst()
                    #expect(
                        sub.literalSplit(separator: separator, maxSplits: maxSplits)
                            == sub.split(separator: separator, maxSplits: maxSplits))
                }
            }
        }
    }
}
