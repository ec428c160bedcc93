import Foundation

/// The replayer that a fuzz target becomes in a normal build: it runs the libFuzzer entry point over
/// every file under the paths given (a seed corpus, a crash file), so CI checks the corpus and a
/// crash found by libFuzzer can be replayed in a debugger-friendly build.
public enum CorpusReplay {
    public typealias Entry = (UnsafePointer<UInt8>?, Int) -> CInt

    public static func run(_ entry: Entry) {
        let paths = Array(CommandLine.arguments.dropFirst())
        guard !paths.isEmpty else {
            FileHandle.standardError.write(Data("usage: \(CommandLine.arguments[0]) FILE-OR-FOLDER...\n".utf8))
            exit(2)
        }
        var count = 0
        for path in paths {
            for file in files(under: path) {
                guard let data = FileManager.default.contents(atPath: file) else {
                    FileHandle.standardError.write(Data("cannot read \(file)\n".utf8))
                    exit(2)
                }
                let bytes = [UInt8](data)
                _ = bytes.withUnsafeBufferPointer { entry($0.baseAddress, $0.count) }
                count += 1
            }
        }
        print("replayed \(count) inputs")
    }

    static func files(under path: String) -> [String] {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else { return [path] }
        guard isDir.boolValue else { return [path] }
        let items = (FileManager.default.enumerator(atPath: path)?.allObjects as? [String]) ?? []
        return items.sorted().map { path + "/" + $0 }.filter {
            var d: ObjCBool = false
            return FileManager.default.fileExists(atPath: $0, isDirectory: &d) && !d.boolValue
        }
    }
}
