import Foundation
import Live
import MockPass
import PassModel
import ScenarioSyntax
import Simulation

/// What the live wire needs from the mock server: where each host listens, the clock held at an
/// instant, `net` steps, and the request log. The server runs in-process (`passim run --live`) or
/// is a `passim serve` reached through its admin endpoint (`--live --server URL`).
protocol LiveServerControl: AnyObject {
    /// `http://HOST:PORT` of each host's listener.
    var origins: [LoggedRequest.Host: String] { get }
    func hold(at instant: Instant) throws(LiveError)
    func apply(_ command: NetCommand, to host: LoggedRequest.Host) throws(LiveError)
    func log() -> [LoggedRequest]
    func close()
}

/// A server started for one scenario, in this process, serving its world as written.
final class InProcessServer: LiveServerControl {
    let server: MockPassServer
    let origins: [LoggedRequest.Host: String]

    init(_ setup: SimulationSetup) throws(LiveError) {
        let options = MockPassServer.Options(seed: setup.seed, conditions: setup.links,
                                             clock: LiveClock(heldAt: .simulationStart), logLimit: Int(Int32.max),
                                             urls: .asWritten)
        do {
            server = try MockPassServer.startAndWait(world: setup.world, options: options)
        } catch let error as LiveError {
            throw error
        } catch {
            throw LiveError("the live server did not start: \(error)")
        }
        var origins: [LoggedRequest.Host: String] = [:]
        for h in server.hosts { origins[h.host] = URLParts(h.liveURL)?.origin }
        self.origins = origins
    }

    func hold(at instant: Instant) { server.clock.hold(at: instant) }

    func apply(_ command: NetCommand, to host: LoggedRequest.Host) throws(LiveError) {
        do {
            try server.applyAndWait(command, to: host)
        } catch {
            throw LiveError("\(error)")
        }
    }

    func log() -> [LoggedRequest] { server.requestLog() }

    func close() { try? server.shutdownAndWait() }
}

/// A running `passim serve`, driven through its admin endpoint: the scenario's world is loaded with
/// `POST /admin/world?urls=as-written`, the clock held with `POST /admin/clock hold=`, `net` steps sent
/// to `POST /admin/net`, the log read from `GET /admin/log`. One scenario at a time per server.
final class RemoteServer: LiveServerControl {
    let adminURL: String
    let origins: [LoggedRequest.Host: String]
    private let admin: CurlTransport
    private var held: Instant?

    init(adminURL: String, file: ScenarioFile) throws(LiveError) {
        self.adminURL = adminURL.withoutTrailingSlash
        admin = try CurlTransport()
        let world = try RemoteServer.worldText(of: file)
        let answer = try RemoteServer.call(admin, HTTPRequest(method: "POST", url: self.adminURL + "/admin/world?urls=as-written",
                                                              headers: [("Content-Type", "text/plain; charset=utf-8")],
                                                              body: Array(world.utf8)), what: "loading the world")
        var origins: [LoggedRequest.Host: String] = [:]
        for line in answer.bodyText.split(separator: "\n") {
            guard let v = try? Value(jsonText: String(line)), let name = v["host"]?.stringValue,
                  let host = LiveHost.host(named: name), let live = v["live"]?.stringValue, let origin = URLParts(live)?.origin else {
                throw LiveError("the server's /admin/world answer is not host lines: \(line)")
            }
            origins[host] = origin
        }
        self.origins = origins
    }

    /// The file's header and world statements: its text with the step lines left blank, so the
    /// server's diagnostics keep the file's line numbers.
    static func worldText(of file: ScenarioFile) throws(LiveError) -> String {
        guard let data = FileManager.default.contents(atPath: file.path) else { throw LiveError("cannot read \(file.path)") }
        let stepLines = Set(file.steps.map(\.location.line))
        return String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .enumerated().map { stepLines.contains($0.offset + 1) ? "" : String($0.element) }.joined(separator: "\n")
    }

    func hold(at instant: Instant) throws(LiveError) {
        guard held != instant else { return }
        _ = try RemoteServer.call(admin, .form(adminURL + "/admin/clock", [("hold", String(instant.milliseconds))]), what: "holding the clock")
        held = instant
    }

    func apply(_ command: NetCommand, to host: LoggedRequest.Host) throws(LiveError) {
        var fields = [("host", LiveHost.name(of: host))]
        switch command {
        case .mode(let m): fields.append(("mode", m.rawValue))
        case .latency(let d): fields.append(("latency", "\(d.value)ms"))
        case .fail(let f):
            fields += [("fail", String(f.remaining)), ("status", String(f.status))]
            if let p = f.pathPattern { fields.append(("path", p)) }
        }
        _ = try RemoteServer.call(admin, .form(adminURL + "/admin/net", fields), what: "a net step")
    }

    /// The log; a log that cannot be read is empty (the `seen` step that needs it then fails and says what it got).
    func log() -> [LoggedRequest] {
        guard let answer = try? RemoteServer.call(admin, HTTPRequest(method: "GET", url: adminURL + "/admin/log"), what: "the log") else {
            return []
        }
        return answer.bodyText.split(separator: "\n").compactMap { RemoteServer.logged(String($0)) }
    }

    func close() {}

    static func logged(_ line: String) -> LoggedRequest? {
        guard let v = try? Value(jsonText: line), let host = v["host"]?.stringValue.flatMap(LiveHost.host(named:)),
              let time = v["time"]?.intValue, let method = v["method"]?.stringValue, let path = v["path"]?.stringValue else { return nil }
        func pairs(_ key: String) -> [(String, String)] {
            (v[key]?.listValue ?? []).compactMap { p in
                guard let n = p["name"]?.stringValue, let value = p["value"]?.stringValue else { return nil }
                return (n, value)
            }
        }
        return LoggedRequest(host: host, time: Instant(milliseconds: Int64(time)), method: method, path: path,
                             parameters: pairs("parameters").map { LoggedRequest.Parameter(name: $0.0, value: $0.1) },
                             headers: HTTPHeaders(pairs("headers").map { HTTPHeader($0.0, $0.1) }))
    }

    private static func call(_ curl: CurlTransport, _ request: HTTPRequest, what: String) throws(LiveError) -> HTTPResponse {
        switch curl.perform(request, timeout: .seconds(10)) {
        case .response(let r) where r.status == 200: return r
        case .response(let r): throw LiveError("the server refused \(what): HTTP \(r.status) \(r.bodyText.trimmingCharacters(in: .whitespacesAndNewlines))")
        case .failure(let why): throw LiveError("cannot reach the server's admin endpoint for \(what) (\(request.url)): \(why)")
        case .timeout: throw LiveError("the server's admin endpoint did not answer \(what) in 10 s")
        }
    }
}

extension String {
    var withoutTrailingSlash: String { hasSuffix("/") ? String(dropLast()) : self }
}
