import ArgumentParser
import Dispatch
import Foundation
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
            GET /admin/log, GET /admin/hosts, POST /admin/world to serve another world file's text). The admin \
            endpoint listens on 127.0.0.1 unless --admin-host says otherwise; every admin request carries \
            `Authorization: Bearer TOKEN`, names the admin's own address in Host, and sends its parameters \
            as a JSON body (Content-Type: application/json).
            Every SP serves every protocol family real clients speak, sharing one state: the SDK device \
            family (with or without /1.0), the web family (session, authorize, shortAuthorize...), client \
            registration (/o/client/*), /indiv/devices, the regcode service and the REST API v1 (/api/v1/...). \
            Each endpoint, its parameters and answers: docs/WIRE.md. Every limit: docs/LIMITS.md.
            Exit status: 0 after SIGINT/SIGTERM, 1 if a port cannot be bound, 2 if the world file is unusable.
            """)

    @Option(help: "The world file.")
    var world: String

    @Option(help: "The address the hosts listen on.")
    var host = "127.0.0.1"

    @Option(help: ArgumentHelp("The name written into URLs (redirects, form actions) (default: the machine's host name when --host is 0.0.0.0 or ::, else --host).",
                               valueName: "NAME"))
    var publicHost: String?

    @Option(help: ArgumentHelp("The address the admin endpoint listens on.", valueName: "ADDR"))
    var adminHost = "127.0.0.1"

    @Option(help: ArgumentHelp("The admin token (default: $PASSIM_ADMIN_TOKEN, else a random one, printed at start).",
                               valueName: "TOKEN"))
    var adminToken: String?

    @Option(help: "The first host's port; the others follow it. 0 picks free ports.")
    var port = 8081

    @Option(help: "The admin endpoint's port (default: PORT-1, or a free port when PORT is 0).")
    var adminPort: Int?

    @Option(help: "The seed of the mock's random choices (default: the world file's `seed`, else a fixed one).")
    var seed: UInt64?

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port takes 0-65535") }
        if let adminPort, !(0...65535).contains(adminPort) { throw ValidationError("--admin-port takes 0-65535") }
        if let token = adminToken ?? Serve.environmentToken, let problem = MockPassServer.tokenProblem(token) {
            throw ValidationError("--admin-token: \(problem)")
        }
        if publicHost?.isEmpty == true { throw ValidationError("--public-host takes a name") }
        if adminPort == nil, port == 1 { throw ValidationError("--port 1 leaves no port below it for the admin endpoint: give --admin-port") }
    }

    func run() throws {
        var file: ScenarioFile
        do throws(Diagnostic) {
            file = try ScenarioParser.parseWorld(try Serve.read(world), path: world)
        } catch {
            FileHandle.standardError.write(Data((error.description + "\n").utf8))
            throw ExitCode(2)
        }
        if let seed { file.seed = seed }
        let setup = WorldBuilder.setup(for: file)
        let options = MockPassServer.Options(
            host: host, basePort: port, adminPort: adminPort ?? (port == 0 ? 0 : port - 1),
            seed: setup.seed, conditions: setup.links, worldLoader: WorldBuilder.loadWorld,
            publicHost: publicHost, adminHost: adminHost, adminToken: adminToken ?? Serve.environmentToken)

        let server: MockPassServer
        do {
            server = try MockPassServer.startAndWait(world: setup.world, options: options)
        } catch {
            FileHandle.standardError.write(Data("passim serve: \(error)\n".utf8))
            throw ExitCode(1)
        }
        var lines = ""
        for h in server.hosts {
            let (kind, name) = switch h.host {
            case .sp(let n): ("sp", n)
            case .idp(let id): ("idp", id)
            }
            let mode = setup.links[h.host]?.mode
            let state = mode == .down ? " (down)" : mode == .silent ? " (silent)" : ""
            lines += "\(kind) \(name) \(h.originalURL) -> \(h.liveURL)\(state)\n"
        }
        // The token comes first: scripts wait for the `admin` line, then read both.
        lines += "admin-token \(server.adminToken)\n"
        lines += "admin \(server.adminURL)\n"
        // Written at once, unbuffered: a script may read the ports from a pipe while the server runs.
        FileHandle.standardOutput.write(Data(lines.utf8))

        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let sources = [SIGINT, SIGTERM].map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
            source.setEventHandler {
                try? server.shutdownAndWait()
                Foundation.exit(0)
            }
            source.resume()
            return source
        }
        withExtendedLifetime(sources) { dispatchMain() }
    }

    static var environmentToken: String? { ProcessInfo.processInfo.environment["PASSIM_ADMIN_TOKEN"] }

    static func read(_ path: String) throws(Diagnostic) -> String {
        func unreadable(_ why: String) -> Diagnostic {
            Diagnostic(location: SourceLocation(file: path, line: 1, column: 1), message: "cannot read file: \(why)", lineText: "")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw unreadable("no such file") }
        guard !isDirectory.boolValue else { throw unreadable("it is a directory") }
        guard let data = FileManager.default.contents(atPath: path) else { throw unreadable("permission denied or I/O error") }
        guard let text = String(data: data, encoding: .utf8) else { throw unreadable("not valid UTF-8") }
        return text
    }
}
