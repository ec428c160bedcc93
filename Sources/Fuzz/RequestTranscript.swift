import MockPass
import PassModel
import Scenario
import ScenarioSyntax

/// The differential fuzzer's reference transcript with the requests in it (CONFORMANCE.md choice
/// 72): after each step's `<` lines, a `seen SP METHOD PATH with …` line for
/// every request the mock received since the previous step, carrying the fields the spec pins. A
/// port that sends the wrong request (an authorization's `withData:` left out of `generic_data`)
/// fails that `seen` line even when the mock answers it the same, and the shrunk finding replays as
/// a suite scenario. Only what the spec pins is written: the method, the route with the mock's own
/// codes masked, and the fields of `pinnedFields`, by name, as sent. Not header order, tokens,
/// signatures, nonces or anything else a port may send its own way.
///
/// The parity fuzzer compares two wires, whose requests differ by design: it never writes these.
enum RequestTranscript {
    /// The request fields BEHAVIOR.md, adobe-pass-facts.md and the suite's own `seen … with` lines
    /// pin to what the app asked for or what the world is: read from the query or form first, else
    /// from a header of that name (`setOptions`' values travel as headers). Sorted, as written.
    static let pinnedFields: [String] = [
        "applicationProfile", "device_info", "domain_name", "generic_data", "grant_type", "mso_id", "mvpd",
        "redirectUrl", "redirect_url", "requestor", "requestor_id", "resource", "resource_id", "visitorID",
    ]

    /// The reference's transcript of `file`: `ExploratoryRunner(pinsTimes: true)`'s lines, with each
    /// step's `seen` lines after its `<` lines.
    static func explore(_ file: ScenarioFile) -> ExploratoryRunner.Result {
        let session = ExplorationSession(file: file, pinsTimes: true)
        var lines: [String] = []
        var written = 0
        var logged = 0
        for step in file.steps {
            if case .expect = step.value { continue }
            session.perform(step)
            let result = session.result
            if result.failure != nil || result.inapplicable != nil { return result }
            lines += result.lines[written...]
            written = result.lines.count
            let log = session.simulator.requestLog
            // A bounded log that dropped entries starts over (the fuzzer's programs stay far below).
            if logged > log.count { logged = 0 }
            lines += log[logged...].compactMap(seenLine)
            logged = log.count
        }
        var result = session.finish(checkLiveness: true)
        // The end's callbacks; the requests of the end (time running until nothing is pending) are
        // not written: a `seen` line after the last `<` is read before the replay's own end runs.
        lines += result.lines[written...]
        result.lines = lines
        return result
    }

    /// The `seen` line of a request the mock received from the app (or its browser) on an SP, or nil:
    /// an IdP's (the DSL has no `seen` for them), one an injected failure answered (it never reached
    /// the mock), or a path the DSL cannot write as it is.
    static func seenLine(_ entry: LoggedRequest) -> String? {
        guard entry.fault == nil, case .sp(let sp) = entry.host, let path = pathPattern(entry.method, entry.path)
        else { return nil }
        var with = ""
        for name in pinnedFields {
            guard let value = entry.parameter(name) ?? entry.headers[name] else { continue }
            with += " \(name)=\(Value.quote(value))"
        }
        return "seen \(sp) \(entry.method) \(path)" + (with.isEmpty ? "" : " with" + with)
    }

    /// The path as a `seen` line writes it: literal, or a `/regex/` whose segment holding a code
    /// the mock made (a registration code, a REST v2 session code) matches any code.
    static func pathPattern(_ method: String, _ path: String) -> String? {
        var masked: Int?
        if let v2 = V2Route(method: method, path: path) {
            switch v2 {
            case .resumeSession, .sessionStatus, .authenticate, .profileForCode:
                masked = path.split(separator: "/", omittingEmptySubsequences: false).count - 1
            default: break
            }
        } else if Route.route(atSPPath: path)?.route == .checkAuthentication {
            masked = path.split(separator: "/", omittingEmptySubsequences: false).count - 1
        }
        guard let masked else {
            let plain =
                !path.isEmpty && !path.hasSuffix("/") && path.hasPrefix("/")
                && !path.unicodeScalars.contains { $0.value <= 0x20 || $0 == "\"" || $0.value == 0x7F }
            return plain ? path : nil
        }
        var body: [String] = []
        for (i, segment) in path.split(separator: "/", omittingEmptySubsequences: false).enumerated() {
            if i == masked {
                body.append(".+")
                continue
            }
            guard let escaped = escaped(segment) else { return nil }
            body.append(escaped)
        }
        return "/" + body.joined(separator: "\\/") + "/"
    }

    /// A fixed segment inside a `/regex/`: letters, digits, `_-~%` as they are, `.` escaped; nil for
    /// anything else (the request is then not written).
    private static func escaped(_ segment: Substring) -> String? {
        var out = ""
        for c in segment.unicodeScalars {
            if ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c)
                || "_-~%".unicodeScalars.contains(c)
            {
                out.unicodeScalars.append(c)
            } else if c == "." {
                out += "\\."
            } else {
                return nil
            }
        }
        return out
    }
}
