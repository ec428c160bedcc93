import PassModel

/// SAML instants: `2026-01-01T00:00:00Z`, with `.mmm` only when the milliseconds are not zero.
/// Computed by hand so that no locale, time zone or Foundation formatter can change the text.
enum ISO8601 {
    static func format(_ instant: Instant) -> String {
        let ms = instant.milliseconds
        let secs = ms >= 0 ? ms / 1000 : (ms - 999) / 1000
        let milli = ms - secs * 1000
        let days = secs >= 0 ? secs / 86_400 : (secs - 86_399) / 86_400
        let rem = secs - days * 86_400
        let (y, m, d) = Instant.civil(fromDays: days)
        var s = "\(pad(y, 4))-\(pad(m))-\(pad(d))T\(pad(rem / 3600)):\(pad(rem % 3600 / 60)):\(pad(rem % 60))"
        if milli != 0 { s += ".\(pad(milli, 3))" }
        return s + "Z"
    }

    /// Accepts `YYYY-MM-DDTHH:MM:SS[.fraction](Z|+hh:mm|-hh:mm)`; fractions beyond milliseconds are cut.
    static func parse(_ text: String) -> Instant? {
        let b = Array(XMLText.trim(text).utf8)
        func num(_ from: Int, _ count: Int) -> Int64? {
            guard from + count <= b.count else { return nil }
            var v: Int64 = 0
            for i in from..<from + count {
                guard b[i] >= 0x30, b[i] <= 0x39 else { return nil }
                v = v * 10 + Int64(b[i] - 0x30)
            }
            return v
        }
        guard b.count >= 20, b[4] == 0x2D, b[7] == 0x2D, b[10] == 0x54, b[13] == 0x3A, b[16] == 0x3A,
            let y = num(0, 4), let mo = num(5, 2), let d = num(8, 2),
            let h = num(11, 2), let mi = num(14, 2), let s = num(17, 2),
            (1...12).contains(mo), (1...31).contains(d), h < 24, mi < 60, s < 61
        else { return nil }
        var i = 19
        var milli: Int64 = 0
        if b[i] == 0x2E {
            i += 1
            var digits = 0
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
                if digits < 3 { milli = milli * 10 + Int64(b[i] - 0x30) }
                digits += 1
                i += 1
            }
            guard digits > 0 else { return nil }
            if digits < 3 { for _ in digits..<3 { milli *= 10 } }
        }
        var offset: Int64 = 0
        if i == b.count - 1, b[i] == 0x5A {
            offset = 0
        } else if i + 6 == b.count, b[i] == 0x2B || b[i] == 0x2D, b[i + 3] == 0x3A,
            let oh = num(i + 1, 2), let om = num(i + 4, 2)
        {
            offset = (oh * 3600 + om * 60) * (b[i] == 0x2B ? 1 : -1)
        } else {
            return nil
        }
        let secs = Instant.days(fromCivil: y, mo, d) * 86_400 + h * 3600 + mi * 60 + s - offset
        return Instant(milliseconds: secs * 1000 + milli)
    }

    private static func pad(_ v: Int64, _ n: Int = 2) -> String {
        let s = String(v)
        return s.count >= n ? s : String(repeating: "0", count: n - s.count) + s
    }
}

extension XMLElement {
    func requireInstant(_ attributeName: String) throws(PassXMLError) -> Instant {
        let text = try requireAttribute(attributeName)
        guard let instant = ISO8601.parse(text) else {
            throw PassXMLError("invalid ISO-8601 instant '\(text)' in attribute \(attributeName) of <\(name)>")
        }
        return instant
    }
}
