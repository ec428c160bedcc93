import Foundation
import Passim
import Testing

/// What the documents and help texts say of the command line is what it does: the version it
/// prints, the exit status a help text promises, the files a command of the README names.
extension CommandLineOptionsTests {
    static func read(_ relative: String) throws -> String {
        try String(contentsOfFile: root + "/" + relative, encoding: .utf8)
    }

    /// `passim --version` prints the version the package states once (`PassimRelease.library`), the
    /// one CHANGELOG.md's table names.
    @Test func versionIsTheLibrarysVersion() throws {
        let version = try passim(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout == PassimRelease.library + "\n", "\(version.stdout)")
        #expect(version.stderr.isEmpty)
        let changelog = try Self.read("CHANGELOG.md")
        #expect(
            changelog.contains(
                "| the library (products `Passim`, `PassimConformance`, `PassimMock`) | \(PassimRelease.library) |"))
    }

    /// `passim help serve` says what a port in use ends with (2, as `aPortInUseIsOneLineWithTheWayOut`
    /// and `serveOldPortIsTheListeningPort` check) and that every SP serves REST API v2.
    @Test func serveHelpSaysItsExitStatusAndRESTv2() throws {
        for arguments in [["help", "serve"], ["serve", "--help"]] {
            let help = try passim(arguments)
            #expect(help.status == 0)
            // The help text wraps lines at the terminal's width: compare words.
            let text = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(text.contains("REST API v2 (/api/v2/"), "\(text)")
            #expect(
                text.contains("2 when it cannot start: the world file or the CA is unusable, or a port cannot be bound")
            )
            #expect(!text.contains("1 if a port cannot be bound"))
        }
    }

    /// Every `--world FILE` a document's command names is a file of the repository, or one it shows.
    @Test func everyWorldADocumentNamesExists() throws {
        let documents =
            ["README.md"]
            + (try FileManager.default.contentsOfDirectory(atPath: Self.root + "/docs"))
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        var named = 0
        for document in documents {
            let text = try Self.read(document)
            for line in text.split(separator: "\n") where line.contains("--world ") {
                for part in line.components(separatedBy: "--world ").dropFirst() {
                    let path = String(part.prefix { !$0.isWhitespace && $0 != "`" && $0 != ")" })
                    guard path.hasSuffix(".scenario") else { continue }
                    named += 1
                    // A file of the repository, or one the document itself shows (a block headed `# NAME`).
                    let shown = text.contains("```\n# \(path)\n")
                    #expect(
                        shown || FileManager.default.fileExists(atPath: Self.root + "/" + path),
                        "\(document): --world \(path) names no file of the repository")
                }
            }
        }
        #expect(named >= 3)
    }

    /// A version to depend on by URL is one the repository has tagged: with no tag, the documents
    /// name a branch (`git tag` lists none today).
    @Test func noDocumentPromisesAnUntaggedVersion() throws {
        let tags = try gitTags()
        let pages = [
            "Sources/Passim/Passim.docc/Passim.md", "Sources/Passim/Passim.docc/TestingYourPort.md", "README.md",
        ]
        for page in pages {
            let text = try Self.read(page)
            var rest = Substring(text)
            while let range = rest.range(of: "from: \"") {
                let version = String(rest[range.upperBound...].prefix { $0 != "\"" })
                if let tags { #expect(tags.contains(version), "\(page) depends on \(version), which is not tagged") }
                rest = rest[range.upperBound...]
            }
        }
    }

    /// `git tag`'s lines, or nil outside a git checkout.
    func gitTags() throws -> Set<String>? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-C", Self.root, "tag"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return Set(String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init))
    }

    /// Each paragraph of the README's prose ends a sentence (one stopped mid-sentence once).
    @Test func everyReadmeParagraphEnds() throws {
        let text = try Self.read("README.md")
        var inCode = false
        var paragraph: [Substring] = []
        var unfinished: [String] = []
        func close() {
            defer { paragraph = [] }
            guard let last = paragraph.last?.trimmingCharacters(in: .whitespaces), let first = paragraph.first
            else { return }
            // Headings, tables and lists are not sentences.
            if first.hasPrefix("#") || first.hasPrefix("|") || first.hasPrefix("- ") { return }
            if !(last.hasSuffix(".") || last.hasSuffix(":") || last.hasSuffix(").")) {
                unfinished.append(String(last))
            }
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                if !inCode { close() }
                inCode.toggle()
                continue
            }
            if inCode { continue }
            if line.trimmingCharacters(in: .whitespaces).isEmpty { close() } else { paragraph.append(line) }
        }
        close()
        #expect(unfinished.isEmpty, "paragraphs of README.md that stop mid-sentence: \(unfinished)")
    }
}
