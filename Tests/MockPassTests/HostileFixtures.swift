#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads `Fixtures/hostile/<relative>`, found by walking up from this source file to the package
/// root, so tests need no SwiftPM resources.
enum HostileFixtures {
    static func bytes(_ relative: String, _ filePath: String = #filePath) throws -> [UInt8] {
        var dir = filePath
        while let slash = dir.lastIndex(of: "/") {
            dir = String(dir[..<slash])
            if dir.isEmpty { break }
            if access(dir + "/Package.swift", F_OK) == 0 { return try read(dir + "/Fixtures/hostile/" + relative) }
        }
        throw TestFailure("no Package.swift above \(filePath)")
    }

    private static func read(_ path: String) throws -> [UInt8] {
        guard let file = fopen(path, "rb") else { throw TestFailure("cannot read \(path)") }
        defer { fclose(file) }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = fread(&buffer, 1, buffer.count, file)
            if n > 0 { out.append(contentsOf: buffer[0..<n]) }
            if n < buffer.count { break }
        }
        return out
    }
}
