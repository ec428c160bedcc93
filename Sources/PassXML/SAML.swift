import PassModel

/// SAML 2.0 messages as the mock IdPs and SP exchange them. An IdP's assertion may carry an enveloped
/// XML-DSig (`XMLSignature`); the requests and the LogoutResponse are unsigned (docs/WIRE.md, "SAML").
/// Builders write `samlp:`/`saml:` prefixes; parsers match on namespace URIs, so any prefix works.
public enum SAML {
    public static let protocolNamespace = "urn:oasis:names:tc:SAML:2.0:protocol"
    public static let assertionNamespace = "urn:oasis:names:tc:SAML:2.0:assertion"
    public static let successStatus = "urn:oasis:names:tc:SAML:2.0:status:Success"
    public static let requesterStatus = "urn:oasis:names:tc:SAML:2.0:status:Requester"
    public static let responderStatus = "urn:oasis:names:tc:SAML:2.0:status:Responder"
    public static let authnFailedStatus = "urn:oasis:names:tc:SAML:2.0:status:AuthnFailed"
    static let postBinding = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"
    static let transientNameID = "urn:oasis:names:tc:SAML:2.0:nameid-format:transient"
    static let bearer = "urn:oasis:names:tc:SAML:2.0:cm:bearer"
    static let passwordContext = "urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport"
    /// Attribute names are plain words (`userID`, `zip`), the basic name format's xs:Name.
    public static let basicNameFormat = "urn:oasis:names:tc:SAML:2.0:attrname-format:basic"

    private static let namespaces = [("xmlns:samlp", protocolNamespace), ("xmlns:saml", assertionNamespace)]

    // MARK: - Build

    public static func build(_ r: AuthnRequest) -> String {
        var w = XMLWriter(declaration: true)
        w.element(
            "samlp:AuthnRequest",
            namespaces + [
                ("ID", r.id), ("Version", "2.0"), ("IssueInstant", ISO8601.format(r.issueInstant)),
                ("Destination", r.destination), ("AssertionConsumerServiceURL", r.assertionConsumerServiceURL),
                ("ProtocolBinding", postBinding), ("ForceAuthn", String(r.forceAuthn)),
                ("IsPassive", String(r.isPassive)),
            ]
        ) { w in
            w.leaf("saml:Issuer", r.issuer)
            w.leaf("samlp:NameIDPolicy", "", [("Format", transientNameID), ("AllowCreate", "true")])
        }
        return w.text
    }

    /// The Response with its assertion signed by `signer` (nil: unsigned).
    public static func build(_ r: SAMLResponse, signedBy signer: XMLSignature.Signer?) throws(PassXMLError) -> String {
        guard let signer, r.assertion != nil else { return build(r) }
        return build(r, assertionSignature: try assertionSignature(r, signer: signer))
    }

    /// The `<ds:Signature>` of `r`'s assertion, to pass to `build(_:assertionSignature:)`. Kept apart
    /// so a test (or a misbehaving IdP) can put one assertion's signature on another.
    public static func assertionSignature(_ r: SAMLResponse, signer: XMLSignature.Signer) throws(PassXMLError) -> String
    {
        guard let a = r.assertion else { throw PassXMLError("the Response has no assertion to sign") }
        return try XMLSignature.signature(of: a.id, in: build(r), signer: signer)
    }

    /// The Response, with `assertionSignature` (markup) as its assertion's first child after Issuer.
    public static func build(_ r: SAMLResponse, assertionSignature: String? = nil) -> String {
        var w = XMLWriter(declaration: true)
        w.element(
            "samlp:Response",
            namespaces + [
                ("ID", r.id), ("InResponseTo", r.inResponseTo), ("Version", "2.0"),
                ("IssueInstant", ISO8601.format(r.issueInstant)), ("Destination", r.destination),
            ]
        ) { w in
            w.leaf("saml:Issuer", r.issuer)
            writeStatus(r.success, failure: authnFailedStatus, &w)
            if let a = r.assertion { write(a, response: r, signature: assertionSignature, &w) }
        }
        return w.text
    }

    public static func build(_ r: LogoutRequest) -> String {
        var w = XMLWriter(declaration: true)
        w.element(
            "samlp:LogoutRequest",
            namespaces + [
                ("ID", r.id), ("Version", "2.0"), ("IssueInstant", ISO8601.format(r.issueInstant)),
                ("Destination", r.destination),
            ]
        ) { w in
            w.leaf("saml:Issuer", r.issuer)
            w.leaf("saml:NameID", r.nameID, [("Format", transientNameID)])
            w.leaf("samlp:SessionIndex", r.sessionIndex)
        }
        return w.text
    }

    public static func build(_ r: LogoutResponse) -> String {
        var w = XMLWriter(declaration: true)
        w.element(
            "samlp:LogoutResponse",
            namespaces + [
                ("ID", r.id), ("InResponseTo", r.inResponseTo), ("Version", "2.0"),
                ("IssueInstant", ISO8601.format(r.issueInstant)), ("Destination", r.destination),
            ]
        ) { w in
            w.leaf("saml:Issuer", r.issuer)
            writeStatus(r.success, failure: nil, &w)
        }
        return w.text
    }

    /// Failure is top-level `Requester` with a second-level code (AuthnFailed for logins), or
    /// `Responder` alone for logouts.
    private static func writeStatus(_ success: Bool, failure: String?, _ w: inout XMLWriter) {
        w.element("samlp:Status") { w in
            if success {
                w.leaf("samlp:StatusCode", "", [("Value", successStatus)])
            } else if let failure {
                w.element("samlp:StatusCode", [("Value", requesterStatus)]) { w in
                    w.leaf("samlp:StatusCode", "", [("Value", failure)])
                }
            } else {
                w.leaf("samlp:StatusCode", "", [("Value", responderStatus)])
            }
        }
    }

    private static func write(_ a: Assertion, response r: SAMLResponse, signature: String?, _ w: inout XMLWriter) {
        let issued = ISO8601.format(a.issueInstant)
        let expires = ISO8601.format(a.notOnOrAfter)
        w.element("saml:Assertion", [("ID", a.id), ("Version", "2.0"), ("IssueInstant", issued)]) { w in
            w.leaf("saml:Issuer", a.issuer)
            if let signature { w.appendMarkup(signature) }
            w.element("saml:Subject") { w in
                w.leaf("saml:NameID", a.nameID, [("Format", transientNameID)])
                w.element("saml:SubjectConfirmation", [("Method", bearer)]) { w in
                    w.leaf(
                        "saml:SubjectConfirmationData", "",
                        [
                            ("InResponseTo", r.inResponseTo), ("NotOnOrAfter", expires), ("Recipient", r.destination),
                        ])
                }
            }
            w.element("saml:Conditions", [("NotBefore", issued), ("NotOnOrAfter", expires)]) { w in
                w.element("saml:AudienceRestriction") { w in w.leaf("saml:Audience", a.audience) }
            }
            w.element("saml:AuthnStatement", [("AuthnInstant", issued), ("SessionIndex", a.sessionIndex)]) { w in
                w.element("saml:AuthnContext") { w in w.leaf("saml:AuthnContextClassRef", passwordContext) }
            }
            if !a.attributes.isEmpty {
                w.element("saml:AttributeStatement") { w in
                    for attribute in a.attributes {
                        w.element("saml:Attribute", [("Name", attribute.name), ("NameFormat", basicNameFormat)]) { w in
                            for value in attribute.values { w.leaf("saml:AttributeValue", value) }
                        }
                    }
                }
            }
        }
    }

    // MARK: - Parse

    public static func parseAuthnRequest(_ bytes: [UInt8]) throws(PassXMLError) -> AuthnRequest {
        let root = try SafeXML.parse(bytes)
        try root.expectRoot("AuthnRequest", namespace: protocolNamespace)
        return AuthnRequest(
            id: try root.requireAttribute("ID"),
            issueInstant: try root.requireInstant("IssueInstant"),
            issuer: try root.requireText("Issuer", namespace: assertionNamespace),
            destination: try root.requireAttribute("Destination"),
            assertionConsumerServiceURL: try root.requireAttribute("AssertionConsumerServiceURL"),
            forceAuthn: try optionalBool(root, "ForceAuthn"),
            isPassive: try optionalBool(root, "IsPassive"))
    }

    /// A signed assertion comes back with `signature` set: its structure checked, its reference its
    /// own ID, its canonical bytes ready for the caller's digest and RSA checks.
    public static func parseResponse(_ bytes: [UInt8]) throws(PassXMLError) -> SAMLResponse {
        let (root, canonical) = try SafeXML.parse(bytes) {
            (doc, rootNode) throws(PassXMLError) -> (element: [UInt8], signedInfo: [UInt8])? in
            let nodes = XMLSignature.elementChildren(rootNode).filter {
                XMLSignature.isElement($0, "Assertion", assertionNamespace)
            }
            guard nodes.count == 1 else { return nil }
            return try XMLSignature.canonicalParts(doc, element: nodes[0])
        }
        try root.expectRoot("Response", namespace: protocolNamespace)
        if root.child("EncryptedAssertion", namespace: assertionNamespace) != nil {
            throw PassXMLError("encrypted assertions are not supported")
        }
        // More than one assertion is the shape of a signature-wrapping attack; no IdP of ours sends it.
        let assertions = root.children.filter { $0.name == "Assertion" && $0.namespace == assertionNamespace }
        guard assertions.count <= 1 else {
            throw PassXMLError("<Response> has \(assertions.count) <Assertion> elements; at most one is allowed")
        }
        return SAMLResponse(
            id: try root.requireAttribute("ID"),
            inResponseTo: try root.requireAttribute("InResponseTo"),
            issueInstant: try root.requireInstant("IssueInstant"),
            issuer: try root.requireText("Issuer", namespace: assertionNamespace),
            destination: try root.requireAttribute("Destination"),
            success: try status(root),
            assertion: try assertions.first.map { (a: XMLElement) throws(PassXMLError) -> Assertion in
                try assertion(a, canonical: canonical)
            })
    }

    public static func parseLogoutRequest(_ bytes: [UInt8]) throws(PassXMLError) -> LogoutRequest {
        let root = try SafeXML.parse(bytes)
        try root.expectRoot("LogoutRequest", namespace: protocolNamespace)
        return LogoutRequest(
            id: try root.requireAttribute("ID"),
            issueInstant: try root.requireInstant("IssueInstant"),
            issuer: try root.requireText("Issuer", namespace: assertionNamespace),
            destination: try root.requireAttribute("Destination"),
            nameID: try root.requireText("NameID", namespace: assertionNamespace),
            sessionIndex: try root.requireText("SessionIndex", namespace: protocolNamespace))
    }

    public static func parseLogoutResponse(_ bytes: [UInt8]) throws(PassXMLError) -> LogoutResponse {
        let root = try SafeXML.parse(bytes)
        try root.expectRoot("LogoutResponse", namespace: protocolNamespace)
        return LogoutResponse(
            id: try root.requireAttribute("ID"),
            inResponseTo: try root.requireAttribute("InResponseTo"),
            issueInstant: try root.requireInstant("IssueInstant"),
            issuer: try root.requireText("Issuer", namespace: assertionNamespace),
            destination: try root.requireAttribute("Destination"),
            success: try status(root))
    }

    private static func optionalBool(_ e: XMLElement, _ name: String) throws(PassXMLError) -> Bool {
        guard let text = e.attribute(name) else { return false }
        return try XMLValue.bool(text, in: "attribute \(name) of <\(e.name)>")
    }

    /// Success only when the top-level StatusCode says so; any other code is a failure.
    private static func status(_ root: XMLElement) throws(PassXMLError) -> Bool {
        let code = try root.require("Status", namespace: protocolNamespace)
            .require("StatusCode", namespace: protocolNamespace)
        return try code.requireAttribute("Value") == successStatus
    }

    private static func assertion(_ a: XMLElement, canonical: (element: [UInt8], signedInfo: [UInt8])?)
        throws(PassXMLError) -> Assertion
    {
        let ns = assertionNamespace
        let id = try a.requireAttribute("ID")
        var signature: XMLSignature.Signed?
        if let canonical, let element = a.child("Signature", namespace: XMLSignature.namespace) {
            signature = try XMLSignature.read(element, signedElementID: id, canonical: canonical)
        }
        let subject = try a.require("Subject", namespace: ns)
        let conditions = try a.require("Conditions", namespace: ns)
        let audience = try conditions.require("AudienceRestriction", namespace: ns).requireText(
            "Audience", namespace: ns)
        let statement = try a.require("AuthnStatement", namespace: ns)
        var attributes: [SAMLAttribute] = []
        for s in a.children where s.name == "AttributeStatement" && s.namespace == ns {
            for attribute in s.children where attribute.name == "Attribute" && attribute.namespace == ns {
                attributes.append(
                    SAMLAttribute(
                        name: try attribute.requireAttribute("Name"),
                        values: attribute.children
                            .filter { $0.name == "AttributeValue" && $0.namespace == ns }
                            .map(\.trimmedText)))
            }
        }
        return Assertion(
            id: id,
            issueInstant: try a.requireInstant("IssueInstant"),
            issuer: try a.requireText("Issuer", namespace: ns),
            nameID: try subject.requireText("NameID", namespace: ns),
            sessionIndex: try statement.requireAttribute("SessionIndex"),
            notOnOrAfter: try conditions.requireInstant("NotOnOrAfter"),
            audience: audience,
            attributes: attributes,
            signature: signature)
    }

    // MARK: - HTTP-POST binding

    /// Base64 of the UTF-8 XML, as the `SAMLRequest`/`SAMLResponse` form field carries it.
    public static func encodeForPost(_ xml: String) -> String { Base64.encode(utf8: xml) }

    public static func decodeFromPost(_ base64: String) throws(PassXMLError) -> [UInt8] {
        try Base64.decode(base64)
    }
}
