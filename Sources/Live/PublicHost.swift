#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The name the server writes into its URLs (redirects, form actions, `/config`). A wildcard
/// address (`0.0.0.0`, `::`) is where the server listens, not where anyone can reach it, so it
/// stands for the machine's host name unless `--public-host` says otherwise.
enum PublicHost {
    static func isWildcard(_ address: String) -> Bool {
        ["0.0.0.0", "::", "[::]", "", "*"].contains(address)
    }

    static func defaultName(bound address: String) -> String {
        guard isWildcard(address) else { return address }
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "localhost" : name
    }

    /// An IPv6 address goes in brackets in a URL.
    static func inURL(_ host: String) -> String {
        host.contains(":") && !host.hasPrefix("[") ? "[" + host + "]" : host
    }
}
