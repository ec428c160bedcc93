import Testing
import PassModel
import PassXML

/// PassXML's half of XML-DSig: what it hands the signer to digest and sign is exactly what a reader
/// later gets back as canonical bytes, and signatures outside our profile or pointing elsewhere are
/// refused before any cryptography runs. The cryptography itself is MockPassTests' (PassXML has none).
@Suite struct XMLSignatureTests {
    /// Records what it was asked to digest and sign; its "digest" and "signature" are recognisable bytes.
    final class Recorder: @unchecked Sendable {
        var digested: [[UInt8]] = []
        var signed: [[UInt8]] = []
    }

    static func signer(_ r: Recorder) -> XMLSignature.Signer {
        XMLSignature.Signer(
            digest: { bytes in
                r.digested.append(bytes); return Array(repeating: UInt8(bytes.count & 0xFF), count: 32)
            },
            sign: { bytes in
                r.signed.append(bytes); return Array(bytes.prefix(16).reversed())
            },
            certificate: "MIIB")
    }

    static let response = SAMLResponse(
        id: "_r1", inResponseTo: "_q1", issueInstant: SAMLTests.t0, issuer: "https://idp.example",
        destination: SAMLTests.acs, success: true, assertion: SAMLTests.assertion)

    @Test func whatIsSignedIsWhatTheReaderCanonicalizes() throws {
        let r = Recorder()
        let xml = try SAML.build(Self.response, signedBy: Self.signer(r))
        let parsed = try SAML.parseResponse(Array(xml.utf8))
        let signed = try #require(parsed.assertion?.signature)
        #expect(r.digested.count == 1 && r.signed.count == 1)
        #expect(signed.referenceID == "_as1")
        #expect(signed.canonicalElement == r.digested[0])
        #expect(signed.canonicalSignedInfo == r.signed[0])
        #expect(signed.digestValue == Array(repeating: UInt8(r.digested[0].count & 0xFF), count: 32))
        #expect(signed.signatureValue == Array(r.signed[0].prefix(16).reversed()))
        // The signature is not part of the assertion's value: the rest reads back unchanged.
        var assertion = try #require(parsed.assertion)
        assertion.signature = nil
        #expect(assertion == SAMLTests.assertion)
    }

    /// Exclusive C14N, checked by hand on the assertion: it declares the one namespace it uses, drops
    /// the XML declaration and the enveloped signature, and writes empty elements as start-end pairs.
    @Test func canonicalFormIsExclusiveC14N() throws {
        let r = Recorder()
        _ = try SAML.build(Self.response, signedBy: Self.signer(r))
        let canonical = String(decoding: try #require(r.digested.first), as: UTF8.self)
        #expect(canonical.hasPrefix(#"<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_as1""#))
        #expect(!canonical.contains("xmlns:samlp"))
        #expect(!canonical.contains("Signature"))
        #expect(canonical.contains(#"<saml:SubjectConfirmationData InResponseTo="_q1""#))
        #expect(canonical.contains("></saml:SubjectConfirmationData>"))
        let info = String(decoding: try #require(r.signed.first), as: UTF8.self)
        #expect(
            info.hasPrefix(#"<ds:SignedInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:CanonicalizationMethod"#))
        #expect(info.contains(##"<ds:Reference URI="#_as1">"##))
    }

    @Test func everyAttributeHasABasicNameFormat() {
        let xml = SAML.build(Self.response)
        #expect(xml.ranges(of: "<saml:Attribute ").count == 2)
        #expect(
            xml.ranges(
                of: #"<saml:Attribute Name="zip" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic">"#
            ).count == 1)
        #expect(xml.ranges(of: #"NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic""#).count == 2)
    }

    @Test func anUnsignedAssertionHasNoSignature() throws {
        let parsed = try SAML.parseResponse(Array(SAML.build(Self.response).utf8))
        #expect(parsed.assertion?.signature == nil)
    }

    /// A signature outside the profile is refused by name, before any cryptography.
    @Test func signaturesOutsideTheProfileAreRefused() throws {
        let xml = try SAML.build(Self.response, signedBy: Self.signer(Recorder()))
        func refusal(_ from: String, _ to: String) -> String {
            do {
                _ = try SAML.parseResponse(Array(xml.replacingFirst(from, with: to).utf8))
                return "accepted"
            } catch {
                return error.message
            }
        }
        #expect(
            refusal("http://www.w3.org/2001/04/xmldsig-more#rsa-sha256", "http://www.w3.org/2000/09/xmldsig#rsa-sha1")
                == "unsupported SignatureMethod 'http://www.w3.org/2000/09/xmldsig#rsa-sha1'; expected 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256'"
        )
        #expect(
            refusal("http://www.w3.org/2001/04/xmlenc#sha256", "http://www.w3.org/2000/09/xmldsig#sha1")
                == "unsupported DigestMethod 'http://www.w3.org/2000/09/xmldsig#sha1'; expected 'http://www.w3.org/2001/04/xmlenc#sha256'"
        )
        #expect(
            refusal(#"<ds:Transform Algorithm="http://www.w3.org/2000/09/xmldsig#enveloped-signature"/>"#, "")
                == "unsupported transforms [\"http://www.w3.org/2001/10/xml-exc-c14n#\"]; expected enveloped-signature then exclusive C14N"
        )
        #expect(refusal("</ds:KeyInfo>", "</ds:KeyInfo><ds:Object/>") == "<Signature> must not carry <Object> elements")
        #expect(
            refusal(##"URI="#_as1""##, #"URI="""#) == "the signature references '', not the element it signs (#_as1)")
        #expect(
            refusal("<saml:Subject>", #"<ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"/><saml:Subject>"#)
                == "<Assertion> has 2 <Signature> elements; one is allowed")
    }

    // MARK: - Hostile fixtures (Fixtures/hostile/xml/saml/, made from `passim saml-samples`)

    static func hostile(_ name: String) throws -> [UInt8] {
        let path = try Fixtures.root() + "/Fixtures/hostile/xml/saml/" + name
        guard let bytes = FileBytes.read(path) else { throw FixtureError(message: "cannot read \(path)") }
        return bytes
    }

    static func refusal(_ fixture: String) throws -> String {
        do {
            _ = try SAML.parseResponse(try hostile(fixture))
            return "accepted"
        } catch let error as PassXMLError {
            return error.message
        }
    }

    @Test func theGenuineResponseParsesWithItsSignature() throws {
        let r = try SAML.parseResponse(try Self.hostile("signed-response.xml"))
        let signed = try #require(r.assertion?.signature)
        #expect(signed.referenceID == r.assertion?.id)
        #expect(signed.digestValue.count == 32 && signed.signatureValue.count == 256)
    }

    @Test func signatureWrappingIsRefused() throws {
        // The forged assertion carries the genuine signature, whose reference points at the genuine
        // assertion hidden in its Advice: the element the SP would use is not the one signed.
        let message = try Self.refusal("signature-wrapping.xml")
        #expect(message.hasPrefix("the signature references '#_"))
        #expect(message.hasSuffix("not the element it signs (#_evil)"))
    }

    @Test func aSecondAssertionIsRefused() throws {
        #expect(
            try Self.refusal("two-assertions.xml") == "<Response> has 2 <Assertion> elements; at most one is allowed")
    }

    @Test func aReferenceToAnotherIDIsRefused() throws {
        let message = try Self.refusal("reference-to-another-id.xml")
        #expect(message.hasPrefix("the signature references '#_") && message.contains("not the element it signs"))
    }

    @Test func aDuplicateIDIsRefused() throws {
        #expect(try Self.refusal("duplicate-id.xml").hasPrefix("two elements have the ID '_"))
    }

    @Test func aDoctypeIsRefused() throws {
        #expect(try Self.refusal("doctype.xml") == "DOCTYPE is not allowed")
    }

    /// A wrong digest is well-formed: PassXML passes it on, and the digest check (MockPass) refuses it.
    @Test func aWrongDigestReachesTheCryptography() throws {
        let r = try SAML.parseResponse(try Self.hostile("wrong-digest.xml"))
        #expect(try #require(r.assertion?.signature).digestValue == Array(repeating: 0, count: 32))
    }
}
