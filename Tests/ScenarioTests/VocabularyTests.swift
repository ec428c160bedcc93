import PassModel
import Port
import ScenarioSyntax
import Testing
@testable import Scenario

/// The API's vocabulary is written once (`Call.Name`, `Callback.Name`); every name must survive
/// each place that reads or writes it: DSL text → value → port JSON → value → DSL text. The names
/// and samples come from the vocabulary itself, so a new case is tested without touching this file,
/// and fails here until the DSL, the port codec and the typed cases all know it.
@Suite struct VocabularyTests {
    static let comcast = MVPD(id: "Comcast", displayName: "Xfinity")
    /// The world the samples' names are declared in (a bare name must be one the world declares).
    static let world = "scenario \"v\"\nsp main \"https://sp.test\"\nmvpd Comcast \"Xfinity\" at main\n"

    /// A callback parameter's sample: one of its constants where the vocabulary closes its values.
    static func sample(_ p: Callback.Parameter) -> Value {
        p.symbols.first.flatMap(Constants.value(of:)) ?? sample(p.kind, unlike: nil)
    }

    /// A value of `kind` that is not its parameter's default, so that the canonical text writes it.
    static func sample(_ kind: ArgumentKind, unlike defaultValue: Value?) -> Value {
        switch kind {
        case .text: return .string("x 1")
        case .mvpdIDOrNil: return .string("Comcast")
        case .bool: return .bool(defaultValue != .bool(true))
        case .int: return .int(1)
        case .dict, .any: return .dict([Value.Entry("k", .int(1))])
        case .textList: return .list([.string("a"), .string("b")])
        case .serviceProviders: return .list([.string("https://sp.test")])
        case .mvpds: return .list([.mvpd(comcast)])
        case .mvpdOrNil: return .mvpd(comcast)
        case .textOrNilList: return .list([.string("a"), .null])
        }
    }

    /// Every call name twice: with every argument given, and with only the required ones.
    static func sampleCalls() throws -> [(full: Bool, call: Call)] {
        try Call.Name.allCases.flatMap { name in
            try [true, false].map { full in
                var fields: [String: Value] = [:]
                for p in name.parameters where p.aliasOf == nil && (full || (p.required && !p.kind.takesNil)) {
                    fields[p.field] = sample(p.kind, unlike: p.defaultValue)
                }
                return (full, try Call(name, fields: fields))
            }
        }
    }

    @Test func everyCallRoundTrips() throws {
        for (full, call) in try VocabularyTests.sampleCalls() {
            let name = call.kind
            #expect(call.name == name.rawValue)
            if full {
                // Every field the vocabulary lists reaches the typed case and comes back.
                let listed = Set(name.parameters.filter { $0.aliasOf == nil }.map(\.field))
                #expect(Set(call.fields.keys) == listed, "\(name): a parameter the typed case drops")
                #expect(Set(name.fields) == listed, "\(name): port fields and parameters disagree")
            }
            // DSL text → Call, through the parser's checks and the builder.
            let text = call.description
            let file = try ScenarioParser.parse(VocabularyTests.world + "> \(text)\n", path: "v.scenario")
            guard case .call(_, let syntax) = file.steps.first?.value else {
                Issue.record("\(text) is not a call step")
                continue
            }
            let built = try CallBuilder(spURLs: [:], bindings: Bindings()).build(syntax)
            #expect(built == call, "\(text) builds \(built)")
            // Call → port JSON text → Call.
            let json = PortCodec.arguments(of: built).jsonText
            let back = try PortCodec.call(named: built.name, Value(jsonText: json))
            #expect(back == call, "\(json) reads back as \(back)")
            #expect(back.description == text)
        }
    }

    @Test func everyCallbackRoundTrips() throws {
        for name in Callback.Name.allCases {
            for full in [true, false] {
                let values = name.parameters.filter { full || !$0.optional }.map(VocabularyTests.sample)
                let callback = try Callback(name, values: values)
                #expect(callback.kind == name && callback.name == name.rawValue)
                #expect(callback.values.count == values.count, "\(name): an argument the typed case drops")
                // Canonical text → a `<` pattern that matches the callback.
                let text = callback.description
                let file = try ScenarioParser.parse(VocabularyTests.world + "< \(text)\n", path: "v.scenario")
                guard case .expect(_, let pattern, _) = file.steps.first?.value else {
                    Issue.record("\(text) is not an expectation")
                    continue
                }
                var bindings = Bindings()
                #expect(Matcher.match(pattern, callback, bindings: &bindings), "\(text) does not match itself")
                // Callback → port JSON text → Callback.
                let json = Value.list(PortCodec.arguments(of: callback)).jsonText
                let args = try Value(jsonText: json).listValue ?? []
                let back = try PortCodec.callback(named: name.rawValue, args)
                #expect(back == callback, "\(json) reads back as \(back)")
                #expect(back.description == text)
            }
        }
    }

    /// The DSL's names are the vocabulary's: a step naming any of them parses, in the docs' order.
    @Test func theDSLsNamesAreTheVocabulary() {
        #expect(CallNames.calls == Call.Name.allCases.map(\.rawValue))
        #expect(CallNames.callbacks == Callback.Name.allCases.map(\.rawValue))
        #expect(Set(CallNames.calls).isDisjoint(with: CallNames.callbacks))
    }
}
