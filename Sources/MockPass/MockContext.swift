import PassModel
import PassXML

/// What every family of the mock shares: the world it serves, its limits, its random streams and
/// seed, and a typed run's SAML messages. One value per `MockPass`, lent `inout` to the family a
/// request reaches, so the families draw from one stream in the order they always did: the same
/// seed gives the same tokens, codes and ids, byte for byte. A family's own state is its own type
/// (`SDKFamily`, `IdPFamily`, `ClientAdmission`, `RESTv1Family`, `RESTv2Family`); what one family
/// needs of another is a parameter of its handler, never this.
struct MockContext: Sendable {
    let world: World
    let limits: MockLimits
    var random: SeededRandom
    /// Client registration's own stream (client ids, secrets, access tokens): a client's credentials
    /// do not move when another flow draws a value first, so a Bearer token a scenario pins is the
    /// same on the SDK's wire and on REST API v2, where sessions draw codes and ids the SDK's does not.
    var registrationRandom: SeededRandom
    /// Picks the IdPs' signing keys (`IdPSigningKey.key(seed:mvpdID:)`); never advances `random`.
    let seed: UInt64
    /// A typed simulated run (see `MockPass.typedRun`).
    var typedRun = false
    /// The messages behind the handles of a typed run (`typedRun`).
    var typedMessages: TypedSAMLStore

    /// `seed` nil: see `MockPass.init(world:seed:limits:)`.
    init(world: World, seed: UInt64?, limits: MockLimits) {
        self.world = world
        self.limits = limits
        if let seed {
            random = SeededRandom(seed: seed)
            registrationRandom = SeededRandom(seed: seed, stream: "client-registration")
            self.seed = seed
        } else {
            random = .secure()
            registrationRandom = .secure()
            // Only picks an IdP's signing key from the committed pool: any value will do.
            self.seed = random.next()
        }
        typedMessages = TypedSAMLStore(capacity: limits.typedSAMLMessages)
    }

    /// A SAML ID: must not start with a digit (xs:ID), hence the underscore.
    mutating func samlID() -> String { "_" + random.hex(32) }

    // MARK: - What every family's authorization asks of the world

    /// A requestor of the world served at `sp`, else 400.
    func knownRequestor(_ id: String, at sp: World.ServiceProvider) throws(HandlerFailure) -> World.Requestor {
        guard let requestor = world.requestor(id), requestor.isAt(sp) else {
            throw .badRequest("unknown requestor \(id)")
        }
        return requestor
    }

    /// nil when authorized, else the details of the refusal: the user's deny message for a resource in
    /// `deny`, "" for one in neither list. A TempPass authorizes every resource.
    func decision(for subject: TokenSubject, resource: String) -> String? {
        guard case .user(let key) = subject else { return nil }
        guard let user = world.user(mvpdID: key.mvpdID, name: key.userName) else { return "" }
        if user.allow.contains(resource) { return nil }
        if user.deny.contains(resource) { return user.denyMessage ?? "" }
        return ""
    }

    /// A resource is a plain id or an MRSS document (`<rss><channel><title>ID</title>…`), whose
    /// channel title is the id the MVPD decides on. A document that is not such MRSS is a 400.
    static func resourceName(_ resource: String) throws(HandlerFailure) -> String {
        let isSpace: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        guard resource.unicodeScalars.first(where: { !isSpace($0) }) == "<" else {
            try MockLimits.admit(resource, as: "resource")
            return resource
        }
        let root: XMLElement
        do {
            root = try SafeXML.parse(resource)
        } catch {
            throw .badRequest("malformed MRSS resource: \(error.message)")
        }
        guard root.name == "rss", let title = root.child("channel")?.child("title")?.trimmedText, !title.isEmpty else {
            throw .badRequest("MRSS resource without <rss><channel><title>")
        }
        // The name, not the document, is what tokens and authorizations keep.
        try MockLimits.admit(title, as: "resource title")
        return title
    }
}
