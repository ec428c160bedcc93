import Foundation
import Testing
import PassModel

@Suite struct JSONTests {
    @Test func writesCompactTextInKeyOrder() {
        let v = Value.dict([
            Value.Entry("updated", .int(1_767_225_600_000)),
            Value.Entry("encrypted", .list([.string("zip")])),
            Value.Entry(
                "data", .dict([Value.Entry("z", .null), Value.Entry("a", .bool(false)), Value.Entry("n", .int(-3))])),
            Value.Entry("mvpd", .mvpd(MVPD(id: "Comcast", displayName: "Xfinity"))),
        ])
        #expect(
            v.jsonText
                == #"{"updated":1767225600000,"encrypted":["zip"],"data":{"z":null,"a":false,"n":-3},"mvpd":"Comcast"}"#
        )
        #expect(Value.list([]).jsonText == "[]")
        #expect(Value.dict([]).jsonText == "{}")
    }

    @Test func escapesStrings() {
        #expect(
            Value.string("a\"b\\c/\n\r\t\u{08}\u{0C}\u{01}\u{1F}é😀").jsonText
                == "\"a\\\"b\\\\c/\\n\\r\\t\\b\\f\\u0001\\u001fé😀\"")
    }

    @Test func roundTrips() throws {
        let values: [Value] = [
            .null, .bool(true), .int(0), .int(Int.max), .int(Int.min), .string(""), .string("\u{0}\u{7F} \"x\" é 😀"),
            .list([.int(1), .list([.dict([])]), .string("s")]),
            .dict([Value.Entry("", .int(1)), Value.Entry("k", .dict([Value.Entry("deep", .list([.null]))]))]),
        ]
        for v in values {
            #expect(try Value(jsonText: v.jsonText) == v, "\(v)")
        }
    }

    @Test func parsesWhitespaceEscapesAndSurrogates() throws {
        let v = try Value(
            jsonText: " \n{ \"a\" : [ 1 , -0 , true , null ] ,\t\"b\\u00e9\\/\" : \"\\uD83D\\uDE00\\u0041\\n\" }\r\n")
        #expect(
            v
                == .dict([
                    Value.Entry("a", .list([.int(1), .int(0), .bool(true), .null])),
                    Value.Entry("bé/", .string("😀A\n")),
                ]))
        #expect(try Value(jsonText: "\"\\uDBFF\\uDFFF\"") == .string("\u{10FFFF}"))
        #expect(try Value(jsonText: "-9223372036854775808") == .int(Int.min))
    }

    @Test func refusesWithAClearMessage() {
        let cases: [(String, String)] = [
            ("1.5", "number at offset 0: only integers are supported"),
            ("[1e3]", "number at offset 1: only integers are supported"),
            ("2E-1", "number at offset 0: only integers are supported"),
            ("9223372036854775808", "integer at offset 0 is out of range"),
            ("-9223372036854775809", "integer at offset 0 is out of range"),
            ("01", "invalid number at offset 0: leading zeros are not allowed"),
            ("-", "invalid number at offset 0"),
            ("", "unexpected end of input, expected a value at offset 0"),
            ("[1,]", "unexpected ']', expected a value at offset 3"),
            ("[1 2]", "unexpected '2' in an array, expected ',' or ']' at offset 3"),
            ("{\"a\" 1}", "expected ':' after an object key at offset 5"),
            ("{1:2}", "unexpected '1', expected a string key at offset 1"),
            ("{\"a\":1,\"a\":2}", "duplicate key \"a\" at offset 7"),
            ("{\"a\":1", "unexpected end of input in an object at offset 6"),
            ("\"abc", "unterminated string starting at offset 0"),
            ("\"a\u{01}\"", "unescaped control character byte 0x01 in a string at offset 2"),
            ("\"\\x\"", "invalid escape '\\x' at offset 2"),
            ("\"\\u12G4\"", "invalid hex digit 'G' in a \\u escape at offset 5"),
            ("\"\\uD800\"", "unpaired surrogate \\uD800 at offset 1"),
            ("\"\\uD800\\u0041\"", "unpaired surrogate \\uD800 at offset 1"),
            ("\"\\uDC00\"", "unpaired surrogate \\uDC00 at offset 1"),
            ("tru", "invalid literal, expected 'true' at offset 0"),
            ("nul", "invalid literal, expected 'null' at offset 0"),
            ("1 2", "unexpected '2' after the value at offset 2"),
            ("'a'", "unexpected ''', expected a value at offset 0"),
        ]
        for (text, message) in cases {
            #expect(throws: JSONError(message), "\(text)") { try Value(jsonText: text) }
        }
    }

    /// The writer appends runs of bytes; this is the one scalar at a time it replaced, which every
    /// string, escapes and non-ASCII among plain runs, must still match.
    @Test func writesStringsAsTheScalarWriterDid() {
        func reference(_ s: String) -> String {
            var out = "\""
            for c in s.unicodeScalars {
                switch c {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case "\u{08}": out += "\\b"
                case "\u{0C}": out += "\\f"
                default:
                    if c.value < 0x20 {
                        let hex = String(c.value, radix: 16)
                        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                    } else {
                        out.unicodeScalars.append(c)
                    }
                }
            }
            return out + "\""
        }
        let pieces = [
            "a", "plain text ", "\"", "\\", "/", "\n", "\u{0}", "\u{1F}", "\u{7F}", "é", "😀", "\u{2028}", "\r\n",
        ]
        var rng = SplitMix(seed: 42)
        for _ in 0..<2000 {
            var s = ""
            for _ in 0..<rng.next(upTo: 12) { s += pieces[rng.next(upTo: pieces.count)] }
            #expect(Value.string(s).jsonText == reference(s), "\(s.debugDescription)")
            #expect(Value.string(s).jsonUTF8 == Array(reference(s).utf8))
        }
    }

    /// A body's bytes parse as its text did (`String(decoding:as:)`, then `init(jsonText:)`): the same
    /// value, or a refusal either way (the offset of ill-formed UTF-8 differs, so only valid UTF-8's
    /// messages are compared).
    @Test func bytesParseAsTheirDecodedText() {
        let pieces: [[UInt8]] = [
            Array(#"{"a":"#.utf8), Array(#""x""#.utf8), [0x22], [0x5C], Array(#"\u00e9"#.utf8),
            Array(#"\uD83D\uDE00"#.utf8),
            [0xE2], [0xE2, 0x82], [0xE2, 0x82, 0xAC], [0x80], [0xFF], [0xF0, 0x9F], [0xC0, 0xAF], [0xED, 0xA0, 0x80],
            Array("é".utf8), Array(",".utf8), Array("}".utf8), Array("[".utf8), Array("]".utf8), Array("1".utf8),
            Array("true".utf8), Array(" ".utf8), [0x01], Array(":".utf8), Array(#"\n"#.utf8),
        ]
        var rng = SplitMix(seed: 7)
        var cases: [[UInt8]] = []
        for _ in 0..<5000 {
            var b: [UInt8] = []
            for _ in 0..<rng.next(upTo: 10) { b += pieces[rng.next(upTo: pieces.count)] }
            cases.append(b)
            // Inside a string, where ill-formed UTF-8 is kept (repaired) rather than refused.
            var inString: [UInt8] = Array(#"{"k":""#.utf8)
            for _ in 0..<rng.next(upTo: 6) { inString += pieces[rng.next(upTo: pieces.count)] }
            cases.append(inString + Array(#""}"#.utf8))
        }
        for bytes in cases {
            let text = String(decoding: bytes, as: UTF8.self)
            let fromText = Result { () throws(JSONError) in try Value(jsonText: text) }
            let fromBytes = Result { () throws(JSONError) in try Value(jsonBytes: bytes) }
            switch (fromText, fromBytes) {
            case (.success(let a), .success(let b)): #expect(a.jsonUTF8 == b.jsonUTF8, "\(bytes)")
            case (.failure(let a), .failure(let b)):
                if Array(text.utf8) == bytes { #expect(a == b, "\(bytes)") }
            default: Issue.record("\(bytes): \(fromText) from the text, \(fromBytes) from the bytes")
            }
        }
    }

    /// A small object's keys are compared one by one, a large one's through a set: a duplicate is
    /// refused at its offset either way, on both sides of the switch.
    @Test func duplicateKeysAreRefusedInSmallAndLargeObjects() {
        for count in [2, 15, 16, 17, 40] {
            for duplicate in [0, count / 2, count - 1] {
                var text = "{"
                for k in 0..<count { text += "\"k\(k)\":\(k)," }
                let offset = text.utf8.count
                text += "\"k\(duplicate)\":0}"
                #expect(
                    throws: JSONError("duplicate key \"k\(duplicate)\" at offset \(offset)"), "\(count) \(duplicate)"
                ) {
                    try Value(jsonText: text)
                }
                #expect(throws: Never.self) {
                    try Value(jsonText: text.replacingOccurrences(of: "\"k\(duplicate)\":0}", with: "\"new\":0}"))
                }
            }
        }
    }

    @Test func depthIsLimited() throws {
        let ok = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(try Value(jsonText: ok).jsonText == ok)
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(throws: JSONError("value nested deeper than 64 levels (limit: json-depth) at offset 64")) {
            try Value(jsonText: deep)
        }
        #expect(throws: JSONError("value nested deeper than 2 levels (limit: json-depth) at offset 6")) {
            try Value(jsonText: #"{"a":[{"b":{}}]}"#, maxDepth: 2)
        }
    }

    /// Issue 12 row 1: a deep value parsed (with a caller's huge limit, once allowed) overflowed the
    /// stack when the `Value` was compared or freed. A caller may only lower the limit.
    @Test func aCallerCannotRaiseTheDepthLimit() throws {
        let huge = String(repeating: "[", count: 30_000) + String(repeating: "]", count: 30_000)
        #expect(throws: JSONError("value nested deeper than 64 levels (limit: json-depth) at offset 64")) {
            _ = try Value(jsonText: huge, maxDepth: 1_000_000)
        }
    }

    /// `Fixtures/hostile/scenarios/deep-json.txt` describes the hostile JSON: a 60 KB line of `[`
    /// (a port's message or an admin body), built here from the description.
    @Test func theHostileDeepJSONIsRefusedByTheLimit() throws {
        let description = try String(contentsOfFile: hostileFixture("deep-json.txt"), encoding: .utf8)
        let count = Int(description.split(separator: "\n").first { $0.hasPrefix("depth ") }?.dropFirst(6) ?? "") ?? 0
        #expect(count == 60_000)
        let text = String(repeating: "[", count: count) + String(repeating: "]", count: count)
        #expect(throws: JSONError("value nested deeper than 64 levels (limit: json-depth) at offset 64")) {
            try Value(jsonText: text)
        }
    }
}

/// A file of `Fixtures/hostile/scenarios/`, found from this file so tests run from any directory.
func hostileFixture(_ name: String) -> String {
    var url = URL(fileURLWithPath: #filePath)
    while url.path != "/" {
        url.deleteLastPathComponent()
        let candidate = url.appendingPathComponent("Fixtures/hostile/scenarios/" + name)
        if FileManager.default.fileExists(atPath: candidate.path) { return candidate.path }
    }
    return name
}

/// A small deterministic generator (SplitMix64), so the comparisons above see the same inputs every run.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(upTo n: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(n))
    }
}
