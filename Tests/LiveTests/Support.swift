import Foundation
import Live
import MockPass
import PassModel
import PassXML
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

let appRedirect = "adobepass://ios.app"

/// The package root, found from this file so the tests run from any working directory.
let packageRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    while url.path != "/" {
        url.deleteLastPathComponent()
        if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url.path }
    }
    return FileManager.default.currentDirectoryPath
}()

/// Two SPs (one with a path in its base URL), two MVPDs with IdPs.
func liveWorld() -> World {
    let comcast = MVPD(id: "Comcast", displayName: "Comcast XFINITY")
    let dish = MVPD(id: "Dish", displayName: "DISH")
    let sps = [
        World.ServiceProvider(name: "main", url: "https://sp.auth.test", mvpds: [comcast, dish]),
        World.ServiceProvider(name: "alt", url: "https://sp2.auth.test/adobe-services", mvpds: [comcast]),
    ]
    return World(
        serviceProviders: sps, identityProviders: World.defaultIdentityProviders(for: sps),
        users: [World.User(name: "alice", password: "secret", mvpdID: "Comcast")],
        requestors: [World.Requestor(id: "REQ1")])
}

/// Starts a server on ephemeral loopback ports (every host without latency unless overridden),
/// runs `body`, and shuts the server down whatever happens.
func withServer<T>(
    _ overrides: [LoggedRequest.Host: HostConditions] = [:], urls: MockPassServer.URLs = .live,
    clock: LiveClock = LiveClock(), limits: ServerLimits = ServerLimits(), adminToken: String? = nil,
    world: World = liveWorld(), seed: UInt64? = 7, _ body: (MockPassServer) async throws -> T
) async throws -> T {
    var conditions: [LoggedRequest.Host: HostConditions] = [:]
    for sp in world.serviceProviders { conditions[.sp(sp.name)] = HostConditions(latency: .zero) }
    for idp in world.identityProviders { conditions[.idp(idp.mvpdID)] = HostConditions(latency: .zero) }
    conditions.merge(overrides) { $1 }
    let server = try await MockPassServer.start(
        world: world,
        options: .init(
            seed: seed, conditions: conditions, limits: limits, clock: clock, urls: urls,
            adminToken: adminToken))
    do {
        let result = try await body(server)
        try await server.shutdown()
        return result
    } catch {
        try? await server.shutdown()
        throw error
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

extension MockPassServer {
    func url(_ host: LoggedRequest.Host) throws -> String {
        guard let h = mapping.host(host) else { throw TestFailure("no live host \(host)") }
        return h.liveURL
    }

    func port(_ host: LoggedRequest.Host) throws -> Int {
        guard let h = mapping.host(host) else { throw TestFailure("no live host \(host)") }
        return h.port
    }
}

/// The response of a result, or a test failure naming what came instead.
func response(_ result: HTTPResult) throws -> HTTPResponse {
    guard case .response(let r) = result else { throw TestFailure("expected a response, got \(result)") }
    return r
}

func get(_ transport: CurlTransport, _ url: String, headers: HTTPHeaders = [], timeout: Millis = .seconds(5)) throws
    -> HTTPResponse
{
    try response(transport.perform(HTTPRequest(method: "GET", url: url, headers: headers), timeout: timeout))
}

func onlyForm(_ r: HTTPResponse) throws -> HTMLForm {
    let page = try HTMLPageXML.parse(r.body)
    guard page.forms.count == 1 else { throw TestFailure("expected one form, got \(page.forms.count): \(r.bodyText)") }
    return page.forms[0]
}

extension HTMLForm {
    func field(_ name: String) -> String? { fields.first { $0.name == name }?.value }
}

func elapsed(_ body: () throws -> Void) rethrows -> Duration {
    let clock = ContinuousClock()
    let start = clock.now
    try body()
    return clock.now - start
}

/// Sends raw bytes to a loopback port on a plain socket and reads until the server closes (or
/// `timeout` seconds pass): for what no HTTP client would send. `trickle`: one byte at a time, this far
/// apart, from byte `trickleFrom` on (what comes before it is sent at once).
func rawExchange(
    port: Int, _ bytes: [UInt8], timeout: Int = 3, trickle: Duration? = nil, trickleFrom: Int = 0
) throws -> String {
    let socket = try RawSocket(port: port, timeout: timeout)
    let fd = socket.fd
    defer { withExtendedLifetime(socket) {} }  // it closes the descriptor when it goes
    var sent = 0
    while sent < bytes.count {
        let end = trickle == nil ? bytes.count : sent < trickleFrom ? trickleFrom : sent + 1
        #if canImport(Glibc)
            let n = bytes[sent..<end].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        #else
            let n = bytes[sent..<end].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        #endif
        if n <= 0 { break }  // the server may refuse before reading everything
        sent += n
        if let trickle, sent > trickleFrom {
            Thread.sleep(
                forTimeInterval: Double(trickle.components.attoseconds) / 1e18 + Double(trickle.components.seconds))
        }
    }
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n <= 0 { break }
        received += buffer[..<n]
    }
    return String(decoding: received, as: UTF8.self)
}

extension MockPassServer {
    /// An admin request as `passim run --server` sends it: the token, and a POST's fields as JSON.
    func admin(_ curl: CurlTransport, _ method: String, _ path: String, _ fields: [(String, String)] = []) throws
        -> HTTPResponse
    {
        var headers: HTTPHeaders = [("Authorization", "Bearer " + adminToken)]
        var body: [UInt8] = []
        if method == "POST" {
            headers.add("Content-Type", "application/json")
            body = Array(Value.dict(fields.map { Value.Entry($0.0, .string($0.1)) }).jsonText.utf8)
        }
        return try response(
            curl.perform(
                HTTPRequest(method: method, url: adminURL + path, headers: headers, body: body),
                timeout: .seconds(5)))
    }
}

/// A blocking loopback socket for tests that hold connections open.
final class RawSocket {
    let fd: Int32

    /// `from`: the local address to connect from (another loopback address, 127.0.0.2, is another
    /// peer to the server).
    init(port: Int, timeout: Int = 2, from source: String? = nil) throws {
        #if canImport(Glibc)
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw TestFailure("socket() failed") }
        var tv = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else {
                close(fd)
                throw TestFailure("bind(\(source)) failed")
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            throw TestFailure("connect() failed")
        }
    }

    deinit { close(fd) }

    func send(_ bytes: [UInt8]) throws {
        #if canImport(Glibc)
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        #else
            let n = bytes.withUnsafeBytes { Darwin.send(fd, $0.baseAddress, $0.count, 0) }
        #endif
        guard n == bytes.count else { throw TestFailure("send() failed") }
    }

    /// One answer with a Content-Length body.
    func readAnswer() throws -> String {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let text = String(decoding: received, as: UTF8.self)
            if let end = text.range(of: "\r\n\r\n") {
                let head = text[..<end.lowerBound]
                let length =
                    head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst(15).trimmingCharacters(in: .whitespaces)) } ?? 0
                if text[end.upperBound...].utf8.count >= length { return text }
            }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { throw TestFailure("the connection closed or timed out mid-answer: \(text)") }
            received += buffer[..<n]
        }
    }

    /// True when the server has answered or closed the connection; nothing is consumed (a peek).
    func isAnsweredOrClosed() -> Bool {
        var byte: UInt8 = 0
        let n = recv(fd, &byte, 1, Int32(MSG_DONTWAIT) | Int32(MSG_PEEK))
        return n >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK)
    }

    /// True when the server has closed the connection (reading gives end of file or a reset).
    func isClosedByPeer() -> Bool {
        var byte: UInt8 = 0
        let n = recv(fd, &byte, 1, Int32(MSG_DONTWAIT))
        return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }
}
