import Foundation
import PassModel
import Port
import Testing

@testable import Scenario

/// docs/port-protocol.schema.json describes every line of the driver protocol (docs/PORTING.md): each
/// line the harness wrote and `passim shim` answered over the whole suite, on both wires and both
/// networks, must be valid by it (harness lines against `#/$defs/harness`, the port's against
/// `#/$defs/port`), and its names must be the vocabulary's.
@Suite struct PortProtocolSchemaTests {
    static let schema: Value = {
        let text = (try? String(contentsOfFile: packageRoot + "/docs/port-protocol.schema.json", encoding: .utf8)) ?? ""
        return (try? Value(jsonText: text)) ?? .null
    }()

    /// Every line `--port-log` kept of a run of `paths` against the shim: (direction, line).
    static func conversation(_ paths: [String], wire: EngineWire? = nil) -> [(String, String)] {
        var options = SuiteRun.Options(jobs: 2)
        var port = PortCommand(inProcess: "passim shim") { PortShim() }
        port.log = true
        options.runtime = ScenarioRunner.Runtime(port: port, wire: wire)
        if wire == .restV2 {
            options.expectations = try? Expectations.load(packageRoot + "/Scenarios/wire-v2.expect")
        }
        let report = SuiteRun(options: options).run(paths: paths)
        return report.results.flatMap(\.portConversation).map { line in
            let parts = line.split(separator: " ", maxSplits: 2).map(String.init)
            return (parts.count == 3 ? parts[1] : "?", parts.count == 3 ? parts[2] : line)
        }
    }

    /// The problems of `lines` by the schema, one a line at most.
    static func problems(_ lines: [(String, String)]) -> [String] {
        lines.compactMap { direction, line in
            guard let value = try? Value(jsonText: line) else { return "not JSON: \(line)" }
            let definition = direction == ">" ? "harness" : "port"
            let why = SchemaCheck(root: schema).problem(
                value, .dict([Value.Entry("$ref", .string("#/$defs/\(definition)"))]))
            return why.map { "\(definition): \($0): \(line.prefix(200))" }
        }
    }

    @Test func everyLineOfTheSuiteOnBothWiresIsValid() {
        #expect(Self.schema["$defs"] != nil, "docs/port-protocol.schema.json")
        let sdk = Self.conversation([packageRoot + "/Scenarios"])
        let v2 = Self.conversation([packageRoot + "/Scenarios"], wire: .restV2)
        // What the suite exercises: every message type each way.
        let types = Set(
            (sdk + v2).compactMap { direction, line in
                (try? Value(jsonText: line))?["type"]?.stringValue.map { direction + $0 }
            })
        for type in [
            ">hello", ">call", ">response", ">timer", ">picker", "<ready", "<idle", "<callback", "<request", "<timer",
            "<cancel-timer",
        ] {
            #expect(types.contains(type), "the suite has no \(type)")
        }
        let problems = Self.problems(sdk + v2)
        #expect(problems.isEmpty, "\(problems.prefix(5).joined(separator: "\n"))")
        #expect(sdk.count > 10_000, "\(sdk.count) lines")
    }

    /// The live network's lines (`hosts`, `cookies`, `fetched`, `deliver`) from the binary's shim.
    @Test func theLiveNetworksLinesAreValid() throws {
        let binary = passimBinary
        try #require(FileManager.default.isExecutableFile(atPath: binary), "swift build makes \(binary)")
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("passim-\(UUID()).log").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = [
            "run", "-q", "--live", "--port", binary + " shim", "--port-log", log,
            packageRoot + "/Scenarios/authn/classic-login.scenario", packageRoot + "/Scenarios/tvos",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("# ") }
            .map { line -> (String, String) in
                let parts = line.split(separator: " ", maxSplits: 2).map(String.init)
                return (parts[1], parts[2])
            }
        #expect(lines.contains { $0.0 == "<" && $0.1.contains("\"type\":\"fetched\"") })
        #expect(lines.contains { $0.0 == ">" && $0.1.contains("\"type\":\"deliver\"") })
        let problems = Self.problems(lines)
        #expect(problems.isEmpty, "\(problems.prefix(5).joined(separator: "\n"))")
    }

    /// The schema's names are the vocabulary's, so a new call or callback cannot go unlisted.
    @Test func itsNamesAreTheVocabularys() {
        func names(_ value: Value?) -> [String] { value?["enum"]?.listValue?.compactMap(\.stringValue) ?? [] }
        let defs = Self.schema["$defs"]
        #expect(names(defs?["callName"]) == Call.Name.allCases.map(\.rawValue))
        #expect(names(defs?["callbackName"]) == Callback.Name.allCases.map(\.rawValue))
        #expect(names(defs?["hello"]?["properties"]?["device"]) == DeviceType.allCases.map(\.rawValue))
    }

    /// Lines a port gets wrong are invalid by it.
    @Test func wrongLinesAreInvalid() {
        for (direction, line) in [
            ("<", #"{"type": "callback", "callback": "setRequestorComplete", "args": [1]}"#),  // no app
            ("<", #"{"type": "callback", "app": "app", "callback": "setRequestorCompleted", "args": [1]}"#),
            ("<", #"{"type": "request", "app": "app", "id": "1", "method": "GET", "url": "https://sp.test/"}"#),
            ("<", #"{"type": "request", "app": "app", "id": 1, "method": "GET", "url": "sp.test/config"}"#),
            ("<", #"{"type": "fetched", "app": "app", "id": 1, "method": "GET", "url": "https://sp.test/"}"#),
            ("<", #"{"type": "timer", "app": "app", "id": 1}"#),
            ("<", #"{"type": "ready", "protocol": 2}"#),
            ("<", #"{"type": "bye"}"#),
            (">", #"{"type": "call", "app": "app", "call": "setRequestor", "args": {}}"#),  // no now
            (">", #"{"type": "picker", "app": "app", "outcome": "maybe", "now": 1}"#),
        ] {
            #expect(Self.problems([(direction, line)]).count == 1, "\(line)")
        }
        #expect(Self.problems([("<", #"{"type": "idle", "later": "a field of a later minor version"}"#)]).isEmpty)
    }

    /// Python's jsonschema, where the machine has it, finds the schema itself valid (draft 2020-12).
    @Test func theSchemaIsADraft202012Schema() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            "import json, sys\ntry:\n import jsonschema\nexcept ImportError:\n sys.exit(3)\n"
                + "jsonschema.Draft202012Validator.check_schema(json.load(open(sys.argv[1])))",
            packageRoot + "/docs/port-protocol.schema.json",
        ]
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return }
        process.waitUntilExit()
        #expect([0, 3].contains(process.terminationStatus), "jsonschema refuses the schema")
    }
}

/// The part of JSON Schema (draft 2020-12) the protocol's schema uses: `$ref` into `$defs`, `type`,
/// `const`, `enum`, `properties`, `required`, `additionalProperties`, `items`, `minItems`, `maxItems`,
/// `minimum`, `pattern`, `oneOf`, `anyOf`, `if`/`then`. Unknown keywords are refused, so the schema
/// cannot use one this check would ignore.
struct SchemaCheck {
    let root: Value
    static let keywords: Set<String> = [
        "$ref", "type", "const", "enum", "properties", "required", "additionalProperties", "items", "minItems",
        "maxItems", "minimum", "pattern", "oneOf", "anyOf", "if", "then", "description", "title", "$schema", "$id",
        "$defs",
    ]

    /// Why `value` is not valid by `schema`, or nil.
    func problem(_ value: Value, _ schema: Value) -> String? {
        guard case .dict(let keywords) = schema else { return "a schema that is not an object" }
        if let unknown = keywords.first(where: { !SchemaCheck.keywords.contains($0.key) }) {
            return "the schema uses \(unknown.key), which this check does not know"
        }
        if let ref = schema["$ref"]?.stringValue {
            let name = String(ref.dropFirst("#/$defs/".count))
            guard ref.hasPrefix("#/$defs/"), let target = root["$defs"]?[name] else { return "no definition \(ref)" }
            if let why = problem(value, target) { return why }
        }
        if let types = schema["type"] {
            let allowed = types.listValue?.compactMap(\.stringValue) ?? [types.stringValue ?? ""]
            guard allowed.contains(where: { SchemaCheck.isType(value, $0) }) else { return "not \(allowed)" }
        }
        if let constant = schema["const"], value != constant { return "not \(constant)" }
        if let choices = schema["enum"]?.listValue, !choices.contains(value) { return "\(value) not one of \(choices)" }
        if let minimum = schema["minimum"]?.intValue, let n = value.intValue, n < minimum { return "below \(minimum)" }
        if let pattern = schema["pattern"]?.stringValue, let text = value.stringValue,
            text.range(of: pattern, options: .regularExpression) == nil
        {
            return "\(text) does not match \(pattern)"
        }
        if case .dict(let entries) = value {
            for key in schema["required"]?.listValue?.compactMap(\.stringValue) ?? [] where value[key] == nil {
                return "no \(key)"
            }
            for entry in entries {
                if let property = schema["properties"]?[entry.key] {
                    if let why = problem(entry.value, property) { return "\(entry.key): \(why)" }
                } else if let other = schema["additionalProperties"], let why = problem(entry.value, other) {
                    return "\(entry.key): \(why)"
                }
            }
        }
        if let list = value.listValue {
            if let minimum = schema["minItems"]?.intValue, list.count < minimum { return "fewer than \(minimum) items" }
            if let maximum = schema["maxItems"]?.intValue, list.count > maximum { return "more than \(maximum) items" }
            if let items = schema["items"] {
                for (i, item) in list.enumerated() { if let why = problem(item, items) { return "[\(i)]: \(why)" } }
            }
        }
        if let branches = schema["oneOf"]?.listValue {
            let valid = branches.filter { problem(value, $0) == nil }.count
            guard valid == 1 else { return valid == 0 ? "valid by none of oneOf" : "valid by \(valid) of oneOf" }
        }
        if let branches = schema["anyOf"]?.listValue, !branches.contains(where: { problem(value, $0) == nil }) {
            return "valid by none of anyOf"
        }
        if let condition = schema["if"], problem(value, condition) == nil, let then = schema["then"],
            let why = problem(value, then)
        {
            return why
        }
        return nil
    }

    static func isType(_ value: Value, _ type: String) -> Bool {
        switch (type, value) {
        case ("object", .dict), ("array", .list), ("string", .string), ("null", .null), ("boolean", .bool),
            ("integer", .int):
            return true
        default: return false
        }
    }
}
