import PassModel

/// `<userMeta>` in the `sessionDevice` body (facts §3, §4): the JSON of REST API v1's
/// `tokens/usermetadata` (`{"updated": ms, "encrypted": [keys], "data": {…}}`) as escaped text.
extension SessionDeviceXML {
    /// As `build(_:)`, plus `<userMeta>` after the token. Metadata belongs to a user, so it is
    /// written only beside a token: with `.pendingLogout` or `.none` it is left out.
    public static func build(_ c: Content, userMeta: Value?) -> String {
        guard case .token(let token) = c, let userMeta else { return build(c) }
        var w = XMLWriter()
        w.element(root) { w in
            writeToken(token, &w)
            w.leaf("userMeta", userMeta.jsonText)
        }
        return w.text
    }

    /// A `sessionDevice` answer as the engine reads it: what it holds and, beside a token, the user
    /// metadata (nil when absent or unreadable: the SDK goes on without it).
    public struct Answer: Sendable {
        public var content: Content
        public var userMeta: Value?

        public init(content: Content, userMeta: Value? = nil) {
            self.content = content
            self.userMeta = userMeta
        }

        public static func parse(_ bytes: [UInt8]) throws(PassXMLError) -> Answer {
            let content = try SessionDeviceXML.parse(bytes)
            guard case .token = content else { return Answer(content: content) }
            return Answer(content: content, userMeta: (try? SessionDeviceXML.parseUserMeta(bytes)) ?? nil)
        }
    }

    /// The `<userMeta>` JSON, or nil when the body has none. An empty element or text that is not
    /// JSON (integers only, at most 64 levels deep) is an error.
    public static func parseUserMeta(_ bytes: [UInt8]) throws(PassXMLError) -> Value? {
        guard let meta = try readRoot(bytes).child("userMeta") else { return nil }
        let text = meta.trimmedText
        guard !text.isEmpty else { throw PassXMLError("empty element <userMeta> in <result>") }
        do throws(JSONError) {
            return try Value(jsonText: text)
        } catch {
            throw PassXMLError("invalid JSON in <userMeta>: \(error.message)")
        }
    }
}

/// How the mock "encrypts" a user-metadata value the MVPD marks as encrypted: `"enc:" + base64(JSON)`.
/// Not cryptography: it only makes an encrypted value unreadable without this step, as Adobe's is.
public enum UserMetaCipher {
    public static let prefix = "enc:"

    public static func encrypt(_ v: Value) -> Value {
        .string(prefix + Base64.encode(utf8: v.jsonText))
    }

    /// The value behind an `enc:` string; any other value is returned as it is.
    public static func decrypt(_ v: Value) throws(PassXMLError) -> Value {
        guard case .string(let s) = v, s.hasPrefix(prefix) else { return v }
        let bytes = try Base64.decode(String(s.dropFirst(prefix.count)))
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw PassXMLError("encrypted metadata value is not UTF-8")
        }
        do throws(JSONError) {
            return try Value(jsonText: text)
        } catch {
            throw PassXMLError("invalid JSON in encrypted metadata value: \(error.message)")
        }
    }
}
