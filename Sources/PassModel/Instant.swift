/// A point on the simulated (or shifted live) clock: milliseconds since the Unix epoch.
/// The engine never reads a clock; every input carries the time it happens at.
public struct Instant: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var milliseconds: Int64
    public init(milliseconds: Int64) { self.milliseconds = milliseconds }

    /// Where every simulated run starts: 2026-01-01 00:00:00 GMT.
    public static let simulationStart = Instant(milliseconds: 1_767_225_600_000)

    public static func < (a: Instant, b: Instant) -> Bool { a.milliseconds < b.milliseconds }

    /// Whole seconds, rounded down: what a token's date (`tokenDate`) can carry. A server stamps a
    /// token with this so that the token it gets back reads exactly as the one it issued.
    public var wholeSeconds: Instant {
        let ms = milliseconds
        return Instant(milliseconds: ms - ((ms % 1000) + 1000) % 1000)
    }
    public static func + (a: Instant, d: Millis) -> Instant { Instant(milliseconds: a.milliseconds + d.value) }
    public static func - (a: Instant, b: Instant) -> Millis { Millis(a.milliseconds - b.milliseconds) }

    /// The token date format `yyyy/MM/dd HH:mm:ss 'GMT' Z` (always GMT +0000 here), computed without
    /// Foundation's formatters so no locale or time-zone setting can change a transcript.
    public var tokenDate: String {
        let f = civilFields
        func p(_ v: Int64, _ n: Int = 2) -> String { String(v).leftPad(n) }
        return "\(p(f.year, 4))/\(p(f.month))/\(p(f.day)) \(p(f.hour)):\(p(f.minute)):\(p(f.second)) GMT +0000"
    }

    /// The instant's date and time in UTC, as `tokenDate` writes them (and a writer that puts the
    /// digits in place of the text: `XMLWriter.leaf(_:tokenDate:)`).
    public var civilFields: (year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64) {
        let secs = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        let days = secs >= 0 ? secs / 86_400 : (secs - 86_399) / 86_400
        let rem = secs - days * 86_400
        let (y, m, d) = Instant.civil(fromDays: days)
        return (y, m, d, rem / 3600, rem % 3600 / 60, rem % 60)
    }

    /// Parses `tokenDate` back (any `+hhmm`/`-hhmm` offset).
    public init?(tokenDate s: String) {
        let parts = s.split(separator: " ")
        guard parts.count == 4, parts[2] == "GMT" else { return nil }
        let date = parts[0].split(separator: "/").compactMap { Int64($0) }
        let time = parts[1].split(separator: ":").compactMap { Int64($0) }
        let zone = parts[3]
        guard date.count == 3, time.count == 3, zone.count == 5, let sign = zone.first, sign == "+" || sign == "-",
            let hh = Int64(zone.dropFirst().prefix(2)), let mm = Int64(zone.suffix(2))
        else { return nil }
        let days = Instant.days(fromCivil: date[0], date[1], date[2])
        let offset = (hh * 3600 + mm * 60) * (sign == "+" ? 1 : -1)
        milliseconds = (days * 86_400 + time[0] * 3600 + time[1] * 60 + time[2] - offset) * 1000
    }

    public var description: String { tokenDate }

    // Howard Hinnant's days-from-civil algorithms, public for the other date texts (SAML's ISO 8601
    // in PassXML), which must not depend on a locale or a Foundation formatter either.
    /// (year, month, day) of the proleptic Gregorian calendar, `z0` days after 1970-01-01.
    public static func civil(fromDays z0: Int64) -> (Int64, Int64, Int64) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    /// Days from 1970-01-01 to year `y0`, month `m`, day `d`.
    public static func days(fromCivil y0: Int64, _ m: Int64, _ d: Int64) -> Int64 {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}

/// A span of simulated time in milliseconds, written `250ms`, `30s`, `5m`, `2h`, `1d` in scenarios.
public struct Millis: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var value: Int64
    public init(_ value: Int64) { self.value = value }

    public static func seconds(_ s: Int64) -> Millis { Millis(s * 1000) }
    public static func minutes(_ m: Int64) -> Millis { Millis(m * 60_000) }
    public static func hours(_ h: Int64) -> Millis { Millis(h * 3_600_000) }
    public static let zero = Millis(0)

    public static func < (a: Millis, b: Millis) -> Bool { a.value < b.value }
    public static func + (a: Millis, b: Millis) -> Millis { Millis(a.value + b.value) }

    private static let units: [(String, Int64)] = [
        ("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000), ("d", 86_400_000),
    ]

    /// Parses `250ms`, `30s`, `5m`, `2h`, `1d`; nil for anything else (no sign, no fraction).
    public init?(text: String) {
        for (suffix, factor) in Millis.units.sorted(by: { $0.0.count > $1.0.count }) where text.hasSuffix(suffix) {
            let digits = text.dropLast(suffix.count)
            guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
                let n = Int64(digits)
            else { return nil }
            let (v, overflow) = n.multipliedReportingOverflow(by: factor)
            guard !overflow else { return nil }
            value = v
            return
        }
        return nil
    }

    /// The shortest exact text: `1500ms`, `30s`, `2h`.
    public var description: String {
        for (suffix, factor) in Millis.units.reversed() where value != 0 && value % factor == 0 {
            return "\(value / factor)\(suffix)"
        }
        return "\(value)ms"
    }
}
