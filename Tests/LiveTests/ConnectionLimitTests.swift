import Foundation
import Live
import MockPass
import PassModel
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Idle connections cannot take the server: at the connection cap a new connection takes the place
/// of the oldest idle one, so a client with a request is answered at once however many idle
/// connections are open; the idle ones are closed after the idle timeout; a connection owed an
/// answer is never taken.
@Suite(.serialized) struct ConnectionLimitTests {
    static let limits = ServerLimits(connections: 8, idleTimeout: .milliseconds(400), headerTimeout: .milliseconds(300))
    static let request = Array("GET /config/REQ1 HTTP/1.1\r\nHost: x\r\n\r\n".utf8)

    @Test func idleConnectionsPastTheCapDoNotStopANormalRequest() async throws {
        try await withServer(limits: ConnectionLimitTests.limits) { server in
            let port = try server.port(.sp("main"))
            let idle = try (0..<40).map { _ in try RawSocket(port: port) }
            try await Task.sleep(for: .milliseconds(100))
            // 8 stay open (the latest), the 32 before them were closed to make room.
            let closed = idle.map { $0.isClosedByPeer() }
            #expect(closed == Array(repeating: true, count: 32) + Array(repeating: false, count: 8), "\(closed)")

            let client = try RawSocket(port: port)
            var answer = ""
            let took = try elapsed {
                try client.send(ConnectionLimitTests.request)
                answer = try client.readAnswer()
            }
            #expect(answer.hasPrefix("HTTP/1.1 200"))
            #expect(took < .milliseconds(100), "answered after \(took)")

            // Idle past the timeout: every connection is closed.
            try await Task.sleep(for: .milliseconds(700))
            #expect(idle.allSatisfy { $0.isClosedByPeer() })
            #expect(client.isClosedByPeer())
            #expect(try get(try CurlTransport(), try server.url(.sp("main")) + "/config/REQ1").status == 200)
        }
    }

    @Test func aConnectionOwedAnAnswerIsNeitherTakenNorIdle() async throws {
        try await withServer([.sp("main"): HostConditions(latency: Millis(700))], limits: ConnectionLimitTests.limits) { server in
            let port = try server.port(.sp("main"))
            let waiting = try RawSocket(port: port)
            try waiting.send(ConnectionLimitTests.request)
            try await Task.sleep(for: .milliseconds(50))
            let idle = try (0..<20).map { _ in try RawSocket(port: port) }
            try await Task.sleep(for: .milliseconds(100))
            #expect(idle.filter { !$0.isClosedByPeer() }.count == 7, "the cap holds, and the busy one keeps its place")
            // Its answer comes after the idle timeout, and after 20 connections took the places of idle ones.
            #expect(try waiting.readAnswer().hasPrefix("HTTP/1.1 200"))
        }
    }

    @Test func theCapStaysBelowTheDescriptorLimit() {
        var limit = rlimit()
        #expect(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0)
        let cap = ServerLimits(connections: Int.max, descriptorMargin: 64).connectionCap
        #expect(cap == Int(clamping: limit.rlim_cur) - 64)
        #expect(ServerLimits(connections: 5).connectionCap == 5)
    }
}

/// A blocking loopback socket for tests that hold connections open.
final class RawSocket {
    let fd: Int32

    init(port: Int) throws {
        #if canImport(Glibc)
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw TestFailure("socket() failed") }
        var tv = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
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
                let length = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst(15).trimmingCharacters(in: .whitespaces)) } ?? 0
                if text[end.upperBound...].utf8.count >= length { return text }
            }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { throw TestFailure("the connection closed or timed out mid-answer: \(text)") }
            received += buffer[..<n]
        }
    }

    /// True when the server has closed the connection (reading gives end of file or a reset).
    func isClosedByPeer() -> Bool {
        var byte: UInt8 = 0
        let n = recv(fd, &byte, 1, Int32(MSG_DONTWAIT))
        return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }
}
