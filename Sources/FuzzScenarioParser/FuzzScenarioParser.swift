import FuzzSupport
import ScenarioSyntax

/// libFuzzer target: the scenario parser must turn any bytes into a file or a Diagnostic, never crash.
/// Built for fuzzing with `-Xswiftc -DFUZZING --sanitize fuzzer` (docs/FUZZING.md); a normal build
/// makes a replayer that runs the same entry point over files and folders (the seed corpus in CI).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScenarioParser(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = try? ScenarioParser.parse(text, path: "fuzz.scenario")
    return 0
}

#if !FUZZING
    @main
    enum Replay {
        static func main() { CorpusReplay.run(fuzzScenarioParser) }
    }
#endif
