/// Adobe's wire form of authN and authZ tokens: `<signatureInfo>SIGNATURE<signatureInfo><simple…Token>…`,
/// the marker written twice and never closed (pass.en's token format page). Adobe's own readers
/// depend on exactly that: the JS AccessEnabler 4.x and the Android SDK 1.8 split the text at
/// `<signatureInfo>` and parse the third piece as XML, so a token in any other shape reads as empty
/// there. Tokens are unsigned here: the signature is a fixed marker, not read back.
enum TokenEnvelope {
    static let marker = "<signatureInfo>"
    static let signature = "unsigned (passim mock)"

    /// `marker + signature + marker`, appended to `w`: a token's XML follows it.
    static func write(_ w: inout XMLWriter) {
        w.appendMarkup(marker)
        w.appendMarkup(signature)
        w.appendMarkup(marker)
    }

    /// The XML after the envelope; nil when the bytes (after leading whitespace) do not start with the
    /// marker, so callers can still read the older `<authnToken>`-wrapped form. A text that starts
    /// with it must hold it exactly twice: a third copy would make Adobe's readers parse only the
    /// piece between the second and the third.
    static func unwrap(_ bytes: [UInt8]) throws(PassXMLError) -> ArraySlice<UInt8>? {
        let needle = Array(marker.utf8)
        var start = 0
        while start < bytes.count,
            bytes[start] == 0x20 || bytes[start] == 0x09 || bytes[start] == 0x0A || bytes[start] == 0x0D
        {
            start += 1
        }
        guard bytes[start...].starts(with: needle) else { return nil }
        guard let second = firstIndex(of: needle, in: bytes, from: start + needle.count) else {
            throw PassXMLError("a token that starts with \(marker) must have it twice, before its XML")
        }
        let xmlStart = second + needle.count
        if firstIndex(of: needle, in: bytes, from: xmlStart) != nil {
            throw PassXMLError("a token must have \(marker) exactly twice")
        }
        return bytes[xmlStart...]
    }

    private static func firstIndex(of needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, bytes.count >= needle.count, start <= bytes.count - needle.count else { return nil }
        for i in start...(bytes.count - needle.count) where bytes[i] == needle[0] {
            if bytes[i..<(i + needle.count)].elementsEqual(needle) { return i }
        }
        return nil
    }
}
