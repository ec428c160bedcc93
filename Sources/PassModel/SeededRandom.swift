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
    public mutating func hex(_ n: Int) -> String { String(decoding: hexDigits(n), as: UTF8.self) }

    /// A GUID-shaped string (8-4-4-4-12 hex).
    public mutating func guid() -> String {
        var h = hexDigits(32)
        for at in [20, 16, 12, 8] { h.insert(UInt8(ascii: "-"), at: at) }
        return String(decoding: h, as: UTF8.self)
    }

    /// `n` lowercase hex digits: each draw written as 16 digits, zero-padded, the last cut to fit.
    /// Bytes, not strings: every session, token and request id of a run is drawn here.
    private mutating func hexDigits(_ n: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(n + 16)
        while out.count < n {
            let value = next()
            for shift in stride(from: 60, through: 0, by: -4) {
                out.append(SeededRandom.lowercaseHex[Int((value >> UInt64(shift)) & 0xF)])
            }
        }
        out.removeLast(out.count - max(n, 0))
        return out
    }

    private static let lowercaseHex = Array("0123456789abcdef".utf8)

    /// `n` characters from `alphabet` (registration codes, cookies).
    public mutating func code(_ n: Int, alphabet: String = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789") -> String {
        let a = Array(alphabet)
        return String((0..<n).map { _ in a[Int(next() % UInt64(a.count))] })
    }
}
