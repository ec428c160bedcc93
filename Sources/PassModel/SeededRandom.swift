/// SplitMix64: the only source of randomness in the simulated runtime (tokens, nonces, session
/// GUIDs). Same seed, same sequence, on every platform.
///
/// SplitMix64 is invertible: one drawn value gives back the state, hence every later value of the
/// stream. That is fine for a simulation and for `passim serve --seed N` (a reproducible server is
/// the point), but a server others talk to must not let one client's token tell another's: there
/// `secure()` draws every value from the system's secure random source instead.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64
    /// Every value from `SystemRandomNumberGenerator`; `state` is unused.
    private let secure: Bool
    public init(seed: UInt64) {
        state = seed
        secure = false
    }

    /// Not seeded at all: every value from the system's secure random source (getrandom, arc4random),
    /// so no value tells anything about another, and no two processes draw the same. Not reproducible.
    public static func secure() -> SeededRandom { SeededRandom(secureSource: ()) }

    private init(secureSource: Void) {
        state = 0
        secure = true
    }

    /// Whether this draws from the system's source (`secure()`) rather than a seed.
    public var isSecure: Bool { secure }

    /// A stream of its own for one kind of value, drawn from the same seed: the seed mixed with the
    /// FNV-1a hash of `stream`. What it draws does not move when another stream draws more.
    public init(seed: UInt64, stream: String) {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in stream.utf8 { hash = (hash ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        var mixer = SeededRandom(seed: seed ^ hash)
        state = mixer.next()
        secure = false
    }

    public mutating func next() -> UInt64 {
        if secure {
            var system = SystemRandomNumberGenerator()
            return system.next()
        }
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `n` lowercase hex digits.
    public mutating func hex(_ n: Int) -> String {
        var out = ""
        while out.count < n { out += String(next(), radix: 16).leftPad(16) }
        return String(out.prefix(n))
    }

    /// A GUID-shaped string (8-4-4-4-12 hex).
    public mutating func guid() -> String {
        let h = hex(32)
        let c = Array(h)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(c[$0]) }.joined(separator: "-")
    }

    /// `n` characters from `alphabet` (registration codes, cookies).
    public mutating func code(_ n: Int, alphabet: String = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789") -> String {
        let a = Array(alphabet)
        return String((0..<n).map { _ in a[Int(next() % UInt64(a.count))] })
    }
}
