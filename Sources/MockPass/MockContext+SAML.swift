import PassModel
import PassXML

/// The SAML form fields of the mock's browser flows, written and read either way: base64 XML, or in
/// a typed run (`typedRun`) a handle to the value (`TypedSAMLStore`). Each receiving handler reads
/// its message through these, so the checks after it are the same code on either; and the SP's
/// check of an assertion, which the SDK's and REST v2's SPs share (`assertionProblem`).
extension MockContext {
    /// The field for `message`: a handle in a typed run when the value reads back exactly from its
    /// bytes (`SAML.readsBack`), else base64 of the XML `bytes` writes (called only then).
    mutating func samlField(_ message: TypedSAML, bytes: () throws(HandlerFailure) -> String) throws(HandlerFailure)
        -> String
    {
        if typedRun, message.readsBack { return typedMessages.keep(message) }
        return SAML.encodeForPost(try bytes())
    }

    /// The message a typed run's handle names; nil when the mock is not in typed mode or `field` is
    /// no handle (the caller decodes the bytes: a handle then fails as base64, malformed). A handle
    /// this mock does not hold, or for another kind of message, is refused as a malformed field.
    func typedMessage(_ field: String, _ what: String, at now: Instant) throws(HandlerFailure) -> TypedSAML? {
        guard typedRun, TypedSAMLStore.isHandle(field) else { return nil }
        guard let message = typedMessages.message(field, at: now), message.what == what else {
            throw PreparedXML.malformed(what, "no \(what) of this run has that handle")
        }
        return message
    }

    func authnRequest(_ field: String, _ r: IncomingRequest, at now: Instant) throws(HandlerFailure) -> AuthnRequest {
        if case .authnRequest(let request)? = try typedMessage(field, "SAMLRequest", at: now) { return request }
        return try r.authnRequest(field)
    }

    /// The Response and, in a typed run, the verdict its IdP recorded for the assertion's signature
    /// (nil: the parsed assertion's own `signature` is to be checked).
    func samlResponse(
        _ field: String, _ r: IncomingRequest,
        at now: Instant
    ) throws(HandlerFailure) -> (SAMLResponse, SignatureVerdict?) {
        if case .response(let response, let verdict)? = try typedMessage(field, "SAMLResponse", at: now) {
            return (response, verdict)
        }
        return (try r.samlResponse(field), nil)
    }

    func logoutRequest(_ field: String, _ r: IncomingRequest, at now: Instant) throws(HandlerFailure) -> LogoutRequest {
        if case .logoutRequest(let request)? = try typedMessage(field, "LogoutRequest", at: now) { return request }
        return try r.logoutRequest(field)
    }

    func logoutResponse(_ field: String, _ r: IncomingRequest, at now: Instant) throws(HandlerFailure) -> LogoutResponse
    {
        if case .logoutResponse(let response)? = try typedMessage(field, "LogoutResponse", at: now) { return response }
        return try r.logoutResponse(field)
    }

    /// Why an SP refuses `assertion` from `idp` (nil: it accepts it), checked in this order: signed
    /// with the IdP's key (digest, then signature; the key is the one the SP knows for that IdP,
    /// never one the message carries), meant for `audience`, not expired at `now`. `verdict`: a
    /// typed run's, standing for the parsed signature's check (the same refusals, in the same order).
    func assertionProblem(
        _ assertion: Assertion, verdict: SignatureVerdict? = nil, from idp: World.IdentityProvider,
        audience: String, at now: Instant
    ) -> String? {
        if verdict == .unsigned || (verdict == nil && assertion.signature == nil) {
            return "the assertion is not signed"
        }
        guard let index = IdPSigningKey.index(seed: seed, mvpdID: idp.mvpdID) else {
            return "no signing key is known for the identity provider of \(idp.mvpdID)"
        }
        switch verdict {
        case .signed(let signer)?:
            // The digest holds whoever signed; the signature only with the SP's key for this IdP.
            if signer != index { return IdPSigningKey.signatureMismatch }
        case .altered?:
            return IdPSigningKey.digestMismatch
        case .unsigned?, nil:
            if let signed = assertion.signature, let problem = IdPSigningKey.pool[index].problem(with: signed) {
                return problem
            }
        }
        guard assertion.audience == audience else {
            return "the assertion is for the audience \(assertion.audience), not \(audience)"
        }
        guard now < assertion.notOnOrAfter else { return "the assertion has expired" }
        return nil
    }
}
