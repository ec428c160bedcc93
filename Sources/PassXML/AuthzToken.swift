import PassModel

/// The SP's authorization token for one resource (facts §3, §4).
public struct AuthzToken: Hashable, Sendable {
    /// The authN token's GUID.
    public var sessionGUID: String
    public var requestorID: String
    /// The resource exactly as the app named it (a plain id or an MRSS document).
    public var resourceID: String
    public var mvpdID: String
    public var deviceID: String
    public var expires: Instant

    public init(
        sessionGUID: String, requestorID: String, resourceID: String, mvpdID: String, deviceID: String,
        expires: Instant
    ) {
        self.sessionGUID = sessionGUID
        self.requestorID = requestorID
        self.resourceID = resourceID
        self.mvpdID = mvpdID
        self.deviceID = deviceID
        self.expires = expires
    }
}

/// `<signatureInfo>…<signatureInfo><simpleAuthorizationToken>…</simpleAuthorizationToken>`, in
/// Adobe's envelope as `AuthnTokenXML`. `simpleTokenTTL` is the milliseconds left at issue time; the
/// struct has no issue time, so it is written only when `issuedAt` is given and is checked (an
/// integer) but not kept when read.
public enum AuthzTokenXML {
    public static func build(_ t: AuthzToken, issuedAt: Instant? = nil) -> String {
        var w = XMLWriter()
        TokenEnvelope.write(&w)
        w.element("simpleAuthorizationToken") { w in
            w.leaf("simpleTokenAuthenticationGuid", t.sessionGUID)
            w.leaf("simpleTokenRequestorID", t.requestorID)
            w.leaf("simpleTokenResourceID", t.resourceID)
            w.leaf("simpleTokenMsoID", t.mvpdID)
            w.leaf("simpleTokenDeviceID", t.deviceID)
            w.leaf("simpleTokenExpires", tokenDate: t.expires)
            if let issuedAt { w.leaf("simpleTokenTTL", String(max(0, (t.expires - issuedAt).value))) }
        }
        return w.text
    }

    /// Reads Adobe's envelope, and the `<authzToken>` root passim wrote before (also a bare
    /// `<simpleAuthorizationToken>`). Every field is required and non-empty except the device id;
    /// `simpleTokenTTL` is optional.
    public static func parse(_ bytes: [UInt8]) throws(PassXMLError) -> AuthzToken {
        if let token = parseCanonical(bytes) { return token }
        if let inner = try TokenEnvelope.unwrap(bytes) {
            let root = try SafeXML.parse(Array(inner))
            guard root.name == "simpleAuthorizationToken" else {
                throw PassXMLError(
                    "expected <simpleAuthorizationToken> after \(TokenEnvelope.marker), found <\(root.name)>")
            }
            return try parse(element: root)
        }
        return try parse(element: SafeXML.parse(bytes))
    }

    static func parse(element root: XMLElement) throws(PassXMLError) -> AuthzToken {
        let (simple, expires) = try root.simpleToken(wrapper: "authzToken", "simpleAuthorizationToken")
        if let ttl = simple.optionalText("simpleTokenTTL"), Int64(ttl) == nil {
            throw PassXMLError("invalid TTL '\(ttl)' in <simpleTokenTTL> (expected milliseconds)")
        }
        return AuthzToken(
            sessionGUID: try simple.requireText("simpleTokenAuthenticationGuid"),
            requestorID: try simple.requireText("simpleTokenRequestorID"),
            resourceID: try simple.requireText("simpleTokenResourceID"),
            mvpdID: try simple.requireText("simpleTokenMsoID"),
            deviceID: try simple.require("simpleTokenDeviceID").trimmedText,
            expires: expires)
    }
}
