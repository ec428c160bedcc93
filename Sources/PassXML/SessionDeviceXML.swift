/// The body of `POST sessionDevice`: `<sessionDevice><authnToken>ESCAPED token XML</authnToken></sessionDevice>`,
/// `<sessionDevice><pendingLogout>true</pendingLogout></sessionDevice>` (the JS SDK accepts only that
/// spelling; the empty `<pendingLogout/>` of older answers is read too), or `<sessionDevice/>` when
/// there is no token. A `<pendingLogout>` whose text is `false` reports none.
/// The token travels as escaped text (not as child elements) because the SDK stores and forwards it
/// as an opaque string; it is parsed again, under the same defences, when read.
public enum SessionDeviceXML {
    public enum Content: Hashable, Sendable {
        case token(AuthnToken)
        case pendingLogout
        case none
    }

    public static func build(_ c: Content) -> String {
        var w = XMLWriter()
        switch c {
        case .token(let token):
            w.element("sessionDevice") { w in w.leaf("authnToken", AuthnTokenXML.build(token)) }
        case .pendingLogout:
            w.element("sessionDevice") { w in w.leaf("pendingLogout", "true") }
        case .none:
            w.leaf("sessionDevice")
        }
        return w.text
    }

    public static func parse(_ bytes: [UInt8]) throws(PassXMLError) -> Content {
        let root = try SafeXML.parse(bytes)
        try root.expectRoot("sessionDevice", namespace: nil)
        let token = root.child("authnToken")
        let pending = root.child("pendingLogout").flatMap { $0.trimmedText.lowercased() == "false" ? nil : $0 }
        switch (token, pending) {
        case (.some, .some):
            throw PassXMLError("<sessionDevice> has both <authnToken> and <pendingLogout>")
        case (.some(let t), .none):
            let text = t.trimmedText
            guard !text.isEmpty else { throw PassXMLError("empty element <authnToken> in <sessionDevice>") }
            do throws(PassXMLError) {
                return .token(try AuthnTokenXML.parse(Array(text.utf8)))
            } catch {
                throw PassXMLError("invalid token in <sessionDevice>: \(error.message)")
            }
        case (.none, .some):
            return .pendingLogout
        case (.none, .none):
            return .none
        }
    }
}
