import PassModel

/// Reads back a token in exactly the text `AuthnTokenXML.build` and `AuthzTokenXML.build` write:
/// the envelope with passim's own signature marker, the root, then each field in build order as
/// `<name>value</name>` or `<name/>`, and nothing else. Every token the mock receives is one it
/// issued, and parsing each with libxml2 was a visible share of a fuzz run.
///
/// It reads only what libxml2 would read the same way, and gives up (nil) on anything else, for
/// the full parse to decide, errors included: a value must be printable ASCII without `< & >`
/// (no entity, markup or line ending, so its text is its bytes) and without a space at either end
/// (so trimming leaves it as it is), and the document is far under every `XMLLimits.standard`
/// (two levels, nine elements, no attribute, and at most `maxBytes`, checked).
struct CanonicalTokenReader {
    private let bytes: [UInt8]
    private var i = 0

    /// After the envelope, which must be passim's own, with no leading whitespace.
    init?(_ bytes: [UInt8]) {
        guard bytes.count <= XMLLimits.standard.maxBytes else { return nil }
        self.bytes = bytes
        guard expect(TokenEnvelope.marker), expect(TokenEnvelope.signature), expect(TokenEnvelope.marker) else {
            return nil
        }
    }

    var atEnd: Bool { i == bytes.count }

    /// Consumes `text` if the bytes continue with it.
    mutating func expect(_ text: String) -> Bool {
        // Compared over both buffers (the names are constants, contiguous): a token read takes
        // some fifty of these, and walking the text's UTF-8 view was most of the reading.
        let at = i
        let matched =
            text.utf8.withContiguousStorageIfAvailable { t in
                bytes.withUnsafeBufferPointer { b in
                    guard t.count <= b.count - at else { return false }
                    for k in 0..<t.count where b[at + k] != t[k] { return false }
                    return true
                }
            } ?? bytes[at...].starts(with: text.utf8)
        if matched { i = at + text.utf8.count }
        return matched
    }

    /// `<name/>` (""), or `<name>value</name>` (the value); nil when the bytes are not that.
    mutating func leaf(_ name: String) -> String? {
        guard let range = leafRange(name) else { return nil }
        return String(decoding: bytes[range], as: UTF8.self)
    }

    /// The token date of a `<name>value</name>` leaf: `Instant(tokenDate:)` of its text, read
    /// straight from the bytes when they are the form `Instant.tokenDate` writes
    /// (`yyyy/MM/dd HH:mm:ss GMT ±hhmm`, digits only), the same fields and the same arithmetic.
    mutating func dateLeaf(_ name: String) -> Instant? {
        guard let range = leafRange(name), !range.isEmpty else { return nil }
        let b = bytes[range]
        func digits(_ at: Int, _ count: Int) -> Int64? {
            var v: Int64 = 0
            for k in at..<(at + count) {
                let c = b[b.startIndex + k]
                guard c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") else { return nil }
                v = v * 10 + Int64(c - UInt8(ascii: "0"))
            }
            return v
        }
        func byte(_ at: Int) -> UInt8 { b[b.startIndex + at] }
        guard b.count == 29, byte(4) == UInt8(ascii: "/"), byte(7) == UInt8(ascii: "/"), byte(10) == 0x20,
            byte(13) == UInt8(ascii: ":"), byte(16) == UInt8(ascii: ":"),
            b[(b.startIndex + 19)..<(b.startIndex + 24)].elementsEqual(" GMT ".utf8),
            byte(24) == UInt8(ascii: "+") || byte(24) == UInt8(ascii: "-"),
            let y = digits(0, 4), let m = digits(5, 2), let d = digits(8, 2),
            let hour = digits(11, 2), let minute = digits(14, 2), let second = digits(17, 2),
            let hh = digits(25, 2), let mm = digits(27, 2)
        else { return Instant(tokenDate: String(decoding: b, as: UTF8.self)) }
        let days = Instant.days(fromCivil: y, m, d)
        let offset = (hh * 3600 + mm * 60) * (byte(24) == UInt8(ascii: "+") ? 1 : -1)
        return Instant(milliseconds: (days * 86_400 + hour * 3600 + minute * 60 + second - offset) * 1000)
    }

    /// Where the text of `<name/>` (empty) or `<name>value</name>` is; nil when the bytes are not that.
    private mutating func leafRange(_ name: String) -> Range<Int>? {
        guard expect("<"), expect(name) else { return nil }
        if expect("/>") { return i..<i }
        guard expect(">") else { return nil }
        let start = i
        while i < bytes.count, CanonicalTokenReader.isPlain(bytes[i]) { i += 1 }
        let end = i
        guard end > start, bytes[start] != 0x20, bytes[end - 1] != 0x20 else { return nil }
        guard expect("</"), expect(name), expect(">") else { return nil }
        return start..<end
    }

    /// Whether a leaf's text may hold `b` as itself.
    private static func isPlain(_ b: UInt8) -> Bool {
        b >= 0x20 && b <= 0x7E && b != UInt8(ascii: "<") && b != UInt8(ascii: "&") && b != UInt8(ascii: ">")
    }
}

extension AuthnTokenXML {
    /// `parse` of a token exactly as `build` writes it, without libxml2; nil for any other text
    /// (`CanonicalTokenReader`), including one `parse` would refuse.
    static func parseCanonical(_ bytes: [UInt8]) -> AuthnToken? {
        guard var r = CanonicalTokenReader(bytes), r.expect("<simpleAuthenticationToken>"),
            let guid = r.leaf("simpleTokenAuthenticationGuid"), !guid.isEmpty,
            let requestorID = r.leaf("simpleTokenRequestorID"), !requestorID.isEmpty,
            let domainName = r.leaf("simpleTokenDomainName"),
            let expires = r.dateLeaf("simpleTokenExpires"),
            let mvpdID = r.leaf("simpleTokenMsoID"), !mvpdID.isEmpty,
            let deviceID = r.leaf("simpleTokenDeviceID"), !deviceID.isEmpty,
            let nameID = r.leaf("simpleSamlNameID"),
            let sessionIndex = r.leaf("simpleSamlSessionIndex"),
            r.expect("</simpleAuthenticationToken>"), r.atEnd
        else { return nil }
        return AuthnToken(
            guid: guid, requestorID: requestorID, domainName: domainName, expires: expires, mvpdID: mvpdID,
            deviceID: deviceID, nameID: nameID, sessionIndex: sessionIndex)
    }
}

extension AuthzTokenXML {
    /// `parse` of a token exactly as `build` writes it (with or without its TTL), without libxml2;
    /// nil for any other text (`CanonicalTokenReader`), including one `parse` would refuse.
    static func parseCanonical(_ bytes: [UInt8]) -> AuthzToken? {
        guard var r = CanonicalTokenReader(bytes), r.expect("<simpleAuthorizationToken>"),
            let sessionGUID = r.leaf("simpleTokenAuthenticationGuid"), !sessionGUID.isEmpty,
            let requestorID = r.leaf("simpleTokenRequestorID"), !requestorID.isEmpty,
            let resourceID = r.leaf("simpleTokenResourceID"), !resourceID.isEmpty,
            let mvpdID = r.leaf("simpleTokenMsoID"), !mvpdID.isEmpty,
            let deviceID = r.leaf("simpleTokenDeviceID"),
            let expires = r.dateLeaf("simpleTokenExpires")
        else { return nil }
        if !r.expect("</simpleAuthorizationToken>") {
            // The TTL `parse` reads only to refuse one that is not milliseconds.
            guard let ttl = r.leaf("simpleTokenTTL"), Int64(ttl) != nil, r.expect("</simpleAuthorizationToken>")
            else { return nil }
        }
        guard r.atEnd else { return nil }
        return AuthzToken(
            sessionGUID: sessionGUID, requestorID: requestorID, resourceID: resourceID, mvpdID: mvpdID,
            deviceID: deviceID, expires: expires)
    }
}
