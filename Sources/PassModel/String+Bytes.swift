extension String {
    /// Whether `needle` occurs in this string, compared byte for byte in UTF-8. `contains` with a
    /// string literal picks Foundation's search, which bridges and honours locales and options; the
    /// simulated runtime asks this of every URL and world line, where that search was a visible
    /// share of a fuzz run (BENCHMARKS.md). `package`: for passim's modules, not its library's users.
    package func containsBytes(_ needle: String) -> Bool {
        var haystack = self
        var needle = needle
        return haystack.withUTF8 { h in
            needle.withUTF8 { n in
                guard !n.isEmpty else { return true }
                guard h.count >= n.count else { return false }
                let first = n[0]
                var i = 0
                while i <= h.count - n.count {
                    if h[i] == first, memcmpEqual(h, i, n) { return true }
                    i += 1
                }
                return false
            }
        }
    }
}

private func memcmpEqual(_ h: UnsafeBufferPointer<UInt8>, _ at: Int, _ n: UnsafeBufferPointer<UInt8>) -> Bool {
    for j in 1..<n.count where h[at + j] != n[j] { return false }
    return true
}
