import Foundation
import ScenarioSyntax

/// Finds `.scenario` files under the paths given on the command line, in a stable order.
public enum SuiteLoader {
    public struct LoadError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Files as given, folders searched recursively; sorted by path so every run sees the same order.
    public static func files(in paths: [String]) throws -> [String] {
        var out: [String] = []
        let fm = FileManager.default
        for path in paths {
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDir) else {
                throw LoadError(description: "\(path): no such file or directory")
            }
            if isDir.boolValue {
                guard let e = fm.enumerator(atPath: path) else { throw LoadError(description: "\(path): cannot read folder") }
                var found: [String] = []
                while let item = e.nextObject() as? String {
                    if item.hasSuffix(".scenario") { found.append(path.hasSuffix("/") ? path + item : path + "/" + item) }
                }
                out += found.sorted()
            } else {
                out.append(path)
            }
        }
        return out
    }
}
