import Foundation
import Live
import MockPass
import PassModel
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

/// A server started for one scenario, in this process, serving its world as written. It also
/// listens as a forward proxy whose tunnels use the run's CA (`RunAuthority`), handed to a port in
/// `hello` (docs/PORTING.md); when no CA could be made the server has no proxy, and nothing else changes.
final class InProcessServer: LiveServerControl {
    let server: MockPassServer
    let origins: [LoggedRequest.Host: String]
    /// The proxy's URL and the CA's certificate file.
    let proxy: (url: String, caFile: String)?

    init(_ setup: SimulationSetup) throws(LiveError) {
        var options = MockPassServer.Options(
            seed: setup.seed, conditions: setup.links,
            clock: LiveClock(heldAt: .simulationStart), logLimit: Int(Int32.max),
            urls: .asWritten)
        // The scenario's world is one device: every request the server gets is that device's.
        options.forwardedFor = SimulationSetup.deviceAddress
        // The harness on loopback is the edge: it names the device and the second screen in
        // X-Forwarded-For, as Adobe's edge names a client's address.
        options.trustedProxies = .loopback
        let authority = RunAuthority.shared
        if let authority {
            options.tls = MockPassServer.TLS(authority: authority.authority, direct: false)
            options.proxyPort = 0
        }
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
        if let authority, let url = server.proxyURL {
            proxy = (url, authority.certificateFile)
        } else {
            proxy = nil
        }
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
/// `POST /admin/world` (`"urls":"as-written"`), the clock held with `POST /admin/clock` (`"hold"`),
/// `net` steps sent to `POST /admin/net`, the log read from `GET /admin/log`; every request carries
/// the server's admin token and its parameters as JSON. One scenario at a time per server.
final class RemoteServer: LiveServerControl {
    let adminURL: String
    let origins: [LoggedRequest.Host: String]
    private let admin: CurlTransport
    private let token: String?
    private var held: Instant?

    /// `world`: the scenario's header and world statements as `passim serve --world` reads them.
    init(adminURL: String, token: String?, world: String) throws(LiveError) {
        self.adminURL = adminURL.withoutTrailingSlash
        self.token = token
        admin = try CurlTransport()
        let load = RemoteServer.post(
            self.adminURL, AdminRoute.world.path, [("world", .string(world)), ("urls", .string("as-written"))],
            token: token)
        let answer = try RemoteServer.call(admin, load, token: token, what: "loading the world")
        var origins: [LoggedRequest.Host: String] = [:]
        for line in answer.bodyText.split(separator: "\n") {
            guard let v = try? Value(jsonText: String(line)), let name = v["host"]?.stringValue,
                let host = LoggedRequest.Host(name), let live = v["live"]?.stringValue,
                let origin = URLParts(live)?.origin
            else {
                throw LiveError("the server's /admin/world answer is not host lines: \(line)")
            }
            origins[host] = origin
        }
        self.origins = origins
    }

    /// Whether the server at `adminURL` answers its admin endpoint with this token (`GET /admin/hosts`).
    static func check(adminURL: String, token: String?) throws(LiveError) {
        guard let token, !token.isEmpty else {
            throw LiveError(
                "no admin token for the server at \(adminURL): give --admin-token TOKEN or set "
                    + "PASSIM_ADMIN_TOKEN (passim serve prints it on its admin-token line)")
        }
        let admin = try CurlTransport()
        let request = HTTPRequest(
            method: "GET", url: AdminRoute.hosts.url(adminURL.withoutTrailingSlash), headers: authorization(token))
        switch admin.perform(request, timeout: .seconds(10)) {
        case .response(let r) where r.status == 200: return
        case .response(let r) where r.status == 401 || r.status == 403:
            throw LiveError(
                "the server at \(adminURL) refused the admin token (HTTP \(r.status): "
                    + "\(r.bodyText.trimmingCharacters(in: .whitespacesAndNewlines)))")
        case .response(let r):
            throw LiveError(
                "\(adminURL) does not answer as passim serve's admin endpoint: GET /admin/hosts answered HTTP \(r.status)"
            )
        case .failure(let why): throw LiveError("cannot reach the server's admin endpoint at \(adminURL): \(why)")
        case .timeout: throw LiveError("the server's admin endpoint at \(adminURL) did not answer in 10 s")
        }
    }

    func hold(at instant: Instant) throws(LiveError) {
        guard held != instant else { return }
        _ = try call(
            post(AdminRoute.clock.path, [("hold", .int(Int(instant.milliseconds)))]), what: "holding the clock")
        held = instant
    }

    func apply(_ command: NetCommand, to host: LoggedRequest.Host) throws(LiveError) {
        var fields: [(String, Value)] = [("host", .string(host.description))]
        switch command {
        case .mode(let m): fields.append(("mode", .string(m.rawValue)))
        case .latency(let d): fields.append(("latency", .string("\(d.value)ms")))
        case .fail(let f):
            fields += [("fail", .int(f.remaining)), ("status", .int(f.status))]
            if let p = f.pathPattern { fields.append(("path", .string(p))) }
            if let b = f.body { fields.append(("body", .string(b))) }
        }
        _ = try call(post(AdminRoute.net.path, fields), what: "a net step")
    }

    /// The log; a log that cannot be read is empty (the `seen` step that needs it then fails and says what it got).
    /// Read page by page (`after`, `X-Passim-Next-After`): the server answers at most a page at a time.
    func log() -> [LoggedRequest] {
        var entries: [LoggedRequest] = []
        var after = 0
        while true {
            let url = AdminRoute.log.url(
                adminURL, query: [("after", "\(after)"), ("limit", "\(RemoteServer.logPage)")])
            let request = HTTPRequest(method: "GET", url: url, headers: authorization)
            guard let answer = try? call(request, what: "the log") else { return entries }
            let lines = answer.bodyText.split(separator: "\n")
            entries += lines.compactMap { try? LoggedRequest(jsonLine: String($0)) }
            guard lines.count == RemoteServer.logPage,
                let next = answer.headers["X-Passim-Next-After"].flatMap({ Int($0) }), next > after
            else { return entries }
            after = next
        }
    }

    static let logPage = 1000

    func close() {}

    private var authorization: HTTPHeaders { RemoteServer.authorization(token) }

    static func authorization(_ token: String?) -> HTTPHeaders {
        token.map { [("Authorization", "Bearer " + $0)] } ?? []
    }

    private func post(_ path: String, _ fields: [(String, Value)]) -> HTTPRequest {
        RemoteServer.post(adminURL, path, fields, token: token)
    }

    private func call(_ request: HTTPRequest, what: String) throws(LiveError) -> HTTPResponse {
        try RemoteServer.call(admin, request, token: token, what: what)
    }

    /// The admin endpoint takes its parameters as a JSON object, never as a form or a query.
    static func post(_ adminURL: String, _ path: String, _ fields: [(String, Value)], token: String?)
        -> HTTPRequest
    {
        var headers = authorization(token)
        headers.add("Content-Type", "application/json")
        let body = Value.dict(fields.map { Value.Entry($0.0, $0.1) }).jsonText
        return HTTPRequest(method: "POST", url: adminURL + path, headers: headers, body: Array(body.utf8))
    }

    private static func call(
        _ admin: CurlTransport, _ request: HTTPRequest, token: String?,
        what: String
    ) throws(LiveError) -> HTTPResponse {
        switch admin.perform(request, timeout: .seconds(10)) {
        case .response(let r) where r.status == 200: return r
        case .response(let r) where r.status == 401 && token == nil:
            throw LiveError(
                "the server refused \(what): HTTP 401: give its admin token with --admin-token TOKEN or "
                    + "PASSIM_ADMIN_TOKEN (passim serve prints it on its admin-token line)")
        case .response(let r):
            throw LiveError(
                "the server refused \(what): HTTP \(r.status) \(r.bodyText.trimmingCharacters(in: .whitespacesAndNewlines))"
            )
        case .failure(let why):
            throw LiveError("cannot reach the server's admin endpoint for \(what) (\(request.url)): \(why)")
        case .timeout: throw LiveError("the server's admin endpoint did not answer \(what) in 10 s")
        }
    }
}

extension String {
    var withoutTrailingSlash: String { hasSuffix("/") ? String(dropLast()) : self }
}

/// One CA for a whole `passim run --live`, made on first use and written (certificate, and its key
/// with mode 0600) to a fresh private temporary directory, so every scenario's proxy chains to the file
/// a port was told about. nil when it cannot be made or written.
enum RunAuthority {
    struct Files: Sendable {
        var authority: CertificateAuthority
        var certificateFile: String
        var directory: String
    }

    static let shared: Files? = {
        let template = NSTemporaryDirectory() + "passim-run-ca-XXXXXX"
        var bytes = Array(template.utf8CString)
        let made = bytes.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }
        guard let made, let authority = try? CertificateAuthority() else { return nil }
        let dir = String(cString: made)
        let certificate = dir + "/ca.pem"
        do { try authority.write(certificateTo: certificate, keyTo: dir + "/ca-key.pem") } catch { return nil }
        // The key must not outlive the run: the files go when the process exits normally.
        atexit {
            guard let dir = RunAuthority.shared?.directory else { return }
            try? FileManager.default.removeItem(atPath: dir)
        }
        return Files(authority: authority, certificateFile: certificate, directory: dir)
    }()
}
