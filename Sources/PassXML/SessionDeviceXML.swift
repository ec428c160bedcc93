/// The body of `POST sessionDevice`: `<result><authnToken>ESCAPED token XML</authnToken></result>`,
/// `<result><pendingLogout>true</pendingLogout></result>` (the JS SDK accepts only that spelling; the
/// empty `<pendingLogout/>` of older answers is read too), or `<result/>` when there is no token. A
/// `<pendingLogout>` whose text is `false` reports none. The root is `<result>` because device clients
/// read `result.authnToken` (snnow `adobe.py`, EPlusTV `nesn-handler.ts`: docs/WIRE.md, "Real
/// clients"); `<sessionDevice>`, which passim wrote before, is still read.
/// The token travels as escaped text (not as child elements) because the SDK stores and forwards it
/// as an opaque string; it is parsed again, under the same defences, when read.
public enum SessionDeviceXML {
    public enum Content: Hashable, Sendable {
        case token(AuthnToken)
        case pendingLogout
        case none
    }

    /// The root written; `readRoot` also takes `legacyRoot`.
    static let root = "result"
    static let legacyRoot = "sessionDevice"

    static func readRoot(_ bytes: [UInt8]) throws(PassXMLError) -> XMLElement {
        let element = try SafeXML.parse(bytes)
        guard element.name == root || element.name == legacyRoot, element.namespace == nil else {
            throw PassXMLError("expected root element <\(root)> (or <\(legacyRoot)>), found <\(element.name)>")
        }
        return element
    }

    public static func build(_ c: Content) -> String {
        var w = XMLWriter()
        switch c {
        case .token(let token):
            w.element(root) { w in writeToken(token, &w) }
        case .pendingLogout:
            w.element(root) { w in w.leaf("pendingLogout", "true") }
        case .none:
            w.leaf(root)
        }
        return w.text
    }

    /// `<authnToken>` holding `AuthnTokenXML.build(token)` escaped, escaped from the token's bytes.
    static func writeToken(_ token: AuthnToken, _ w: inout XMLWriter) {
        var tokenXML = XMLWriter()
        AuthnTokenXML.write(token, &tokenXML)
        w.leaf("authnToken", escaping: tokenXML)
    }

    public static func parse(_ bytes: [UInt8]) throws(PassXMLError) -> Content {
        let root = try readRoot(bytes)
        let token = root.child("authnToken")
        let pending = root.child("pendingLogout").flatMap { $0.trimmedText.lowercased() == "false" ? nil : $0 }
        switch (token, pending) {
        case (.some, .some):
            throw PassXMLError("<result> has both <authnToken> and <pendingLogout>")
        case (.some(let t), .none):
            let text = t.trimmedText
            guard !text.isEmpty else { throw PassXMLError("empty element <authnToken> in <result>") }
            do throws(PassXMLError) {
                return .token(try AuthnTokenXML.parse(Array(text.utf8)))
            } catch {
                throw PassXMLError("invalid token in <result>: \(error.message)")
            }
        case (.none, .some):
            return .pendingLogout
        case (.none, .none):
            return .none
        }
    }
}
