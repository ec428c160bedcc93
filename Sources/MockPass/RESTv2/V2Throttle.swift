import PassModel

/// Adobe's throttle for one device (rest-api-v2.md 1.10): one call per second, counted in whole
/// seconds from the device's first call, plus a one-time burst of 10 spent when a second's call
/// is already used. A refused call stays refused until the next second begins. Adobe's worked
/// table is reproduced exactly by this model (`V2ThrottleTests`); the prose's "429 for one second
/// after the first refusal" would refuse its call at 3.1 s, which the table answers: the table wins
/// (docs/WIRE.md, "REST API v2").
struct V2Bucket: Sendable {
    static let burst = 10

    var first: Instant
    var burstLeft: Int
    /// The second (from `first`) whose call was last used, nil when none yet.
    var usedSecond: Int64?

    init(first: Instant) {
        self.first = first
        burstLeft = V2Bucket.burst
        usedSecond = nil
    }

    /// Takes a call at `now`: true when it may go through.
    mutating func take(at now: Instant) -> Bool {
        let elapsed = max(now.milliseconds - first.milliseconds, 0)
        let second = elapsed / 1000
        if usedSecond != second {
            usedSecond = second
            return true
        }
        guard burstLeft > 0 else { return false }
        burstLeft -= 1
        return true
    }

    /// Milliseconds until the next second begins (the `Retry-After` a refusal could give, rounded up to 1 s).
    func waitMillis(at now: Instant) -> Int64 {
        1000 - max(now.milliseconds - first.milliseconds, 0) % 1000
    }
}
