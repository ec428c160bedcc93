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

/// The forward proxy and TLS of `passim serve --proxy/--tls`, over real sockets with the curl and
/// openssl binaries as the clients: Adobe's host names answered through CONNECT tunnels with passim's
/// CA, 502 for any other host, and every bad input of issue 14 refused, logged, and survived.
@Suite(.serialized) struct ProxyTests {
    static let hostileFolder = packageRoot + "/Fixtures/hostile/proxy"
    static let limits = ServerLimits(idleTimeout: .seconds(5), headerTimeout: .milliseconds(300))

    static var hostileFiles: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: hostileFolder)) ?? []).filter { $0.hasSuffix(".http") }
            .sorted()
    }

    @Test func aTunnelToAnAdobeHostIsPassimOverTLS() async throws {
        try await withProxy { server, dir, log in
            let curl = ProxyCurl(proxy: try #require(server.proxyURL), caFile: dir + "/ca.pem")
            let (config, sp) = try curl.send("GET", "https://sp.auth.adobe.com/adobe-services/config/passimtv")
            #expect(config.status == 0, "\(config.error)")
            #expect(sp?.status == 200)
            #expect(sp.map { String(decoding: $0.body, as: UTF8.self).contains("PassimCable") } == true)
            let (_, api) = try curl.send("GET", "https://api.auth.adobe.com/api/v1/config/passimtv?format=json")
            #expect(api?.status == 200, "\(String(describing: api))")
            // The IdP's host is a host of the world too: the tunnel opens and passim answers (its root is no page).
            let (idpRun, idp) = try curl.send("GET", "https://passimcable.idp.test/")
            #expect(idpRun.status == 0 && idp?.status == 404, "\(idpRun.error)")
            let hosts = server.requestLog().map(\.host)
            #expect(hosts == [.sp("adobe"), .sp("api"), .idp("PassimCable")], "\(hosts)")
            #expect(log.all.isEmpty, "\(log.all)")
        }
    }

    @Test func absoluteFormRequestsAreAnsweredAsTheirHost() async throws {
        try await withProxy { server, _, _ in
            let curl = ProxyCurl(proxy: try #require(server.proxyURL), caFile: nil)
            // Plain http through the proxy (curl sends `GET http://…`): the world's https host serves it.
            let (_, r) = try curl.send("GET", "http://sp.auth.adobe.com/adobe-services/config/passimtv")
            #expect(r?.status == 200)
            #expect(server.requestLog().map(\.host) == [.sp("adobe")])
            #expect(server.requestLog().first?.path == "/config/passimtv")
        }
    }

    @Test func aHostTheWorldLacksGets502NamingItsHostsAndIsLogged() async throws {
        try await withProxy { server, dir, log in
            let curl = ProxyCurl(proxy: try #require(server.proxyURL), caFile: dir + "/ca.pem")
            let (tunnel, _) = try curl.send(
                "GET", "https://www.example.com/", extra: ["-w", "\nconnect=%{http_connect}"])
            #expect(tunnel.status != 0)
            #expect(tunnel.output.contains("connect=502"), "\(tunnel.output)")
            let (_, plain) = try curl.send("GET", "http://www.example.com/index.html")
            let text = plain.map { String(decoding: $0.body, as: UTF8.self) } ?? ""
            #expect(plain?.status == 502)
            #expect(text.contains("sp.auth.adobe.com, api.auth.adobe.com, passimcable.idp.test"), "\(text)")
            #expect(log.all.filter { $0.contains("refused (502") }.count == 2, "\(log.all)")
            #expect(server.requestLog().isEmpty, "nothing reached the mock")
        }
    }

    @Test func theHostileFolderHoldsEveryKind() {
        for kind in [
            "connect-unknown-host", "absolute-unknown-host", "relative-uri", "connect-without-port",
            "oversized-connect", "trickled-connect",
        ] {
            #expect(ProxyTests.hostileFiles.contains { $0.contains(kind) }, "no fixture for \(kind)")
        }
    }

    @Test(arguments: ProxyTests.hostileFiles)
    func hostileProxyRequest(_ name: String) async throws {
        let status = Int(name.split(separator: "-")[1]) ?? 0
        let text = try String(contentsOfFile: ProxyTests.hostileFolder + "/" + name, encoding: .utf8)
        try await withProxy(limits: ProxyTests.limits) { server, dir, log in
            let port = try #require(server.proxyPort)
            let trickle: Duration? = name.contains("trickled") ? .milliseconds(20) : nil
            let raw = try rawExchange(
                port: port, HostileHTTPTests.expand(text, adminPort: server.adminPort), timeout: 5, trickle: trickle)
            let statuses = raw.components(separatedBy: "HTTP/1.1 ").dropFirst().compactMap { Int($0.prefix(3)) }
            #expect(statuses == [status], "\(name): \(raw.prefix(300))")
            if status != 200 { #expect(!log.all.isEmpty, "\(name) was not logged") }
            if status == 502 { #expect(raw.contains("sp.auth.adobe.com"), "\(name): \(raw)") }
            // The proxy keeps serving.
            let curl = ProxyCurl(proxy: try #require(server.proxyURL), caFile: dir + "/ca.pem")
            let (_, after) = try curl.send("GET", "https://sp.auth.adobe.com/adobe-services/config/passimtv")
            #expect(after?.status == 200, "\(name): the proxy stopped serving")
        }
    }

    @Test func aClientThatDoesNotTrustTheCAIsRefusedByItselfAndTheFailureIsLogged() async throws {
        try await withProxy { server, dir, log in
            let untrusting = ProxyCurl(proxy: try #require(server.proxyURL), caFile: nil)
            let (refused, _) = try untrusting.send("GET", "https://sp.auth.adobe.com/adobe-services/config/passimtv")
            #expect(refused.status == 60, "curl: the certificate is not trusted: \(refused.error)")
            try await waitFor { log.contains("tls: TLS with") }
            #expect(log.contains("tunnel to sp.auth.adobe.com"), "\(log.all)")
            let (_, ok) = try ProxyCurl(proxy: try #require(server.proxyURL), caFile: dir + "/ca.pem")
                .send("GET", "https://sp.auth.adobe.com/adobe-services/config/passimtv")
            #expect(ok?.status == 200)
        }
    }

    @Test func noSNIAndAnOldTLSVersionGetAnAlertAndAreLogged() async throws {
        try await withProxy { server, dir, log in
            let proxy = "127.0.0.1:\(try #require(server.proxyPort))"
            let base = [
                "openssl", "s_client", "-proxy", proxy, "-connect", "sp.auth.adobe.com:443", "-CAfile", dir + "/ca.pem",
            ]
            let noSNI = try runCommand(base + ["-noservername"], input: "")
            #expect(noSNI.output.contains("no peer certificate available"), "\(noSNI.output)")
            #expect((noSNI.output + noSNI.error).contains("alert"), "\(noSNI.error)")
            try await waitFor { log.contains("no SNI") }

            let old = try runCommand(
                base + ["-servername", "sp.auth.adobe.com", "-tls1_1", "-cipher", "DEFAULT:@SECLEVEL=0"], input: "")
            #expect(
                (old.output + old.error).contains("alert protocol version")
                    || (old.output + old.error).contains("unsupported protocol"),
                "\(old.error)")
            try await waitFor { log.all.count >= 2 }

            let good = try runCommand(base + ["-servername", "sp.auth.adobe.com", "-verify_return_error"], input: "")
            #expect(good.output.contains("Verify return code: 0 (ok)"), "\(good.output) \(good.error)")
            #expect(
                good.output.contains("DNS:sp.auth.adobe.com") || good.output.contains("CN = sp.auth.adobe.com"),
                "\(good.output)")
        }
    }

    @Test func theCAKeyIsPrivateNeverLoggedAndReusable() async throws {
        try await withTemporaryDirectory { dir in
            let ca = try CertificateAuthority()
            try ca.write(certificateTo: dir + "/ca.pem", keyTo: dir + "/ca-key.pem")
            var info = stat()
            #expect(stat(dir + "/ca-key.pem", &info) == 0)
            #expect(info.st_mode & 0o777 == 0o600)
            let certificatePEM = try String(contentsOfFile: dir + "/ca.pem", encoding: .utf8)
            let keyPEM = try String(contentsOfFile: dir + "/ca-key.pem", encoding: .utf8)
            #expect(certificatePEM.hasPrefix("-----BEGIN CERTIFICATE-----"))
            #expect(keyPEM.contains("PRIVATE KEY-----"))

            // Reused: a client holding the first PEM trusts the second server.
            let reused = try CertificateAuthority(certificatePEM: certificatePEM, keyPEM: keyPEM)
            try await withProxy(authority: reused) { server, _, log in
                let curl = ProxyCurl(proxy: try #require(server.proxyURL), caFile: dir + "/ca.pem")
                let (_, r) = try curl.send("GET", "https://sp.auth.adobe.com/adobe-services/config/passimtv")
                #expect(r?.status == 200)
                _ = try ProxyCurl(proxy: try #require(server.proxyURL), caFile: nil).send(
                    "GET", "https://sp.auth.adobe.com/")
                try await waitFor { !log.all.isEmpty }
                let keyBody = keyPEM.split(separator: "\n").dropFirst().first.map(String.init) ?? "?"
                #expect(!log.all.contains { $0.contains(keyBody) })
            }

            let other = try CertificateAuthority()
            try other.write(certificateTo: dir + "/other.pem", keyTo: dir + "/other-key.pem")
            let otherKey = try String(contentsOfFile: dir + "/other-key.pem", encoding: .utf8)
            #expect(throws: LiveError.self) {
                try CertificateAuthority(certificatePEM: certificatePEM, keyPEM: otherKey)
            }
            #expect(throws: LiveError.self) { try CertificateAuthority(certificatePEM: "not a pem", keyPEM: keyPEM) }
            #expect(throws: LiveError.self) {
                try CertificateAuthority(certificatePEM: certificatePEM, keyPEM: "garbage")
            }
        }
    }

    @Test func directTLSServesEveryHostOverHTTPS() async throws {
        try await withProxy(direct: true, urls: .live) { server, dir, _ in
            let sp = try server.url(.sp("adobe"))
            #expect(sp.hasPrefix("https://127.0.0.1:"), "\(sp)")
            let r = try runCommand([
                "curl", "-sS", "--max-time", "10", "--cacert", dir + "/ca.pem", sp + "/config/passimtv",
            ])
            #expect(r.status == 0, "\(r.error)")
            #expect(r.output.contains("PassimCable"))
            let plain = try runCommand([
                "curl", "-sS", "--max-time", "5",
                sp.replacingOccurrences(of: "https:", with: "http:") + "/config/passimtv",
            ])
            #expect(plain.status != 0 || !plain.output.contains("PassimCable"), "a TLS port does not answer plain HTTP")
        }
    }

    @Test func aWorldLoadedThroughTheAdminEndpointIsWhatTheProxyServes() async throws {
        try await withTemporaryDirectory { dir in
            let ca = try CertificateAuthority()
            try ca.write(certificateTo: dir + "/ca.pem", keyTo: dir + "/ca-key.pem")
            let server = try await MockPassServer.start(
                world: adobeWorld(),
                options: .init(
                    urls: .asWritten, worldLoader: AdminWorldTests.loader,
                    tls: MockPassServer.TLS(authority: ca, direct: false), proxyPort: 0))
            let curl = ProxyCurl(proxy: try #require(server.proxyURL), caFile: dir + "/ca.pem")
            #expect(try curl.send("GET", "https://sp.auth.adobe.com/adobe-services/config/passimtv").1?.status == 200)
            let loaded = try AdminWorldTests().post(try CurlTransport(), server, "small", urls: "as-written")
            #expect(loaded.status == 200)
            #expect(try curl.send("GET", "https://solo.test/config/REQ9").1?.status == 200)
            let (_, gone) = try curl.send("GET", "http://sp.auth.adobe.com/adobe-services/config/passimtv")
            #expect(gone?.status == 502)
            #expect(
                gone.map { String(decoding: $0.body, as: UTF8.self).contains("Its hosts: solo.test, dish.idp.test") }
                    == true)
            try await server.shutdown()
        }
    }

    /// Polls `condition` for up to 2 s: the server logs a failed handshake on its own event loop.
    func waitFor(_ condition: () -> Bool) async throws {
        for _ in 0..<100 where !condition() { try await Task.sleep(for: .milliseconds(20)) }
        #expect(condition())
    }
}
