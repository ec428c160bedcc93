import PassModel

/// The short media token `deviceShortAuthorize` returns (facts §3): lives about five minutes and is
/// never cached by the SDK.
public struct ShortMediaToken: Hashable, Sendable {
    public var sessionGUID: String
    public var requestorID: String
    public var resourceID: String
    public var ttl: Millis
    public var issueTime: Instant
    public var mvpdID: String

    public init(
        sessionGUID: String, requestorID: String, resourceID: String, ttl: Millis, issueTime: Instant,
        mvpdID: String
    ) {
        self.sessionGUID = sessionGUID
        self.requestorID = requestorID
        self.resourceID = resourceID
        self.ttl = ttl
        self.issueTime = issueTime
        self.mvpdID = mvpdID
    }
}

/// `<shortAuthorizationToken><sessionGUID/><requestorID/><resourceID/><ttl/><issueTime/><mvpdId/><proxyMvpdId/></shortAuthorizationToken>`.
/// `issueTime` uses the token date format; `proxyMvpdId` is always empty (the world has no proxies)
/// and is not read back. The SP's answer body is the base64 of this XML (`serialize`).
public enum ShortMediaTokenXML {
    public static func build(_ t: ShortMediaToken) -> String {
        var w = XMLWriter()
        w.element("shortAuthorizationToken") { w in
            w.leaf("sessionGUID", t.sessionGUID)
            w.leaf("requestorID", t.requestorID)
            w.leaf("resourceID", t.resourceID)
            w.leaf("ttl", String(t.ttl.value))
            w.leaf("issueTime", tokenDate: t.issueTime)
            w.leaf("mvpdId", t.mvpdID)
            w.leaf("proxyMvpdId")
        }
        return w.text
    }

    public static func parse(_ bytes: [UInt8]) throws(PassXMLError) -> ShortMediaToken {
        let root = try SafeXML.parse(bytes)
        try root.expectRoot("shortAuthorizationToken", namespace: nil)
        let ttlText = try root.requireText("ttl")
        guard let ttl = Int64(ttlText), ttl >= 0 else {
            throw PassXMLError("invalid TTL '\(ttlText)' in <ttl> (expected milliseconds)")
        }
        let issueText = try root.requireText("issueTime")
        guard let issueTime = Instant(tokenDate: issueText) else {
            throw PassXMLError("invalid date '\(issueText)' in <issueTime> (expected yyyy/MM/dd HH:mm:ss GMT +hhmm)")
        }
        return ShortMediaToken(
            sessionGUID: try root.requireText("sessionGUID"),
            requestorID: try root.requireText("requestorID"),
            resourceID: try root.requireText("resourceID"),
            ttl: Millis(ttl), issueTime: issueTime,
            mvpdID: try root.requireText("mvpdId"))
    }

    /// Base64 of the XML: the `deviceShortAuthorize` body, and what `setToken` hands the app.
    public static func serialize(_ t: ShortMediaToken) -> String { Base64.encode(utf8: build(t)) }

    public static func deserialize(_ base64: String) throws(PassXMLError) -> ShortMediaToken {
        try parse(Base64.decode(base64))
    }
}
