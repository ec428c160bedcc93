import FuzzSupport
import MockPass
import PassModel

/// libFuzzer target: the mock server's request handling. The input is read as a raw request:
/// `METHOD URL` on the first line, `Name: value` headers, a blank line, then the body.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMockRequest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // The server's limits, so log truncation and the bounded stores are exercised too.
    var mock = MockPass(world: sampleWorld, seed: 1, limits: .standard)
    let request = RawRequest.parse(bytes)
    let response = mock.handle(request, at: .simulationStart)
    // A response always has a status a client can act on.
    guard (100..<600).contains(response.status) else { fatalError("status \(response.status) for \(request.url)") }
    return 0
}

let sampleWorld = World(
    serviceProviders: [
        World.ServiceProvider(
            name: "main", url: "https://sp.test",
            mvpds: [
                MVPD(id: "Comcast", displayName: "Xfinity"),
                MVPD(id: "TempPass", displayName: "Temp", tempPass: true),
            ])
    ],
    identityProviders: [World.IdentityProvider(mvpdID: "Comcast")],
    users: [World.User(name: "alice", password: "secret", mvpdID: "Comcast", allow: ["CNN"])],
    requestors: [World.Requestor(id: "REQ1")],
    tempPasses: [World.TempPass(mvpdID: "TempPass", ttl: .minutes(30))])

/// Splits fuzz bytes into a request; anything goes, as on a real socket.
enum RawRequest {
    static func parse(_ bytes: [UInt8]) -> HTTPRequest {
        let text = String(decoding: bytes, as: UTF8.self)
        let parts = text.split(separator: "\n\n", maxSplits: 1, omittingEmptySubsequences: false)
        let head = parts.first.map { $0.split(separator: "\n", omittingEmptySubsequences: false) } ?? []
        let start = head.first?.split(separator: " ", maxSplits: 1) ?? []
        var headers = HTTPHeaders()
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.add(String(line[..<colon]), String(line[line.index(after: colon)...]).trimmingCharacters(in: " "))
        }
        let body = parts.count > 1 ? Array(parts[1].utf8) : []
        return HTTPRequest(
            method: start.first.map(String.init) ?? "", url: start.count > 1 ? String(start[1]) : "",
            headers: headers, body: body)
    }
}

extension String {
    func trimmingCharacters(in set: Character) -> String {
        String(drop { $0 == set }.reversed().drop { $0 == set }.reversed())
    }
}

#if !FUZZING
    @main
    enum Replay {
        static func main() { CorpusReplay.run(fuzzMockRequest) }
    }
#endif
