import PassXML

/// A SAML message the mock wrote into a browser form in a typed run (`MockPass.typedRun`), kept as
/// the value its receiver would parse back from the bytes (`SAML.readsBack` holds for it) instead
/// of the bytes themselves. The form field carries a handle to it (`TypedSAMLStore`).
enum TypedSAML: Sendable {
    case authnRequest(AuthnRequest)
    /// The Response, and what the SP's check of its assertion's signature would conclude on the
    /// bytes this IdP would have written: the IdP signs nothing in a typed run.
    case response(SAMLResponse, SignatureVerdict)
    case logoutRequest(LogoutRequest)
    case logoutResponse(LogoutResponse)

    /// The field's name in the messages of a malformed-field refusal (as `PreparedXML.decodeSAML` names it).
    var what: String {
        switch self {
        case .authnRequest: return "SAMLRequest"
        case .response: return "SAMLResponse"
        case .logoutRequest: return "LogoutRequest"
        case .logoutResponse: return "LogoutResponse"
        }
    }

    /// Whether the receiver would parse exactly this value back from the bytes (`SAML.readsBack`).
    var readsBack: Bool {
        switch self {
        case .authnRequest(let m): return SAML.readsBack(m)
        case .response(let m, _): return SAML.readsBack(m)
        case .logoutRequest(let m): return SAML.readsBack(m)
        case .logoutResponse(let m): return SAML.readsBack(m)
        }
    }
}

/// The outcome of checking an assertion's enveloped signature, recorded by the IdP that would have
/// signed it; `MockContext.assertionProblem` turns it into the same refusal the bytes would get.
enum SignatureVerdict: Hashable, Sendable {
    /// No `<Signature>`: `saml unsigned`.
    case unsigned
    /// The digest holds and the signature is by the pool's key at this index (`IdPSigningKey.index`):
    /// it verifies only with that key.
    case signed(keyIndex: Int)
    /// Signed, then changed: the digest no longer matches (`saml tampered`).
    case altered
}
