import Foundation
import Live
import MockPass
import PassModel
import Testing

/// Every request of `Fixtures/hostile/http/` gets the status its file name promises, and the server
/// still answers another host at once afterwards (see that folder's README).
@Suite(.serialized) struct HostileHTTPTests {
    static let folder = packageRoot + "/Fixtures/hostile/http"
    static let token = "hostile-fixture-token"
    static let limits = ServerLimits(idleTimeout: .seconds(5), headerTimeout: .milliseconds(300))

    /// The live world, with Dish's IdP speaking OAuth2 (its logout is a target, `idp`).
    static var world: World {
        var w = liveWorld()
        w.restV2.oauth2MVPDs = ["Dish"]
        return w
    }

    static var files: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".http") }.sorted()
    }

    @Test func theFolderHoldsEveryKind() {
        let names = HostileHTTPTests.files
        for kind in [
            "no-token", "foreign-host", "foreign-origin", "query-parameter", "text-plain", "pipelined", "head",
            "trickled", "malformed-request-line", "oversized-head", "oversized-body",
        ] {
            #expect(names.contains { $0.contains(kind) }, "no fixture for \(kind)")
        }
    }

    @Test(arguments: HostileHTTPTests.files)
    func hostileRequest(_ name: String) async throws {
        let parts = name.split(separator: "-")
        let target = String(parts[0])
        // `200x11+429`: 11 answers 200, then one 429.
        let expected = parts[1].split(separator: "+").flatMap { group -> [Int] in
            let n = group.split(separator: "x").map { Int($0) ?? 0 }
            return Array(repeating: n[0], count: n.count > 1 ? n[1] : 1)
        }
        let status = expected[0]
        let text = try String(contentsOfFile: HostileHTTPTests.folder + "/" + name, encoding: .utf8)

        // The world's default latency on the target, as in `passim serve`: answers take a while, so
        // pipelined requests really queue up behind each other.
        let latency: [LoggedRequest.Host: HostConditions] = [.sp("main"): HostConditions(latency: Millis(10))]
        try await withServer(
            latency, limits: HostileHTTPTests.limits, adminToken: HostileHTTPTests.token, world: HostileHTTPTests.world
        ) { server in
            let port =
                switch target {
                case "admin": server.adminPort
                case "idp": try server.port(.idp("Dish"))
                default: try server.port(.sp("main"))
                }
            let bytes = HostileHTTPTests.expand(text, adminPort: server.adminPort)
            let trickle: Duration? = name.contains("trickled") ? .milliseconds(20) : nil
            // `trickled-body`: the head at once, then the body a byte at a time.
            let headEnd = name.contains("trickled-body") ? HostileHTTPTests.headEnd(bytes) : 0
            let raw = try rawExchange(port: port, bytes, timeout: 5, trickle: trickle, trickleFrom: headEnd)
            let statuses = raw.components(separatedBy: "HTTP/1.1 ").dropFirst().compactMap { Int($0.prefix(3)) }
            #expect(statuses == expected, "\(name): \(raw.prefix(300))")
            if name.contains("head") && status == 200 {
                #expect(raw.hasSuffix("\r\n\r\n"), "HEAD is answered without a body")
                #expect(raw.contains("Content-Length: "), "with the GET's Content-Length")
            }

            let curl = try CurlTransport()
            let other = try server.url(.sp("alt")) + "/config/REQ1"
            var answer: HTTPResponse?
            let took = try elapsed { answer = try get(curl, other) }
            #expect(answer?.status == 200)
            #expect(took < .milliseconds(100), "\(name): another host answered after \(took)")
            #expect(server.clock.offset == .zero, "\(name): a refused admin request moved the clock")
            #expect(server.conditions(of: .sp("alt"))?.mode == .up)
        }
    }

    /// Where the first head ends (after its blank line), or 0.
    static func headEnd(_ bytes: [UInt8]) -> Int {
        let blank: [UInt8] = [13, 10, 13, 10]
        guard bytes.count >= 4 else { return 0 }
        for i in 0...(bytes.count - 4) where Array(bytes[i..<i + 4]) == blank { return i + 4 }
        return 0
    }

    /// LF to CRLF, then the placeholders of the README.
    static func expand(_ text: String, adminPort: Int) -> [UInt8] {
        var s = text.replacingOccurrences(of: "\n", with: "\r\n")
            .replacingOccurrences(of: "{ADMIN}", with: "127.0.0.1:\(adminPort)")
            .replacingOccurrences(of: "{ADMIN_PORT}", with: String(adminPort))
            .replacingOccurrences(of: "{TOKEN}", with: token)
        while let range = s.range(of: #"\{REPEAT:[0-9]+:.\}"#, options: .regularExpression) {
            let spec = s[range].dropFirst(8).dropLast()
            let n = Int(spec.prefix { $0 != ":" }) ?? 0
            s.replaceSubrange(range, with: String(repeating: String(spec.last ?? "?"), count: n))
        }
        // {SEQ:N:TEXT}: TEXT N times, its `#` numbered 0..<N (distinct attribute names, say).
        while let range = s.range(of: #"\{SEQ:[0-9]+:[^}]*\}"#, options: .regularExpression) {
            let spec = s[range].dropFirst(5).dropLast()
            let n = Int(spec.prefix { $0 != ":" }) ?? 0
            let text = String(spec.drop { $0 != ":" }.dropFirst())
            s.replaceSubrange(
                range, with: (0..<n).map { text.replacingOccurrences(of: "#", with: String($0)) }.joined())
        }
        if let end = s.range(of: "\r\n\r\n") {
            let length = s[end.upperBound...].utf8.count
            s = s.replacingOccurrences(of: "{LENGTH}", with: String(length))
        }
        return Array(s.utf8)
    }
}
