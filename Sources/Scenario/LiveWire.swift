import Live
import MockPass
import PassModel
import Simulation

/// The wire of `passim run --live`: every request of the engine, the browser and the second screen
/// goes over loopback HTTP, through libcurl, to a `MockPassServer` started for the scenario's world.
///
/// The server serves the world as written (`URLs.asWritten`) and the wire sends each request to the
/// port of its host with the original `Host`, as curl's `--connect-to` would: the engine, cookies,
/// browser and transcript all keep the world's URLs, so a live transcript compares byte for byte with
/// the simulated one. What is real: HTTP framing, headers, cookies, bodies, status codes, the server's
/// latency (waited for), `down` (a refused connection), `silent` (a request read and never answered)
/// and injected failures (the server answers them). What stays virtual: the instants. The runtime
/// orders events by virtual time and the server's clock is held at the instant each request is sent,
/// so token dates and boundary races come out as in the simulation (docs/CONFORMANCE.md, choice 23).
final class LiveWire: Wire {
    let server: MockPassServer
    private let transport: CurlTransport
    /// The world as written, for host lookups (the server's own table serves the same URLs).
    private let hosts: MockPass
    private let origins: [LoggedRequest.Host: String]

    /// How long a request to a silent host is given before the wire stops waiting: long enough for the
    /// server to read it, which is what `silent` proves; the engine's own timeout (virtual) decides the rest.
    static let silentWait = Millis(50)
    /// A request to a host that is up gets this much beyond its latency before it counts as lost.
    static let slack = Millis.seconds(10)

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
        do {
            transport = try CurlTransport()
        } catch {
            try? server.shutdownAndWait()
            throw error
        }
        hosts = MockPass(world: setup.world, seed: setup.seed)
        var origins: [LoggedRequest.Host: String] = [:]
        for h in server.hosts { origins[h.host] = URLParts(h.liveURL)?.origin }
        self.origins = origins
    }

    /// Stops the server (the scenario is over).
    func close() {
        try? server.shutdownAndWait()
    }

    func exchange(_ request: HTTPRequest, host: LoggedRequest.Host, link: inout HostConditions,
                  relativePath: String?, at now: Instant) -> SimulatedNetwork.Outcome {
        let result = send(request, to: host, at: now, timeout: link.mode == .silent ? LiveWire.silentWait : link.latency + LiveWire.slack)
        switch (link.mode, result) {
        case (.silent, _):
            return .never
        case (_, .response):
            return .answer(result, after: link.latency)
        case (_, .failure), (_, .timeout):
            // A refused connection is immediate; anything else is a live fault the simulation has no
            // counterpart for, and shows in the transcript as that failure.
            return .answer(result, after: .zero)
        }
    }

    func direct(_ request: HTTPRequest, at now: Instant) -> HTTPResult {
        guard let host = host(for: request.url) else { return .failure("could not resolve host") }
        return send(request, to: host, at: now, timeout: LiveWire.slack)
    }

    func changed(_ command: NetCommand, host: LoggedRequest.Host) throws(SimulationError) {
        do {
            try server.applyAndWait(command, to: host)
        } catch {
            throw SimulationError("the live server refused the net step: \(error)")
        }
    }

    func host(for url: String) -> LoggedRequest.Host? { hosts.host(for: url) }

    var log: [LoggedRequest] { server.requestLog() }

    /// The request goes to its host's port with its own path, query and `Host`; the server's clock
    /// reads `now` while it handles it.
    private func send(_ request: HTTPRequest, to host: LoggedRequest.Host, at now: Instant, timeout: Millis) -> HTTPResult {
        guard let parts = URLParts(request.url), let origin = origins[host] else {
            return .failure("could not resolve host")
        }
        var live = request
        live.url = origin + (parts.path.isEmpty ? "/" : parts.path) + (parts.rawQuery.map { "?" + $0 } ?? "")
        if live.headers["Host"] == nil { live.headers.add("Host", parts.authority) }
        server.clock.hold(at: now)
        return transport.perform(live, timeout: timeout)
    }
}
