/// Whether `ConfigurationXML.parse(build(c))` gives `c` back exactly, as `SAML.readsBack` says of
/// SAML messages (and as conservative: false only means "send the bytes"). Every text is an
/// element's, read trimmed, so it must be non-empty with no space at either end and no control
/// character; MVPD ids must differ (the parser keeps the first of a repeated id); an MVPD carries
/// nothing the XML does not (`spURL` is the engine's own); the list stays far below the parser's
/// limits.
extension ConfigurationXML {
    public static func readsBack(_ c: SPConfiguration) -> Bool {
        guard ReadBack.text(c.requestorID), ReadBack.text(c.requestorName), c.mvpds.count <= maxMVPDs else {
            return false
        }
        for optional in [c.device, c.clientType, c.os] {
            if let text = optional, !ReadBack.text(text) { return false }
        }
        var ids = Set<String>()
        var bytes = 0
        for m in c.mvpds {
            guard ids.insert(m.id).inserted, ReadBack.text(m.id), ReadBack.text(m.displayName), m.spURL == nil
            else { return false }
            if let logo = m.logoURL, !ReadBack.text(logo) { return false }
            bytes += m.id.utf8.count + m.displayName.utf8.count + (m.logoURL?.utf8.count ?? 0)
        }
        return bytes <= maxTextBytes
    }

    /// Far below `XMLLimits.standard` (10,000 elements, 1 MB) with the ten elements an MVPD writes.
    static let maxMVPDs = 500
    static let maxTextBytes = 256 * 1024
}
