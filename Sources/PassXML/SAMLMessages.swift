import PassModel

public struct AuthnRequest: Hashable, Sendable {
    public var id: String
    public var issueInstant: Instant
    public var issuer: String
    public var destination: String
    public var assertionConsumerServiceURL: String
    public var forceAuthn: Bool
    public var isPassive: Bool

    public init(
        id: String, issueInstant: Instant, issuer: String, destination: String,
        assertionConsumerServiceURL: String, forceAuthn: Bool = false, isPassive: Bool = false
    ) {
        self.id = id
        self.issueInstant = issueInstant
        self.issuer = issuer
        self.destination = destination
        self.assertionConsumerServiceURL = assertionConsumerServiceURL
        self.forceAuthn = forceAuthn
        self.isPassive = isPassive
    }
}

public struct SAMLAttribute: Hashable, Sendable {
    public var name: String
    public var values: [String]
    public init(name: String, values: [String]) {
        self.name = name
        self.values = values
    }
}

public struct Assertion: Hashable, Sendable {
    public var id: String
    public var issueInstant: Instant
    public var issuer: String
    public var nameID: String
    public var sessionIndex: String
    public var notOnOrAfter: Instant
    public var audience: String
    public var attributes: [SAMLAttribute]
    /// Set by the parser when the assertion carries an enveloped signature in our profile; builders
    /// ignore it (signing is `SAML.build(_:signedBy:)`).
    public var signature: XMLSignature.Signed?

    public init(
        id: String, issueInstant: Instant, issuer: String, nameID: String, sessionIndex: String,
        notOnOrAfter: Instant, audience: String, attributes: [SAMLAttribute] = [],
        signature: XMLSignature.Signed? = nil
    ) {
        self.id = id
        self.issueInstant = issueInstant
        self.issuer = issuer
        self.nameID = nameID
        self.sessionIndex = sessionIndex
        self.notOnOrAfter = notOnOrAfter
        self.audience = audience
        self.attributes = attributes
        self.signature = signature
    }
}

public struct SAMLResponse: Hashable, Sendable {
    public var id: String
    public var inResponseTo: String
    public var issueInstant: Instant
    public var issuer: String
    public var destination: String
    /// StatusCode `...:status:Success`; false is written as Requester / AuthnFailed.
    public var success: Bool
    public var assertion: Assertion?

    public init(
        id: String, inResponseTo: String, issueInstant: Instant, issuer: String, destination: String,
        success: Bool, assertion: Assertion? = nil
    ) {
        self.id = id
        self.inResponseTo = inResponseTo
        self.issueInstant = issueInstant
        self.issuer = issuer
        self.destination = destination
        self.success = success
        self.assertion = assertion
    }
}

public struct LogoutRequest: Hashable, Sendable {
    public var id: String
    public var issueInstant: Instant
    public var issuer: String
    public var destination: String
    public var nameID: String
    public var sessionIndex: String

    public init(
        id: String, issueInstant: Instant, issuer: String, destination: String,
        nameID: String, sessionIndex: String
    ) {
        self.id = id
        self.issueInstant = issueInstant
        self.issuer = issuer
        self.destination = destination
        self.nameID = nameID
        self.sessionIndex = sessionIndex
    }
}

public struct LogoutResponse: Hashable, Sendable {
    public var id: String
    public var inResponseTo: String
    public var issueInstant: Instant
    public var issuer: String
    public var destination: String
    public var success: Bool

    public init(
        id: String, inResponseTo: String, issueInstant: Instant, issuer: String, destination: String,
        success: Bool
    ) {
        self.id = id
        self.inResponseTo = inResponseTo
        self.issueInstant = issueInstant
        self.issuer = issuer
        self.destination = destination
        self.success = success
    }
}
