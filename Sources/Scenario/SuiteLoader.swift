import Foundation
import ScenarioSyntax
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finds `.scenario` files under the paths given on the command line, in a stable order.
public enum SuiteLoader {
    public struct LoadError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Files as given, folders searched recursively; sorted by path within each folder so every run
    /// sees the same order. Symbolic links are followed (to files and folders; a folder met twice is
    /// searched once, so a link loop ends), and a folder is searched whatever its name, `x.scenario`
    /// included. A folder holding no scenario is an error unless `allowEmpty`: a CI job whose path is
    /// wrong would otherwise pass having run nothing.
    public static func files(in paths: [String], allowEmpty: Bool = false) throws -> [String] {
        var out: [String] = []
        for path in paths {
            guard let info = status(of: path) else {
                throw LoadError(description: "\(path): no such file or directory")
            }
            guard info.isDirectory else {
                out.append(path)
                continue
            }
            let found = try scenarios(under: path, root: info)
            if found.isEmpty, !allowEmpty {
                throw LoadError(description: "\(path): no .scenario file in this folder (--allow-empty accepts that)")
            }
            out += found
        }
        return out
    }

    private struct FileStatus {
        var isDirectory: Bool
        var isRegular: Bool
        /// Device and inode: the same folder reached through two links is one folder.
        var identity: [UInt64]
    }

    /// `stat`, which follows symbolic links; nil when there is nothing at the end of the path.
    private static func status(of path: String) -> FileStatus? {
        var s = stat()
        guard stat(path, &s) == 0 else { return nil }
        let type = s.st_mode & S_IFMT
        return FileStatus(
            isDirectory: type == S_IFDIR, isRegular: type == S_IFREG,
            identity: [UInt64(s.st_dev), UInt64(s.st_ino)])
    }

    /// The `.scenario` files under `folder`, searched without recursion (a deep tree cannot exhaust
    /// the stack), as `folder/relative/path`, sorted by their relative path.
    private static func scenarios(under folder: String, root: FileStatus) throws -> [String] {
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        var seen: Set<[UInt64]> = [root.identity]
        var pending = [""]
        var found: [String] = []
        while let relative = pending.popLast() {
            let entries: [String]
            do {
                entries = try FileManager.default.contentsOfDirectory(atPath: prefix + relative)
            } catch {
                throw LoadError(description: "\(prefix + relative): cannot read folder")
            }
            for name in entries {
                let item = relative + name
                guard let info = status(of: prefix + item) else {
                    // A dangling link named like a scenario is kept: reading it then says what is wrong.
                    if name.hasSuffix(".scenario") { found.append(item) }
                    continue
                }
                if info.isDirectory {
                    if seen.insert(info.identity).inserted { pending.append(item + "/") }
                } else if info.isRegular, name.hasSuffix(".scenario") {
                    found.append(item)
                }
            }
        }
        return found.sorted().map { prefix + $0 }
    }
}
