import Foundation
import Live
import MockPass
import PassModel
import PassXML
import Synchronization
import Testing

/// Adobe's production layout, as `Fixtures/worlds/adobe.scenario` declares it, plus a signing requestor.
func adobeWorld() -> World {
    let cable = MVPD(id: "PassimCable", displayName: "Passim Cable")
    let sps = [
        World.ServiceProvider(name: "adobe", url: "https://sp.auth.adobe.com/adobe-services", mvpds: [cable]),
        World.ServiceProvider(name: "api", url: "https://api.auth.adobe.com", mvpds: [cable]),
    ]
    let viewer = World.User(
        name: "viewer", password: "s3cret", mvpdID: "PassimCable", allow: ["passimtv"],
        deny: ["passimtv-ppv"], denyMessage: "Passim PPV is not in your package.")
    return World(
        serviceProviders: sps, identityProviders: World.defaultIdentityProviders(for: sps), users: [viewer],
        requestors: [
            World.Requestor(id: "passimtv"),
            World.Requestor(id: "signedreq", key: World.KeyPair(publicKey: "pk-passim", secret: "sk-passim")),
        ])
}

/// What the server logged (its proxy refusals and failed handshakes).
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])
    var all: [String] { lines.withLock { $0 } }
    func add(_ line: String) { lines.withLock { $0.append(line) } }
    func contains(_ text: String) -> Bool { all.contains { $0.contains(text) } }
}

/// A fresh directory for one test's CA files, removed afterwards.
func withTemporaryDirectory<T>(_ body: (String) async throws -> T) async throws -> T {
    let path = NSTemporaryDirectory() + "passim-proxy-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try await body(path)
}

/// A server on ephemeral ports with a proxy and a new CA written to `dir/ca.pem` (key `dir/ca-key.pem`),
/// serving the world's URLs as written, as `passim serve --proxy` does.
func withProxy<T>(
    world: World = adobeWorld(), direct: Bool = false, urls: MockPassServer.URLs = .asWritten,
    limits: ServerLimits = ServerLimits(), authority: CertificateAuthority? = nil,
    _ body: (MockPassServer, String, LogLines) async throws -> T
) async throws -> T {
    try await withTemporaryDirectory { dir in
        let ca = try authority ?? CertificateAuthority()
        try ca.write(certificateTo: dir + "/ca.pem", keyTo: dir + "/ca-key.pem")
        let log = LogLines()
        var conditions: [LoggedRequest.Host: HostConditions] = [:]
        for sp in world.serviceProviders { conditions[.sp(sp.name)] = HostConditions(latency: .zero) }
        for idp in world.identityProviders { conditions[.idp(idp.mvpdID)] = HostConditions(latency: .zero) }
        let server = try await MockPassServer.start(
            world: world,
            options: .init(
                seed: 7, conditions: conditions, limits: limits, urls: urls,
                tls: MockPassServer.TLS(authority: ca, direct: direct), proxyPort: 0, log: { log.add($0) }))
        do {
            let result = try await body(server, dir, log)
            try await server.shutdown()
            return result
        } catch {
            try? await server.shutdown()
            throw error
        }
    }
}

struct CommandResult {
    var status: Int32
    var output: String
    var error: String
}

/// Runs a program (curl, openssl) to its end, with standard input closed.
func runCommand(_ arguments: [String], input: String? = nil) throws -> CommandResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    let out = Pipe(), err = Pipe(), inPipe = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = inPipe
    try process.run()
    if let input { inPipe.fileHandleForWriting.write(Data(input.utf8)) }
    try inPipe.fileHandleForWriting.close()
    let output = out.fileHandleForReading.readDataToEndOfFile()
    let error = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CommandResult(
        status: process.terminationStatus, output: String(decoding: output, as: UTF8.self),
        error: String(decoding: error, as: UTF8.self))
}

/// The curl binary through `server`'s proxy, trusting `caFile` (nil: the system's CAs only).
/// Answers the status, the response headers and the body.
struct ProxyCurl {
    var proxy: String
    var caFile: String?
    var cookieJar: String?

    func send(
        _ method: String, _ url: String, headers: [(String, String)] = [], body: String? = nil,
        extra: [String] = []
    ) throws -> (CommandResult, HTTPResponse?) {
        var arguments = ["curl", "-sS", "--max-time", "10", "--proxy", proxy, "-X", method, "-D", "-", url]
        if let caFile { arguments += ["--cacert", caFile] }
        if let cookieJar { arguments += ["-b", cookieJar, "-c", cookieJar] }
        for (name, value) in headers { arguments += ["-H", "\(name): \(value)"] }
        if let body { arguments += ["--data-binary", body] }
        arguments += extra
        let result = try runCommand(arguments)
        return (result, ProxyCurl.parse(result.output))
    }

    /// The last response of curl's `-D -` output (a CONNECT's own 200 comes first).
    static func parse(_ output: String) -> HTTPResponse? {
        var rest = Substring(output)
        var last: HTTPResponse?
        while rest.hasPrefix("HTTP/"), let end = rest.range(of: "\r\n\r\n") {
            let lines = rest[..<end.lowerBound].components(separatedBy: "\r\n")
            let status = Int(lines[0].split(separator: " ").dropFirst().first ?? "") ?? 0
            let headers = HTTPHeaders(
                lines.dropFirst().compactMap { line -> HTTPHeader? in
                    guard let colon = line.firstIndex(of: ":") else { return nil }
                    return HTTPHeader(
                        String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
                })
            rest = rest[end.upperBound...]
            last = HTTPResponse(status: status, headers: headers, body: [])
            if status == 200, lines[0].contains("Connection established") || lines[0].contains("Connection Established")
            {
                continue
            }
            if !rest.hasPrefix("HTTP/") { last?.body = Array(rest.utf8) }
        }
        return last
    }
}
