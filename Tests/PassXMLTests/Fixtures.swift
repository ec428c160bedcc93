import Testing

/// Reads files under `Fixtures/xml/` by walking up from this source file to the package root
/// (the folder holding Package.swift), so tests need no SwiftPM resources.
enum Fixtures {
    static func root(_ filePath: String = #filePath) throws -> String {
        var dir = filePath
        while let slash = dir.lastIndex(of: "/") {
            dir = String(dir[..<slash])
            if dir.isEmpty { break }
            if FileBytes.exists(dir + "/Package.swift") { return dir }
        }
        throw FixtureError(message: "no Package.swift above \(filePath)")
    }

    static func bytes(_ relative: String) throws -> [UInt8] {
        let path = try root() + "/Fixtures/xml/" + relative
        guard let bytes = FileBytes.read(path) else { throw FixtureError(message: "cannot read \(path)") }
        return bytes
    }
}

struct FixtureError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Plain libc file reading: keeps the test target free of Foundation (and of its XML types).
enum FileBytes {
    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    static func read(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
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
