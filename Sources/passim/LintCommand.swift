import ArgumentParser
import Foundation
import Lint

/// `passim lint JOURNAL`: judges a request journal against the client rules.
struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check a client's requests against Adobe's rules (a journal from GET /admin/log).",
        discussion: """
            JOURNAL is JSON lines as `GET /admin/log` writes them (a saved file, or - for standard input).
            The text report has one block per broken rule: how many times, its citation, the first and
            the last violation with the requests that show it (sequence number, seconds since the first
            request, method, path, answer); its last line names the broken rules. --format json and junit
            list every violation (up to 100 a rule, and the last); md and html are pages to publish
            (a client's report card), without request times, with no link leaving the page.
            Exit status: 0 no mandatory rule broken, 1 a mandatory rule broken, 2 not a journal, or
            a journal no rule applies to (empty: a client pointed elsewhere must not pass).
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, junit, md, html
    }

    @Argument(help: "The journal file (- for standard input).")
    var journal: String?

    @Option(help: "How to print the report: text, json, junit, md or html.")
    var format: Format = .text

    @Flag(help: "Print the report as JSON (the same as --format json).")
    var json = false

    @Option(help: ArgumentHelp("The heading of an md or html report.", valueName: "TEXT"))
    var title = "passim lint report"

    @Option(
        help: ArgumentHelp(
            "A paragraph under the heading of an md or html report (where the journal comes from).", valueName: "TEXT"))
    var about: String?

    @Option(help: ArgumentHelp("Also write a JUnit XML report to FILE.", valueName: "FILE"))
    var junit: String?

    @Option(help: ArgumentHelp("Refuse a journal larger than this many bytes.", valueName: "BYTES"))
    var maxBytes: Int = Journal.defaultMaxBytes

    @Flag(help: "List the rules (id, severity, families, citation) and exit.")
    var rules = false

    func run() throws {
        if rules {
            var out = ""
            for r in Rules.all {
                out +=
                    "\(r.id) [\(r.severity.rawValue); \(r.families.map(\.rawValue).joined(separator: ", "))]\n  \(r.title)\n  cites: \(r.citation)\n"
            }
            out += "\nJudged by the AccessEnabler facade from calls and callbacks (AccessEnabler.livenessFindings):\n"
            for r in LivenessMonitor.rules { out += "\(r.id) [mandatory; SDK]\n  \(r.title)\n  cites: \(r.citation)\n" }
            FileHandle.standardOutput.write(Data(out.utf8))
            return
        }
        guard let journal else { throw ValidationError("give a journal file (or --rules)") }
        let parsed: Journal
        do {
            parsed = try Journal.parse(try LintCommand.read(journal, maxBytes: maxBytes), maxBytes: maxBytes)
        } catch let error as JournalError {
            FileHandle.standardError.write(Data("passim lint: \(journal): \(error.message)\n".utf8))
            throw ExitCode(2)
        }
        let report = LintReport(parsed)
        let out =
            switch json ? .json : format {
            case .text: report.text
            case .json: report.json.jsonText + "\n"
            case .junit: report.junit
            case .md: report.markdown(title: title, about: about)
            case .html: report.html(title: title, about: about)
            }
        FileHandle.standardOutput.write(Data(out.utf8))
        if let junit {
            do { try Data(report.junit.utf8).write(to: URL(fileURLWithPath: junit)) } catch {
                FileHandle.standardError.write(
                    Data("passim lint: cannot write \(junit): \(error.localizedDescription)\n".utf8))
                throw ExitCode(2)
            }
        }
        if let reason = report.emptyReason {
            FileHandle.standardError.write(Data("passim lint: \(journal): \(reason)\n".utf8))
            throw ExitCode(2)
        }
        if report.exitStatus != 0 { throw ExitCode(report.exitStatus) }
    }

    /// At most `maxBytes` + 1 bytes are read, so a huge file is refused without being loaded.
    static func read(_ path: String, maxBytes: Int) throws -> String {
        let handle: FileHandle
        if path == "-" {
            handle = FileHandle.standardInput
        } else {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw JournalError("no such file")
            }
            guard !isDirectory.boolValue else { throw JournalError("it is a directory") }
            guard let h = FileHandle(forReadingAtPath: path) else {
                throw JournalError("cannot open it (permission denied?)")
            }
            handle = h
        }
        defer { if path != "-" { try? handle.close() } }
        var data = Data()
        let limit = max(0, maxBytes) + 1
        while data.count < limit {
            let chunk: Data?
            do { chunk = try handle.read(upToCount: min(1 << 20, limit - data.count)) } catch {
                throw JournalError("cannot read it: \(error.localizedDescription)")
            }
            guard let chunk, !chunk.isEmpty else { break }
            data.append(chunk)
        }
        guard data.count <= maxBytes else {
            throw JournalError("the journal is larger than \(maxBytes) bytes (--max-bytes)")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw JournalError("not valid UTF-8") }
        return text
    }
}
