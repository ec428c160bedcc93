import PassModel

/// The SP's authentication token (facts §3).
public struct AuthnToken: Hashable, Sendable {
    public var guid: String
    public var requestorID: String
    public var domainName: String
    public var expires: Instant
    public var mvpdID: String
    public var deviceID: String
    public var nameID: String
    public var sessionIndex: String

    public init(
        guid: String, requestorID: String, domainName: String, expires: Instant, mvpdID: String,
        deviceID: String, nameID: String, sessionIndex: String
    ) {
        self.guid = guid
        self.requestorID = requestorID
        self.domainName = domainName
        self.expires = expires
        self.mvpdID = mvpdID
        self.deviceID = deviceID
        self.nameID = nameID
        self.sessionIndex = sessionIndex
    }
}

/// The token's XML in Adobe's envelope (`TokenEnvelope`):
/// `<signatureInfo>…<signatureInfo><simpleAuthenticationToken>…</simpleAuthenticationToken>`.
/// Tokens are unsigned here: the signature is a fixed marker and is not read back.
public enum AuthnTokenXML {
    public static func build(_ t: AuthnToken) -> String {
        var w = XMLWriter()
        write(t, &w)
        return w.text
    }

    /// `build`'s text, envelope included, appended to `w` (`sessionDevice` escapes it from there).
    static func write(_ t: AuthnToken, _ w: inout XMLWriter) {
        TokenEnvelope.write(&w)
        w.element("simpleAuthenticationToken") { w in
            w.leaf("simpleTokenAuthenticationGuid", t.guid)
            w.leaf("simpleTokenRequestorID", t.requestorID)
            w.leaf("simpleTokenDomainName", t.domainName)
            w.leaf("simpleTokenExpires", tokenDate: t.expires)
            w.leaf("simpleTokenMsoID", t.mvpdID)
            w.leaf("simpleTokenDeviceID", t.deviceID)
            w.leaf("simpleSamlNameID", t.nameID)
            w.leaf("simpleSamlSessionIndex", t.sessionIndex)
        }
    }

    /// Reads Adobe's envelope, and the `<authnToken>` root passim wrote before (also a bare
    /// `<simpleAuthenticationToken>`). Every field is required; the domain name, NameID and
    /// SessionIndex may be empty (a TempPass token has no SAML session).
    public static func parse(_ bytes: [UInt8]) throws(PassXMLError) -> AuthnToken {
        if let token = parseCanonical(bytes) { return token }
        if let inner = try TokenEnvelope.unwrap(bytes) {
            let root = try SafeXML.parse(Array(inner))
            guard root.name == "simpleAuthenticationToken" else {
                throw PassXMLError(
                    "expected <simpleAuthenticationToken> after \(TokenEnvelope.marker), found <\(root.name)>")
            }
            return try parse(element: root)
        }
        return try parse(element: SafeXML.parse(bytes))
    }

    static func parse(element root: XMLElement) throws(PassXMLError) -> AuthnToken {
        let (simple, expires) = try root.simpleToken(wrapper: "authnToken", "simpleAuthenticationToken")
        return AuthnToken(
            guid: try simple.requireText("simpleTokenAuthenticationGuid"),
            requestorID: try simple.requireText("simpleTokenRequestorID"),
            domainName: try simple.require("simpleTokenDomainName").trimmedText,
            expires: expires,
            mvpdID: try simple.requireText("simpleTokenMsoID"),
            deviceID: try simple.requireText("simpleTokenDeviceID"),
            nameID: try simple.require("simpleSamlNameID").trimmedText,
            sessionIndex: try simple.require("simpleSamlSessionIndex").trimmedText)
    }
}

extension XMLElement {
    /// The prologue of every simple token: the `<simple…Token>` element, found under its `wrapper`
    /// root or as the root itself, and its `simpleTokenExpires` date (the SDK's token date format).
    func simpleToken(wrapper: String, _ name: String) throws(PassXMLError) -> (XMLElement, Instant) {
        let simple: XMLElement
        switch self.name {
        case wrapper: simple = try require(name)
        case name: simple = self
        default: throw PassXMLError("expected root element <\(wrapper)>, found <\(self.name)>")
        }
        let expiresText = try simple.requireText("simpleTokenExpires")
        guard let expires = Instant(tokenDate: expiresText) else {
            throw PassXMLError(
                "invalid date '\(expiresText)' in <simpleTokenExpires> (expected yyyy/MM/dd HH:mm:ss GMT +hhmm)")
        }
        return (simple, expires)
    }
}
