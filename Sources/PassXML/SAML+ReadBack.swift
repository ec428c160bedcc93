import PassModel

/// Whether a message, written by `SAML.build` and read by the matching `SAML.parse…`, comes back
/// exactly as it was (an assertion's `signature` aside: the builder writes none, the signer adds
/// it). A writer in the same process may then hand the value over instead of the bytes (the mock's
/// typed runs) and no reader can tell. Conservative: false only means "send the bytes", so the
/// rules are simpler than XML's. Every string must be XML characters without controls (no tab,
/// newline or CR either: attribute values are normalized and CRs folded on reading); a required
/// element's text must be non-empty with no space at either end (the parser trims it); instants must
/// be in years 1970 to 9999 (the 4-digit form `ISO8601` writes); the Response's and the assertion's
/// IDs must differ (the parser refuses two elements with one ID); the attributes must stay small,
/// far below `XMLLimits.standard`.
extension SAML {
    public static func readsBack(_ r: AuthnRequest) -> Bool {
        ReadBack.attribute(r.id) && ReadBack.instant(r.issueInstant) && ReadBack.text(r.issuer)
            && ReadBack.attribute(r.destination) && ReadBack.attribute(r.assertionConsumerServiceURL)
    }

    public static func readsBack(_ r: SAMLResponse) -> Bool {
        guard ReadBack.attribute(r.id), ReadBack.attribute(r.inResponseTo), ReadBack.instant(r.issueInstant),
            ReadBack.text(r.issuer), ReadBack.attribute(r.destination)
        else { return false }
        guard let a = r.assertion else { return true }
        guard a.id != r.id, ReadBack.attribute(a.id), ReadBack.instant(a.issueInstant), ReadBack.text(a.issuer),
            ReadBack.text(a.nameID), ReadBack.attribute(a.sessionIndex), ReadBack.instant(a.notOnOrAfter),
            ReadBack.text(a.audience)
        else { return false }
        var bytes = 0
        var values = 0
        for attribute in a.attributes {
            guard ReadBack.attribute(attribute.name) else { return false }
            bytes += attribute.name.utf8.count
            for value in attribute.values {
                // Optional text: may be empty, but is trimmed like any other.
                guard value.isEmpty || ReadBack.text(value) else { return false }
                bytes += value.utf8.count
                values += 1
            }
        }
        return bytes <= ReadBack.maxAttributeBytes && values <= ReadBack.maxAttributeValues
    }

    public static func readsBack(_ r: LogoutRequest) -> Bool {
        ReadBack.attribute(r.id) && ReadBack.instant(r.issueInstant) && ReadBack.text(r.issuer)
            && ReadBack.attribute(r.destination) && ReadBack.text(r.nameID) && ReadBack.text(r.sessionIndex)
    }

    public static func readsBack(_ r: LogoutResponse) -> Bool {
        ReadBack.attribute(r.id) && ReadBack.attribute(r.inResponseTo) && ReadBack.instant(r.issueInstant)
            && ReadBack.text(r.issuer) && ReadBack.attribute(r.destination)
    }
}

/// The rules `readsBack` predicates share (`SAML`, `ConfigurationXML`).
enum ReadBack {
    /// Far below `XMLLimits.standard` (1 MB, 10,000 elements, 64 KiB an attribute) whatever the rest.
    static let maxAttributeBytes = 65_536 / 2
    static let maxAttributeValues = 1000

    /// 1970-01-01 to 9999-12-31, in milliseconds.
    static let instants: ClosedRange<Int64> = 0...253_402_300_799_999

    static func instant(_ i: Instant) -> Bool { instants.contains(i.milliseconds) }

    /// An attribute value: read back as written when it holds no control character.
    static func attribute(_ s: String) -> Bool {
        // ASCII is the usual case (IDs, URLs): one pass over the bytes.
        var ascii = true
        for b in s.utf8 {
            if b < 0x20 || b == 0x7F { return false }
            if b >= 0x80 { ascii = false }
        }
        if ascii { return true }
        return s.unicodeScalars.allSatisfy { c in
            !(0x80...0x9F).contains(c.value) && c.value != 0xFFFE && c.value != 0xFFFF
        }
    }

    /// A required element's text: non-empty, no control character, no space at either end.
    static func text(_ s: String) -> Bool {
        guard let first = s.utf8.first, let last = s.utf8.last, first != 0x20, last != 0x20 else { return false }
        return attribute(s)
    }
}
