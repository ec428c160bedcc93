internal import CLibXML2

/// Enveloped XML-DSig over one element, in the one profile SAML IdPs use: exclusive C14N 1.0,
/// RSA-SHA256, SHA-256 digest, a single Reference to the element's `ID`, the certificate in KeyInfo.
/// PassXML does the XML (canonical bytes through libxml2, the markup, the structural checks); the
/// caller does the cryptography, since PassXML imports no crypto library (ARCHITECTURE.md).
public enum XMLSignature {
    public static let namespace = "http://www.w3.org/2000/09/xmldsig#"
    public static let exclusiveC14N = "http://www.w3.org/2001/10/xml-exc-c14n#"
    public static let envelopedSignature = "http://www.w3.org/2000/09/xmldsig#enveloped-signature"
    public static let rsaSHA256 = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"
    public static let sha256 = "http://www.w3.org/2001/04/xmlenc#sha256"

    /// The signer's cryptography: SHA-256 of the canonical element, and RSA PKCS#1 v1.5 SHA-256 over
    /// the canonical SignedInfo (nil when the key cannot sign).
    public struct Signer: Sendable {
        public var digest: @Sendable ([UInt8]) -> [UInt8]
        public var sign: @Sendable ([UInt8]) -> [UInt8]?
        /// Base64 DER of the X.509 certificate written into KeyInfo (for readers such as pysaml2;
        /// a verifier of ours never takes the key from the message).
        public var certificate: String

        public init(
            digest: @escaping @Sendable ([UInt8]) -> [UInt8], sign: @escaping @Sendable ([UInt8]) -> [UInt8]?,
            certificate: String
        ) {
            self.digest = digest
            self.sign = sign
            self.certificate = certificate
        }
    }

    /// A signature that is well-formed in our profile and references its own element: what the
    /// caller's cryptography still has to confirm (digest, then signature with the signer's known key).
    public struct Signed: Hashable, Sendable {
        public var referenceID: String
        public var digestValue: [UInt8]
        public var signatureValue: [UInt8]
        /// Exclusive C14N of SignedInfo, as it sits in the document.
        public var canonicalSignedInfo: [UInt8]
        /// Exclusive C14N of the signed element less its `<Signature>` (the enveloped transform).
        public var canonicalElement: [UInt8]

        public init(
            referenceID: String, digestValue: [UInt8], signatureValue: [UInt8],
            canonicalSignedInfo: [UInt8], canonicalElement: [UInt8]
        ) {
            self.referenceID = referenceID
            self.digestValue = digestValue
            self.signatureValue = signatureValue
            self.canonicalSignedInfo = canonicalSignedInfo
            self.canonicalElement = canonicalElement
        }
    }

    // MARK: - Sign

    /// The `<ds:Signature>` markup for the element whose `ID` is `id` in `document` (which must not
    /// yet hold it); inserted as that element's child, it makes an enveloped signature.
    public static func signature(of id: String, in document: String, signer: Signer) throws(PassXMLError) -> String {
        let canonical = try SafeXML.withDocument(Array(document.utf8), limits: .standard) {
            (doc: xmlDocPtr) throws(PassXMLError) -> [UInt8] in
            guard let element = try identifiedElements(doc)[id] else { throw PassXMLError("no element has ID \(id)") }
            return try C14N.canonicalize(doc, apex: element, excluding: nil)
        }
        let digest = signer.digest(canonical)
        // Exclusive C14N of SignedInfo does not depend on where it sits, only on the `ds` prefix it
        // uses, so it can be canonicalized on its own before the Signature around it exists.
        let standalone = signedInfo(referenceID: id, digest: digest, declaringNamespace: true)
        let canonicalInfo = try SafeXML.withDocument(Array(standalone.utf8), limits: .standard) {
            (doc: xmlDocPtr) throws(PassXMLError) -> [UInt8] in
            guard let root = xmlDocGetRootElement(doc) else { throw PassXMLError("SignedInfo has no root") }
            return try C14N.canonicalize(doc, apex: root, excluding: nil)
        }
        guard let value = signer.sign(canonicalInfo) else { throw PassXMLError("the signing key cannot sign") }
        var w = XMLWriter()
        w.element("ds:Signature", [("xmlns:ds", namespace)]) { w in
            w.appendMarkup(signedInfo(referenceID: id, digest: digest, declaringNamespace: false))
            w.leaf("ds:SignatureValue", Base64.encode(value))
            w.element("ds:KeyInfo") { w in
                w.element("ds:X509Data") { w in w.leaf("ds:X509Certificate", signer.certificate) }
            }
        }
        return w.text
    }

    private static func signedInfo(referenceID: String, digest: [UInt8], declaringNamespace: Bool) -> String {
        var w = XMLWriter()
        w.element("ds:SignedInfo", declaringNamespace ? [("xmlns:ds", namespace)] : []) { w in
            w.leaf("ds:CanonicalizationMethod", "", [("Algorithm", exclusiveC14N)])
            w.leaf("ds:SignatureMethod", "", [("Algorithm", rsaSHA256)])
            w.element("ds:Reference", [("URI", "#" + referenceID)]) { w in
                w.element("ds:Transforms") { w in
                    w.leaf("ds:Transform", "", [("Algorithm", envelopedSignature)])
                    w.leaf("ds:Transform", "", [("Algorithm", exclusiveC14N)])
                }
                w.leaf("ds:DigestMethod", "", [("Algorithm", sha256)])
                w.leaf("ds:DigestValue", Base64.encode(digest))
            }
        }
        return w.text
    }

    // MARK: - Check

    /// The canonical bytes a check of `element`'s enveloped signature needs, nil when it has none.
    /// Refuses a document where two elements share an `ID` (a reference must name one element) and
    /// an element with more than one `<Signature>` or SignedInfo.
    static func canonicalParts(_ doc: xmlDocPtr, element: xmlNodePtr) throws(PassXMLError)
        -> (element: [UInt8], signedInfo: [UInt8])?
    {
        _ = try identifiedElements(doc)
        let signatures = elementChildren(element).filter { isElement($0, "Signature", namespace) }
        guard let signature = signatures.first else { return nil }
        guard signatures.count == 1 else {
            throw PassXMLError("<\(name(element))> has \(signatures.count) <Signature> elements; one is allowed")
        }
        let infos = elementChildren(signature).filter { isElement($0, "SignedInfo", namespace) }
        guard infos.count == 1 else { throw PassXMLError("<Signature> must have exactly one <SignedInfo>") }
        return (
            try C14N.canonicalize(doc, apex: element, excluding: signature),
            try C14N.canonicalize(doc, apex: infos[0], excluding: nil)
        )
    }

    /// Checks `signature` (the parsed `<Signature>` child of the element with ID `id`) against our
    /// profile: anything else, including a reference to another element, is refused here.
    static func read(
        _ signature: XMLElement, signedElementID id: String,
        canonical: (element: [UInt8], signedInfo: [UInt8])
    ) throws(PassXMLError) -> Signed {
        let ns = namespace
        let info = try signature.require("SignedInfo", namespace: ns)
        if signature.child("Object", namespace: ns) != nil {
            throw PassXMLError("<Signature> must not carry <Object> elements")
        }
        try expectAlgorithm(info.require("CanonicalizationMethod", namespace: ns), exclusiveC14N)
        try expectAlgorithm(info.require("SignatureMethod", namespace: ns), rsaSHA256)
        let references = info.children.filter { $0.name == "Reference" && $0.namespace == ns }
        guard references.count == 1 else {
            throw PassXMLError("<SignedInfo> has \(references.count) <Reference> elements; exactly one is allowed")
        }
        let reference = references[0]
        let uri = reference.attribute("URI") ?? ""
        guard uri == "#" + id else {
            throw PassXMLError("the signature references '\(uri)', not the element it signs (#\(id))")
        }
        let transforms = try reference.require("Transforms", namespace: ns).children
        var algorithms: [String] = []
        for t in transforms where t.name == "Transform" && t.namespace == ns {
            if !t.children.isEmpty { throw PassXMLError("a <Transform> with parameters is not supported") }
            algorithms.append(try t.requireAttribute("Algorithm"))
        }
        guard algorithms == [envelopedSignature, exclusiveC14N] || algorithms == [envelopedSignature] else {
            throw PassXMLError("unsupported transforms \(algorithms); expected enveloped-signature then exclusive C14N")
        }
        try expectAlgorithm(reference.require("DigestMethod", namespace: ns), sha256)
        return Signed(
            referenceID: id,
            digestValue: try Base64.decode(try reference.requireText("DigestValue", namespace: ns)),
            signatureValue: try Base64.decode(try signature.requireText("SignatureValue", namespace: ns)),
            canonicalSignedInfo: canonical.signedInfo, canonicalElement: canonical.element)
    }

    private static func expectAlgorithm(_ e: XMLElement, _ expected: String) throws(PassXMLError) {
        let algorithm = try e.requireAttribute("Algorithm")
        guard algorithm == expected else {
            throw PassXMLError("unsupported \(e.name) '\(algorithm)'; expected '\(expected)'")
        }
    }

    // MARK: - libxml2 tree

    /// Every element with an `ID` attribute, by that ID; two elements with one ID are refused.
    static func identifiedElements(_ doc: xmlDocPtr) throws(PassXMLError) -> [String: xmlNodePtr] {
        var out: [String: xmlNodePtr] = [:]
        var stack: [xmlNodePtr] = xmlDocGetRootElement(doc).map { [$0] } ?? []
        while let node = stack.popLast() {
            if let value = xmlGetNoNsProp(node, "ID") {
                let id = String(cString: value)
                passim_xmlFree(value)
                guard out[id] == nil else { throw PassXMLError("two elements have the ID '\(id)'") }
                out[id] = node
            }
            stack.append(contentsOf: elementChildren(node))
        }
        return out
    }

    static func elementChildren(_ node: xmlNodePtr) -> [xmlNodePtr] {
        var out: [xmlNodePtr] = []
        var child = node.pointee.children
        while let c = child {
            if c.pointee.type == XML_ELEMENT_NODE { out.append(c) }
            child = c.pointee.next
        }
        return out
    }

    static func isElement(_ node: xmlNodePtr, _ localName: String, _ namespace: String) -> Bool {
        guard name(node) == localName, let href = node.pointee.ns?.pointee.href else { return false }
        return String(cString: href) == namespace
    }

    private static func name(_ node: xmlNodePtr) -> String { node.pointee.name.map { String(cString: $0) } ?? "" }
}
