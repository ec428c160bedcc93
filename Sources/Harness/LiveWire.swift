import Live
import MockPass
import PassModel
import Port
import Simulation

/// The wire of `passim run --live`: every request of the engine, the browser and the second screen
/// goes over loopback HTTP, through libcurl, to a `MockPassServer` started for the scenario's world
/// (or a running `passim serve` that loaded it: `--server URL`).
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
    let server: any LiveServerControl
    private let transport: CurlTransport
    /// The world as written, for host lookups (the server's own table serves the same URLs).
    private let hosts: MockPass

    /// How long a request to a silent host is given before the wire stops waiting: long enough for the
    /// server to read it, which is what `silent` proves; the engine's own timeout (virtual) decides the rest.
    static let silentWait = Millis(50)
    /// A request to a host that is up gets this much beyond its latency before it counts as lost.
    static let slack = Millis.seconds(10)
    /// Past this wall-clock instant no request is sent: each answers a failure at once, so a server
    /// that stalls (a mock that loops, or answers nothing) costs a run at most its wall budget
    /// (`Runtime.wallBudget`, the mock comparison of `passim fuzz`).
    var deadline: ContinuousClock.Instant?

    /// `server` nil: a server in this process, for this scenario's world.
    init(_ setup: SimulationSetup, server: (any LiveServerControl)? = nil) throws(LiveError) {
        if let server {
            self.server = server
        } else {
            self.server = try InProcessServer(setup)
        }
        do {
            transport = try CurlTransport()
        } catch {
            self.server.close()
            throw error
        }
        hosts = MockPass(world: setup.world, seed: setup.seed)
    }

    /// Stops the server (the scenario is over).
    func close() { server.close() }

    func exchange(
        _ request: HTTPRequest, host: LoggedRequest.Host, link: inout HostConditions,
        relativePath: String?, at now: Instant
    ) -> SimulatedNetwork.Outcome {
        let result = send(
            request, to: host, at: now,
            timeout: link.mode == .silent ? LiveWire.silentWait : link.latency + LiveWire.slack)
        return link.arrival(ofLive: result)
    }

    func direct(_ request: HTTPRequest, at now: Instant) -> HTTPResult {
        guard let host = host(for: request.url) else { return .failure("could not resolve host") }
        return send(request, to: host, at: now, timeout: LiveWire.slack)
    }

    func changed(_ command: NetCommand, host: LoggedRequest.Host) throws(SimulationError) {
        do {
            try server.apply(command, to: host)
        } catch {
            throw SimulationError("the live server refused the net step: \(error.message)")
        }
    }

    func host(for url: String) -> LoggedRequest.Host? { hosts.host(for: url) }

    var log: [LoggedRequest] { server.log() }

    /// The live network of a port (docs/PORTING.md): each origin of the world with its listener, and
    /// the server's clock held at each message's instant.
    func portNetwork(_ setup: SimulationSetup, fetchTimeout: Millis) -> LiveNetwork {
        var hosts: [(origin: String, connect: String)] = []
        for (host, url) in setup.bases {
            guard let origin = URLParts(url)?.origin, let connect = server.origins[host],
                !hosts.contains(where: { $0.origin == origin })
            else { continue }
            hosts.append((origin, connect))
        }
        let proxy = (server as? InProcessServer)?.proxy
        return LiveNetwork(hosts: hosts, fetchTimeout: fetchTimeout, proxy: proxy?.url, caFile: proxy?.caFile) {
            [server] now throws(PortError) in
            do throws(LiveError) {
                try server.hold(at: now)
            } catch {
                throw PortError("live server: \(error.message)")
            }
        }
    }

    /// The request goes to its host's port with its own path, query and `Host`; the server's clock
    /// reads `now` while it handles it.
    private func send(_ request: HTTPRequest, to host: LoggedRequest.Host, at now: Instant, timeout: Millis)
        -> HTTPResult
    {
        guard let origin = server.origins[host], let live = request.connecting(to: origin) else {
            return .failure("could not resolve host")
        }
        if let deadline, ContinuousClock.now >= deadline { return .failure("the run's wall budget is spent") }
        do {
            try server.hold(at: now)
        } catch {
            return .failure("live server: \(error.message)")
        }
        return transport.perform(live, timeout: timeout)
    }
}
