import PassModel

/// The body of `POST authorizeDevice`: `<result><authzToken>ESCAPED token XML</authzToken></result>`
/// on success, or an `<error>` body (facts §4). Device clients read `result.authzToken` (as for
/// `SessionDeviceXML`); `<authorization>`, which passim wrote before, is still read. As with `SessionDeviceXML`, the token travels as
/// escaped text because the SDK keeps it as an opaque string and sends it back to `deviceShortAuthorize`.
public enum AuthorizeDeviceXML {
    public enum Content: Hashable, Sendable {
        case token(AuthzToken)
        case error(ErrorBody)
    }

    /// `issuedAt` fills the token's `simpleTokenTTL` (see `AuthzTokenXML`).
    public static func build(_ c: Content, issuedAt: Instant? = nil) -> String {
        switch c {
        case .token(let token):
            var w = XMLWriter()
            w.element("result") { w in w.leaf("authzToken", AuthzTokenXML.build(token, issuedAt: issuedAt)) }
            return w.text
        case .error(let body):
            return ErrorXML.build(body)
        }
    }

    public static func parse(_ bytes: [UInt8]) throws(PassXMLError) -> Content {
        let root = try SafeXML.parse(bytes)
        switch root.name {
        case "error":
            return .error(try ErrorXML.parse(element: root))
        case "result", "authorization":
            try root.expectRoot(root.name, namespace: nil)
            let text = try root.require("authzToken").trimmedText
            guard !text.isEmpty else { throw PassXMLError("empty element <authzToken> in <\(root.name)>") }
            do throws(PassXMLError) {
                return .token(try AuthzTokenXML.parse(Array(text.utf8)))
            } catch {
                throw PassXMLError("invalid token in <\(root.name)>: \(error.message)")
            }
        default:
            throw PassXMLError("expected root element <result> or <error>, found <\(root.name)>")
        }
    }
}
