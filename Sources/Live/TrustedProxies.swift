import NIOCore
import PassModel

/// The fronts whose `X-Forwarded-For` the server believes (`passim serve --trusted-proxy ADDR`).
/// The mock's throttle counts calls by that header's first address, as Adobe's does (rest-api-v2.md
/// 1.10), so a client allowed to write it chose its own bucket on every call: 40 calls with 40
/// addresses all went through. From any other peer the header is dropped before the mock sees it
/// (and journals it), and the throttle counts by the device (docs/CONFORMANCE.md, choice 94).
///
/// A trusted proxy must set the header to the address it saw, not append to what the client sent:
/// the mock reads the first address, like Adobe's edge.
public struct TrustedProxies: Hashable, Sendable {
    /// Addresses as `canonical(_:)` writes them.
    public let addresses: Set<String>

    public static let none = TrustedProxies(canonical: [])
    /// The live runtime of `passim run --live`: the harness on loopback plays Adobe's edge, naming
    /// the simulated device and second screen in the header.
    public static let loopback = TrustedProxies(canonical: ["127.0.0.1", "::1"])

    private init(canonical: Set<String>) { addresses = canonical }

    /// Each text an IPv4 or IPv6 address (no name, no port, no range); nil when one is not.
    public init?(_ texts: [String]) {
        var set = Set<String>()
        for text in texts {
            guard let address = TrustedProxies.canonical(text) else { return nil }
            set.insert(address)
        }
        addresses = set
    }

    /// The address in one spelling: what `inet_ntop` writes, an IPv4-mapped IPv6 address as IPv4
    /// (a dual-stack listener sees an IPv4 client so).
    public static func canonical(_ text: String) -> String? {
        guard let address = try? SocketAddress(ipAddress: text, port: 0) else { return nil }
        return address.ipAddress.map(unmapped)
    }

    static func unmapped(_ ip: String) -> String {
        let prefix = "::ffff:"
        guard ip.lowercased().hasPrefix(prefix), ip.contains(".") else { return ip }
        return String(ip.dropFirst(prefix.count))
    }

    public func trusts(_ peer: SocketAddress?) -> Bool {
        guard !addresses.isEmpty, let ip = peer?.ipAddress else { return false }
        return addresses.contains(TrustedProxies.unmapped(ip))
    }

    /// The request as the mock is handed it: unchanged from a trusted proxy, else without any
    /// `X-Forwarded-For` field.
    func edge(_ request: HTTPRequest, from peer: SocketAddress?) -> HTTPRequest {
        guard !trusts(peer),
            request.headers.fields.contains(where: { $0.name.lowercased() == "x-forwarded-for" })
        else { return request }
        var out = request
        out.headers.fields.removeAll { $0.name.lowercased() == "x-forwarded-for" }
        return out
    }
}
