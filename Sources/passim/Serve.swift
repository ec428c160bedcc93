import ArgumentParser
import Dispatch
import Foundation
import Harness
import Lint
import Live
import MockPass
import Scenario
import ScenarioSyntax
import Simulation

/// `passim serve`: the world's mock SP(s) and IdPs over real HTTP on loopback ports, for an app, a
/// port of the SDK, or curl. Runs until SIGINT or SIGTERM.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve a world's mock SP(s) and MVPD IdPs over HTTP until interrupted.",
        discussion: """
            The world file holds the header and world statements of a scenario (sp, mvpd, user, requestor, \
            default-sp, seed...); `scenario "title"` is optional and steps are not allowed. Each SP and IdP \
            listens on its own port (PORT, PORT+1, ... in declaration order, SPs first) and its base URL is \
            rewritten to that port (on --public-host), so redirects and forms point at the server. One line per \
            host is printed, then `admin-token TOKEN` and `admin URL` (POST /admin/clock, POST /admin/net, \
            GET /admin/log, GET /admin/hosts, GET /admin/stores, POST /admin/world to serve another world file's text, POST \
            /admin/login to log a user in for a REST API v2 session's code: `passim login`). The admin \
            endpoint listens on 127.0.0.1 unless --admin-host says otherwise; every admin request carries \
            `Authorization: Bearer TOKEN`, names the admin's own address in Host, and sends its parameters \
            as a JSON body (Content-Type: application/json).
            Every SP serves every protocol family real clients speak, sharing one state: the SDK device \
            family (with or without /1.0), the web family (session, authorize, shortAuthorize...), client \
            registration (/o/client/*), /indiv/devices, the regcode service, REST API v1 (/api/v1/...) and \
            REST API v2 (/api/v2/...: configuration, sessions, profiles, decisions, logout, partner SSO, TempPass, \
            its logins its own); the world's `rest-v2` statements set v2's throttling, degradation, TempPass \
            limits, OAuth2 MVPDs and faults. Each endpoint, its parameters and answers: docs/WIRE.md. Every \
            limit: docs/LIMITS.md.
            --adobe serves the production host layout instead of a world file (Fixtures/worlds/adobe.scenario: \
            sp.auth.adobe.com/adobe-services and api.auth.adobe.com).
            --proxy PORT adds a forward proxy (HTTP_PROXY/HTTPS_PROXY, curl --proxy): absolute-form requests and \
            CONNECT to a host of the world are answered by passim itself, which terminates TLS with a certificate \
            for that host signed by its CA; any other host gets 502 naming the world's hosts. Nothing is ever \
            forwarded: passim makes no outgoing connection. With --proxy the world's URLs are served as written \
            (the client keeps https://sp.auth.adobe.com). --tls makes every host's own port HTTPS with the same CA. \
            The CA is made at start and written with --ca-out (the key beside it, NAME-key.pem, mode 0600), or read \
            with --ca and --ca-key; the line `ca PATH` names the certificate clients must trust \
            (curl --cacert, SSL_CERT_FILE, REQUESTS_CA_BUNDLE). Refused proxy requests and failed TLS handshakes \
            are logged on standard error. docs/SERVE.md, "Point a real client at passim".
            Exit status: 0 after SIGINT/SIGTERM (with --lint, 1 when a mandatory rule is broken); 2 when it cannot \
            start: the world file or the CA is unusable, or a port cannot be bound (one in use: the message says to \
            give other ports with --listen-port N, or --listen-port 0 for free ones).
            """)

    @Option(help: "The world file (or --adobe).")
    var world: String?

    @Flag(help: "Serve Adobe's production host layout (sp.auth.adobe.com, api.auth.adobe.com) instead of a world file.")
    var adobe = false

    @Option(help: ArgumentHelp("Also listen as a forward proxy on this port (0: a free one).", valueName: "PORT"))
    var proxy: Int?

    @Flag(help: "Every host's own port speaks HTTPS, with a certificate from passim's CA.")
    var tls = false

    @Option(
        help: ArgumentHelp(
            "Where to write the CA's certificate (PEM) made at start; its key goes beside it as NAME-key.pem, mode 0600 (default: passim-ca.pem).",
            valueName: "FILE"))
    var caOut: String?

    @Option(
        help: ArgumentHelp("Reuse this CA certificate (PEM) instead of making one; needs --ca-key.", valueName: "FILE"))
    var ca: String?

    @Option(help: ArgumentHelp("The key (PEM) of the --ca certificate.", valueName: "FILE"))
    var caKey: String?

    @Option(help: "The address the hosts listen on.")
    var host = "127.0.0.1"

    @Option(
        help: ArgumentHelp(
            "The name written into URLs (redirects, form actions) (default: the machine's host name when --host is 0.0.0.0 or ::, else --host).",
            valueName: "NAME"))
    var publicHost: String?

    @Option(help: ArgumentHelp("The address the admin endpoint listens on.", valueName: "ADDR"))
    var adminHost = "127.0.0.1"

    // Adobe's throttle counts by X-Forwarded-For: believed from anyone, it let a client pick a new
    // bucket for every call. Only a front the operator names may set it.
    @Option(
        name: .customLong("trusted-proxy"),
        help: ArgumentHelp(
            "Believe X-Forwarded-For (the throttle's key, a session's connectionIp) only from this address, a front that sets it; repeatable (default: none, the header is dropped).",
            valueName: "ADDR"))
    var trustedProxy: [String] = []

    @Option(
        help: ArgumentHelp(
            "The admin token (default: $PASSIM_ADMIN_TOKEN, else a random one, printed at start).",
            valueName: "TOKEN"))
    var adminToken: String?

    @Option(
        help: ArgumentHelp(
            "The first host's port; the others follow it (default: 8081). 0 picks free ports.", valueName: "PORT"))
    var listenPort: Int?

    /// `--listen-port`'s old name, kept working with a warning: run and fuzz's `--port` names a port
    /// command (docs/PORTING.md), so serve's TCP port stopped sharing the spelling.
    @Option(name: .customLong("port"), help: .hidden)
    var oldPort: Int?

    /// The first host's port, whichever spelling gave it.
    var port: Int { listenPort ?? oldPort ?? 8081 }

    /// How the user spelled the listening port, for the messages about it.
    var portFlag: String { oldPort != nil ? "--port" : "--listen-port" }

    static let oldPortWarning =
        "passim serve: --port is now --listen-port (--port names a port command in run and fuzz)"

    @Option(help: "The admin endpoint's port (default: PORT-1, or a free port when PORT is 0).")
    var adminPort: Int?

    @Flag(
        help:
            "Judge the clients' requests against Adobe's rules (passim lint): GET /admin/lint answers the report so far; at exit (SIGINT, SIGTERM) it goes to standard error, and the exit status is 1 when a mandatory rule is broken."
    )
    var lint = false

    // Without --seed the world's own `seed` is not used: a world written for runs must not make a
    // server's tokens guessable; a reproducible server is asked for by name.
    @Option(
        help:
            "Make the mock's tokens, secrets and codes reproducible from this seed (for tests: one value then tells the others). Default: none, every value from the system's secure random source; the world file's `seed` is not used."
    )
    var seed: UInt64?

    func validate() throws {
        if world == nil, !adobe { throw ValidationError("give --world FILE or --adobe") }
        if world != nil, adobe { throw ValidationError("--world and --adobe are two worlds: give one") }
        if let proxy, !(0...65535).contains(proxy) { throw ValidationError("--proxy takes 0-65535") }
        if (ca == nil) != (caKey == nil) { throw ValidationError("--ca and --ca-key go together") }
        if proxy == nil, !tls, ca != nil || caOut != nil {
            throw ValidationError("--ca, --ca-key and --ca-out need --proxy or --tls")
        }
        if listenPort != nil, oldPort != nil {
            throw ValidationError("--port is the old name of --listen-port: give --listen-port only")
        }
        guard (0...65535).contains(port) else { throw ValidationError("\(portFlag) takes 0-65535") }
        if let adminPort, !(0...65535).contains(adminPort) { throw ValidationError("--admin-port takes 0-65535") }
        if let token = adminToken ?? Serve.environmentToken, let problem = MockPassServer.tokenProblem(token) {
            throw ValidationError("--admin-token: \(problem)")
        }
        if publicHost?.isEmpty == true { throw ValidationError("--public-host takes a name") }
        if let bad = trustedProxy.first(where: { TrustedProxies.canonical($0) == nil }) {
            throw ValidationError("--trusted-proxy takes an IP address, not \(bad)")
        }
        if adminPort == nil, port == 1 {
            throw ValidationError("\(portFlag) 1 leaves no port below it for the admin endpoint: give --admin-port")
        }
    }

    func run() throws {
        if oldPort != nil { FileHandle.standardError.write(Data((Serve.oldPortWarning + "\n").utf8)) }
        var file: ScenarioFile
        do throws(Diagnostic) {
            if let world {
                file = try ScenarioParser.parseWorld(try Serve.read(world), path: world)
            } else {
                file = try ScenarioParser.parseWorld(StarterWorld.adobe, path: "--adobe")
            }
        } catch {
            FileHandle.standardError.write(Data((error.description + "\n").utf8))
            throw ExitCode(2)
        }
        if let seed { file.seed = seed }
        let setup = WorldBuilder.setup(for: file)
        var caLines = ""
        var tlsOptions: MockPassServer.TLS?
        if proxy != nil || tls {
            do throws(LiveError) {
                let (authority, lines) = try makeAuthority()
                tlsOptions = MockPassServer.TLS(authority: authority, direct: tls)
                caLines = lines
            } catch {
                FileHandle.standardError.write(Data("passim serve: \(error.message)\n".utf8))
                throw ExitCode(2)
            }
        }
        // Off the event loops, bounded, never blocking nor trapping on a stalled or closed stderr.
        let logWriter = LogWriter(descriptor: 2, prefix: "passim serve: ")
        var options = MockPassServer.Options(
            host: host, basePort: port, adminPort: adminPort ?? (port == 0 ? 0 : port - 1),
            seed: seed, conditions: setup.links,
            worldLoader: RunningServer.worldLoader(WorldBuilder.setup(forWorldText:)),
            publicHost: publicHost, adminHost: adminHost, adminToken: adminToken ?? Serve.environmentToken,
            tls: tlsOptions, proxyPort: proxy, log: { line in logWriter.write(line) })
        if lint { options.lintReport = Serve.lintReport }
        // POST /admin/login: the browser of a scenario's `user authenticate`, for a client's session code.
        options.login = RunningServer.login
        options.trustedProxies = TrustedProxies(trustedProxy) ?? .none
        // Through the proxy a client keeps the world's own URLs, so the mock writes those, not loopback ones.
        if proxy != nil { options.urls = .asWritten }

        let server: MockPassServer
        do {
            server = try MockPassServer.startAndWait(world: setup.world, options: options)
        } catch {
            FileHandle.standardError.write(Data("passim serve: \(Serve.startProblem(error))\n".utf8))
            throw ExitCode(2)
        }
        var lines = ""
        for h in server.hosts {
            let (kind, name) =
                switch h.host {
                case .sp(let n): ("sp", n)
                case .idp(let id): ("idp", id)
                }
            let mode = setup.links[h.host]?.mode
            let state = mode == .down ? " (down)" : mode == .silent ? " (silent)" : ""
            lines += "\(kind) \(name) \(h.originalURL) -> \(h.liveURL)\(state)\n"
        }
        if let proxyURL = server.proxyURL { lines += "proxy \(proxyURL)\n" }
        lines += caLines
        // The token comes first: scripts wait for the `admin` line, then read both.
        lines += "admin-token \(server.adminToken)\n"
        lines += "admin \(server.adminURL)\n"
        // Written at once, unbuffered: a script may read the ports from a pipe while the server runs.
        FileHandle.standardOutput.write(Data(lines.utf8))

        signal(SIGPIPE, SIG_IGN)
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let once = Once()
        let stop: @Sendable () -> Void = { [lint] in
            guard once.claim() else { return }
            // Read before shutting down: the log goes with the mock.
            let report = lint ? LintReport(Journal(server.requestLog(), dropped: server.requestLogDropped())) : nil
            try? server.shutdownAndWait()
            if let report {
                FileHandle.standardError.write(Data(("passim serve --lint:\n" + report.text).utf8))
                Foundation.exit(report.exitStatus)
            }
            Foundation.exit(0)
        }
        let sources = [SIGINT, SIGTERM].map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
            source.setEventHandler(handler: stop)
            source.resume()
            return source
        }
        if ProcessInfo.processInfo.environment[Serve.untilStdinCloses] == "1" {
            Serve.stopWhenStandardInputCloses(then: stop)
        }
        withExtendedLifetime(sources) { dispatchMain() }
    }

    /// True for the first caller only: a signal and the end of standard input may both stop the server.
    final class Once: @unchecked Sendable {
        private let lock = NSLock()
        private var done = false

        func claim() -> Bool {
            lock.withLock {
                defer { done = true }
                return !done
            }
        }
    }

    /// Set by a process that starts `serve` for itself (`passim fuzz --against BIN --compare mock`):
    /// standard input is a pipe only that process holds, so however it ends (a closed pipe on its own
    /// output, SIGKILL), the server reads end of file and stops as on SIGTERM, leaving nothing behind.
    static let untilStdinCloses = "PASSIM_SERVE_UNTIL_STDIN_CLOSES"

    /// Stops by calling `stop` itself, not by a SIGTERM to this process: SIGTERM's disposition is
    /// SIG_IGN (the dispatch source reads it), and one sent while the source was not yet armed was
    /// lost, so a served mock outlived its campaign (FuzzTests found one still running minutes later).
    static func stopWhenStandardInputCloses(then stop: @escaping @Sendable () -> Void) {
        let reader = Thread {
            // Whatever comes is ignored; only the end matters (nothing more to read, or an error).
            while let chunk = try? FileHandle.standardInput.read(upToCount: 512), !chunk.isEmpty {}
            stop()
        }
        reader.name = "serve-stdin-watch"
        reader.start()
    }

    /// The CA from --ca/--ca-key, or a new one written to --ca-out (and its key beside it); the
    /// lines to print (paths only: the key itself is never printed or logged).
    /// Why the server did not start, for a person: NIO's bind errors read
    /// `cannot listen on 127.0.0.1:8081: bind(descriptor:ptr:bytes:): Address already in use (errno: 98)`;
    /// the socket call and errno go, and a port in use gets the way out.
    static func startProblem(_ error: any Error) -> String {
        let text = (error as? LiveError)?.message ?? "\(error)"
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            guard let range = line.range(of: ": bind(descriptor:ptr:bytes:): ") else { return String(line) }
            let place = line[..<range.lowerBound]
            var why = line[range.upperBound...].replacingOccurrences(
                of: #" \(errno: \d+\)"#, with: "", options: .regularExpression)
            if why.contains("Address already in use") {
                why =
                    "the port is in use (another passim serve?): give other ports with --listen-port N, or --listen-port 0 for free ones"
            } else if why.contains("Permission denied") {
                why =
                    "permission denied (ports below 1024 need privileges): give --listen-port N with N ≥ 1024, or --listen-port 0"
            }
            return place + ": " + why
        }
        return lines.joined(separator: "\n")
    }

    private func makeAuthority() throws(LiveError) -> (CertificateAuthority, String) {
        if let ca, let caKey {
            let certificate: String, key: String
            do throws(Diagnostic) {
                certificate = try Serve.read(ca)
                key = try Serve.read(caKey)
            } catch {
                throw LiveError(error.description)
            }
            let authority = try CertificateAuthority(certificatePEM: certificate, keyPEM: key)
            var lines = ""
            if let caOut {
                do { try Data(certificate.utf8).write(to: URL(fileURLWithPath: caOut)) } catch {
                    throw LiveError("cannot write the CA certificate to \(caOut): \(error)")
                }
                lines += "ca \(Serve.absolute(caOut))\n"
            } else {
                lines += "ca \(Serve.absolute(ca))\n"
            }
            return (authority, lines)
        }
        let authority: CertificateAuthority
        do { authority = try CertificateAuthority() } catch {
            throw LiveError("cannot make a certificate authority: \(error)")
        }
        let certificatePath = caOut ?? "passim-ca.pem"
        let keyPath = Serve.keyPath(beside: certificatePath)
        try authority.write(certificateTo: certificatePath, keyTo: keyPath)
        return (authority, "ca \(Serve.absolute(certificatePath))\nca-key \(Serve.absolute(keyPath))\n")
    }

    /// `ca.pem` -> `ca-key.pem`; a name without `.pem` gets `-key.pem` added.
    static func keyPath(beside certificatePath: String) -> String {
        certificatePath.hasSuffix(".pem")
            ? String(certificatePath.dropLast(4)) + "-key.pem" : certificatePath + "-key.pem"
    }

    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    /// `GET /admin/lint`'s answer (`--lint`); nil when the server began shutting down meanwhile.
    @Sendable static func lintReport(
        _ log: [LoggedRequest], dropped: Int, json: Bool, stopping: @Sendable () -> Bool
    ) -> String? {
        guard let report = LintReport(Journal(log, dropped: dropped), stopping: stopping) else { return nil }
        return json ? report.json.jsonText + "\n" : report.text
    }

    static var environmentToken: String? { ProcessInfo.processInfo.environment["PASSIM_ADMIN_TOKEN"] }

    static func read(_ path: String) throws(Diagnostic) -> String {
        func unreadable(_ why: String) -> Diagnostic {
            Diagnostic(
                location: SourceLocation(file: path, line: 1, column: 1), message: "cannot read file: \(why)",
                lineText: "")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw unreadable("no such file")
        }
        guard !isDirectory.boolValue else { throw unreadable("it is a directory") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw unreadable("permission denied or I/O error")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw unreadable("not valid UTF-8") }
        return text
    }
}
