import PassModel
import Testing
@testable import ScenarioSyntax

/// The value of the single argument of `< status(VALUE)`.
func expectationValue(_ text: String) throws -> ValueSyntax? {
    // setMetadataStatus's first argument takes any value (callbacks' arguments are checked when parsed);
    // the names the values use are the world's (a bare name must be one it declares).
    let world =
        "scenario \"t\"\nsp my-sp.v2 \"https://sp.test\"\nmvpd Comcast \"X\" at my-sp.v2\n"
        + "user a \"p\" at Comcast\n"
    let file = try parse(world + "< setMetadataStatus(\(text), _, _, _)")
    guard case .expect(_, let call, _) = file.steps.first?.value else { return nil }
    #expect(call.arguments.count == 4)
    return call.arguments.first?.value
}

@Suite struct ValueTests {
    static let cases: [(String, ValueSyntax)] = [
        ("\"plain\"", .string("plain")),
        (#""q\"b\\n\n t\t u\u{1F600}\u{e9}""#, .string("q\"b\\n\n t\t u\u{1F600}\u{e9}")),
        ("\"# not a comment\"", .string("# not a comment")),
        ("42", .int(42)),
        ("-7", .int(-7)),
        ("true", .bool(true)),
        ("false", .bool(false)),
        ("nil", .null),
        (
            "USER_NOT_AUTHORIZED_ERROR",
            .constant(symbol: "USER_NOT_AUTHORIZED_ERROR", value: .string("User Not Authorized Error"))
        ),
        ("METADATA_USER_META", .constant(symbol: "METADATA_USER_META", value: .int(3))),
        ("Comcast", .name("Comcast")),
        ("my-sp.v2", .name("my-sp.v2")),
        ("[]", .list([])),
        ("[a, [1, \"b\"], nil,]", .list([.name("a"), .list([.int(1), .string("b")]), .null])),
        ("{}", .dict([])),
        (
            "{zip: [\"12345\"], \"odd key\": 1, METADATA_OPCODE_KEY: METADATA_USER_META}",
            .dict([
                DictEntrySyntax("zip", .list([.string("12345")])),
                DictEntrySyntax(writtenKey: "odd key", keyForm: .string, key: "odd key", value: .int(1)),
                DictEntrySyntax(
                    writtenKey: "METADATA_OPCODE_KEY", keyForm: .constant, key: "opCode",
                    value: .constant(symbol: "METADATA_USER_META", value: .int(3))),
            ])
        ),
        ("_", .wildcard),
        ("/https:\\/\\/sp\\.auth\\.test\\/.*/", .regex("https://sp\\.auth\\.test/.*")),
        ("/a\\\\/", .regex("a\\\\")),
        ("/x#y/", .regex("x#y")),
        ("$token", .binding("token")),
        (
            "Comcast{displayName: \"Xfinity\", boardingStatus: PICKER}",
            .mvpd(
                id: "Comcast",
                fields: [
                    DictEntrySyntax("displayName", .string("Xfinity")),
                    DictEntrySyntax("boardingStatus", .constant(symbol: "PICKER", value: .string("PICKER"))),
                ])
        ),
        ("[Comcast{}, _]", .list([.mvpd(id: "Comcast", fields: []), .wildcard])),
    ]

    @Test(arguments: cases) func value(_ text: String, _ expected: ValueSyntax) throws {
        #expect(try expectationValue(text) == expected)
    }

    @Test func descriptionIsTheWrittenForm() throws {
        for text in [
            "Comcast{displayName: \"Xfinity\", boardingStatus: PICKER}", "[a, [1, \"b\"], nil]",
            "{zip: [\"12345\"], \"odd key\": 1, METADATA_OPCODE_KEY: METADATA_USER_META}",
            "/https:\\/\\/sp\\.test\\/.*/", "$t", "_", "-7", "\"a\\\"b\"",
        ] {
            #expect(try expectationValue(text)?.description == text)
        }
    }

    @Test func literalValues() throws {
        let v = try expectationValue("{METADATA_OPCODE_KEY: METADATA_USER_META, list: [Comcast, nil]}")
        #expect(v?.literal == nil)  // a name needs resolving
        #expect(
            v?.literal(resolvingName: { .string("<\($0)>") })
                == .dict([Value.Entry("opCode", .int(3)), Value.Entry("list", .list([.string("<Comcast>"), .null]))]))
        #expect(try expectationValue("[_]")?.literal(resolvingName: { _ in .null }) == nil)
        #expect(try expectationValue("[_]")?.containsPattern == true)
        #expect(try expectationValue("[1, {a: \"b\"}]")?.containsPattern == false)
    }
}
