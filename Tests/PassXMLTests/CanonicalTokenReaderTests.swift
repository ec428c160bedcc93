import Foundation
import Testing
import PassModel

@testable import PassXML

/// `parseCanonical` is a shortcut of `parse`: whenever it reads a token, the full parse (libxml2)
/// must read the same; the tokens `build` writes with plain values must take the shortcut.
@Suite struct CanonicalTokenReaderTests {
    static let authn = AuthnToken(
        guid: "5f1e2d3c-0000-4000-8000-000000000001", requestorID: "NBCOlympics", domainName: "adobe.com",
        expires: Instant(milliseconds: 1_767_225_600_000) + .hours(168) + .seconds(7), mvpdID: "Comcast_SSO",
        deviceID: "device-abc", nameID: "user-0042", sessionIndex: "sess-9f")
    static let authz = AuthzToken(
        sessionGUID: "5f1e2d3c", requestorID: "NBCOlympics", resourceID: "NBCOlympics", mvpdID: "Comcast_SSO",
        deviceID: "device-abc", expires: Instant(milliseconds: 1_767_225_600_000) + .seconds(59))

    static func fullAuthn(_ text: String) -> AuthnToken? {
        let bytes = Array(text.utf8)
        guard let inner = try? TokenEnvelope.unwrap(bytes) else {
            return try? AuthnTokenXML.parse(element: SafeXML.parse(bytes))
        }
        guard let root = try? SafeXML.parse(Array(inner)), root.name == "simpleAuthenticationToken" else { return nil }
        return try? AuthnTokenXML.parse(element: root)
    }

    static func fullAuthz(_ text: String) -> AuthzToken? {
        let bytes = Array(text.utf8)
        guard let inner = try? TokenEnvelope.unwrap(bytes) else {
            return try? AuthzTokenXML.parse(element: SafeXML.parse(bytes))
        }
        guard let root = try? SafeXML.parse(Array(inner)), root.name == "simpleAuthorizationToken" else { return nil }
        return try? AuthzTokenXML.parse(element: root)
    }

    /// Texts around a built token: the token itself and edits of it the shortcut must not misread.
    static func variants(_ text: String) -> [String] {
        var out = [text, " " + text, text + " ", text + "\n"]
        for (from, to) in [
            (">", "> "), ("</", " </"), ("GMT +0000", "GMT -0130"), ("GMT +0000", "GMT  +0000"),
            ("GMT +0000", "GMT +00x0"), ("2026/", "02026/"), ("2026/", "+2026/"), (":07 ", ":7 "),
            ("NBCOlympics", "NBC&amp;Olympics"), ("NBCOlympics", "NBC Olympics"), ("NBCOlympics", ""),
            ("device-abc", ""), ("device-abc", " device-abc"), ("device-abc", "d\u{E9}vice"),
            ("unsigned (passim mock)", "signed"), ("<simpleTokenMsoID>", "<simpleTokenMsoID a=\"1\">"),
            ("</simpleTokenRequestorID>", "</simpleTokenRequestorID><!-- c -->"),
        ] {
            if let r = text.range(of: from) { out.append(text.replacingCharacters(in: r, with: to)) }
            out.append(text.replacingOccurrences(of: from, with: to))
        }
        return out
    }

    @Test func authnShortcutReadsWhatTheFullParseReads() {
        var odd = Self.authn
        odd.domainName = ""
        odd.nameID = ""
        odd.sessionIndex = ""
        var escaped = Self.authn
        escaped.nameID = "a<b>&\"c\""
        var early = Self.authn
        early.expires = Instant(milliseconds: -62_000_000_000_000)
        for t in [Self.authn, odd, escaped, early] {
            let built = AuthnTokenXML.build(t)
            if t != escaped, t != early { #expect(AuthnTokenXML.parseCanonical(Array(built.utf8)) == t) }
            for text in Self.variants(built) {
                if let quick = AuthnTokenXML.parseCanonical(Array(text.utf8)) {
                    #expect(quick == Self.fullAuthn(text), "\(text)")
                }
            }
        }
    }

    @Test func authzShortcutReadsWhatTheFullParseReads() {
        for built in [
            AuthzTokenXML.build(Self.authz),
            AuthzTokenXML.build(Self.authz, issuedAt: Instant(milliseconds: 1_767_225_600_000)),
        ] {
            #expect(AuthzTokenXML.parseCanonical(Array(built.utf8)) == Self.authz)
            for text in Self.variants(built) + Self.variants(built.replacingOccurrences(of: ">59000<", with: ">x<")) {
                if let quick = AuthzTokenXML.parseCanonical(Array(text.utf8)) {
                    #expect(quick == Self.fullAuthz(text), "\(text)")
                }
            }
        }
    }

    /// Every byte of a built token changed in turn (to a letter, a space, markup, or cut): the
    /// shortcut must give up or read what the full parse reads, so each piece it expects is compared
    /// whole (its last byte too).
    @Test func aChangedByteIsNeverMisread() {
        let tokens = [
            AuthzTokenXML.build(Self.authz, issuedAt: Instant(milliseconds: 1_767_225_600_000)),
            AuthnTokenXML.build(Self.authn),
        ]
        for (k, built) in tokens.enumerated() {
            let bytes = Array(built.utf8)
            for at in bytes.indices {
                for replacement: [UInt8] in [[0x58], [0x20], [0x3C], []] where [bytes[at]] != replacement {
                    var changed = bytes
                    changed.replaceSubrange(at...at, with: replacement)
                    let text = String(decoding: changed, as: UTF8.self)
                    if k == 0, let quick = AuthzTokenXML.parseCanonical(changed) {
                        #expect(quick == Self.fullAuthz(text), "\(text)")
                    }
                    if k == 1, let quick = AuthnTokenXML.parseCanonical(changed) {
                        #expect(quick == Self.fullAuthn(text), "\(text)")
                    }
                }
            }
        }
    }
}
