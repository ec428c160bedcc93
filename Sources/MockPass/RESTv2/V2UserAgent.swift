import PassModel

/// What Adobe's backend extracts from a REST API v2 request's `User-Agent` when X-Device-Info does not
/// say it ("When provided, the Adobe Pass Authentication backend will merge explicitly set values with
/// extracted values implicitly", the sessions and configuration pages), in X-Device-Info's own terms.
/// Adobe does not say how it reads a user agent; passim recognises the common browsers and systems
/// by their usual tokens and nothing else (docs/CONFORMANCE.md, choice 89): an Apple TV's user agent,
/// like the one of Adobe's configuration sample, says nothing it knows, as Adobe answers that sample.
struct V2UserAgent: Sendable, Equatable {
    /// An operating system, named as Adobe's session sample names a Mac's (`macOS`, family `macOS`).
    struct OS: Sendable, Equatable {
        var name: String
        var family: String
        var vendor: String?
        var version: String?
    }

    /// One of X-Device-Info's `primaryHardwareType` values.
    var hardwareType: String?
    var vendor: String?
    var manufacturer: String?
    var os: OS?
    var browserName: String?
    var browserVendor: String?
    var browserVersion: String?

    init(_ text: String) {
        func has(_ token: String) -> Bool { V2UserAgent.range(of: token, in: text) != nil }
        if has("iPhone") || has("iPad") {
            hardwareType = has("iPad") ? "Tablet" : "MobilePhone"
            (vendor, manufacturer) = ("Apple", "Apple")
            os = OS(name: "iOS", family: "iOS", vendor: "Apple", version: V2UserAgent.word(after: " OS ", in: text))
        } else if has("Macintosh") {
            hardwareType = "Desktop"
            (vendor, manufacturer) = ("Apple", "Apple")
            os = OS(
                name: "macOS", family: "macOS", vendor: "Apple", version: V2UserAgent.word(after: "Mac OS X ", in: text)
            )
        } else if has("Windows NT") {
            hardwareType = "Desktop"
            os = OS(
                name: "Windows", family: "Windows", vendor: "Microsoft",
                version: V2UserAgent.word(after: "Windows NT ", in: text))
        } else if has("Android") {
            hardwareType = has("Mobile") ? "MobilePhone" : "Tablet"
            os = OS(
                name: "Android", family: "Android", vendor: "Google",
                version: V2UserAgent.word(after: "Android ", in: text))
        } else if has("CrOS") {
            hardwareType = "Desktop"
            os = OS(name: "Chrome OS", family: "Linux", vendor: "Google", version: nil)
        } else if has("Linux") {
            hardwareType = "Desktop"
            os = OS(name: "Linux", family: "Linux", vendor: nil, version: nil)
        }
        // Browsers, the most specific token first (Edge and Opera also say Chrome, Chrome says Safari).
        let browsers: [(token: String, name: String, vendor: String?)] = [
            ("Edg/", "Edge", "Microsoft"), ("OPR/", "Opera", nil), ("FxiOS/", "Firefox", "Mozilla"),
            ("Firefox/", "Firefox", "Mozilla"), ("CriOS/", "Chrome", "Google"), ("Chrome/", "Chrome", "Google"),
        ]
        if let b = browsers.first(where: { has($0.token) }) {
            (browserName, browserVendor) = (b.name, b.vendor)
            browserVersion = V2UserAgent.word(after: b.token, in: text)
        } else if has("Safari/"), has("Version/") {
            (browserName, browserVendor) = ("Safari", "Apple")
            browserVersion = V2UserAgent.word(after: "Version/", in: text)
        }
    }

    /// The version after `marker`, up to a blank, `;` or `)`, with `_` read as `.` (`10_15_7`).
    static func word(after marker: String, in text: String) -> String? {
        guard let range = V2UserAgent.range(of: marker, in: text) else { return nil }
        let rest = text[range.upperBound...].prefix { $0 != " " && $0 != ";" && $0 != ")" }
        let version = String(rest.map { $0 == "_" ? "." : $0 })
        return version.first?.isNumber == true ? version : nil
    }

    /// Where `token` first is in `text`: by bytes in an ASCII text (every user agent a client sends;
    /// a byte is a character there, so the answer is the same), by Characters in any other. The
    /// generic search was a twentieth of a REST v2 fuzz run: a configuration reads a dozen tokens.
    static func range(of token: String, in text: String) -> Range<String.Index>? {
        text.utf8.allSatisfy({ $0 < 0x80 }) ? text.literalRange(of: token) : text.firstRange(of: token)
    }
}
