import PassModel

/// What the MVPDs' identity providers keep: their SAML sessions and each user's opaque NameID. The
/// SPs read the NameIDs back (an assertion names its user only by it), so the table is the IdPs' and
/// the SPs only look it up.
struct IdPState: Sendable {
    /// IdP sessions by SessionIndex.
    var sessions: ExpiringStore<String, IdPSession>
    /// The IdPs' opaque NameID for each (MVPD, user), and back (bounded by the world's users).
    var nameIDs: [UserKey: String] = [:]
    var usersByNameID: [String: UserKey] = [:]

    struct UserKey: Hashable, Sendable {
        var mvpdID: String
        var userName: String
    }

    init(limits: MockLimits) {
        sessions = ExpiringStore(capacity: limits.idpSessions, maxBytes: limits.storeBytes)
    }

    /// The IdP's NameID for a user: drawn from `random` on first login, then the same for that user.
    mutating func nameID(mvpdID: String, userName: String, random: inout SeededRandom) -> String {
        let key = UserKey(mvpdID: mvpdID, userName: userName)
        if let id = nameIDs[key] { return id }
        let id = random.hex(32)
        nameIDs[key] = id
        usersByNameID[id] = key
        return id
    }

    mutating func expire(at now: Instant) { sessions.expire(at: now) }
}
