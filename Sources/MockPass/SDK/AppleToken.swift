/// Apple's token in a typed run (`MockPass.typedRun`): the `HTTPResponse.decoded` of an IdP's
/// `/platform-sso`, whose body is then empty. `samlResponse` is what the device posts as
/// `SAMLResponse` to `/api/v1/tokens/authn`: a handle to the Response the IdP kept instead of
/// signing it. Any other run gets the signed XML as the body, which the device posts base64-encoded.
public struct AppleToken: Sendable {
    public let samlResponse: String
}
