import PassModel

/// The messages of `TypedSAML` a typed run has in flight, by handle. A handle is `passim-typed:N`,
/// N counting from 1 per mock (deterministic, and never valid base64, so a mock not in typed mode
/// refuses it as a malformed field). Entries have no lifetime, as the bytes they stand for have none
/// (a login page may be posted hours later, or several times after wrong passwords); the cap
/// (`mock-typed-saml`) bounds them, the oldest going first. A message is not removed when read:
/// a replay is then refused by the same checks, with the same answer, as the bytes' replay.
struct TypedSAMLStore: Sendable {
    static let prefix = "passim-typed:"

    private var messages: ExpiringStore<Int, TypedSAML>
    private var last = 0

    init(capacity: Int) { messages = ExpiringStore(capacity: capacity) }

    /// Keeps `message`; its handle, for the form field.
    mutating func keep(_ message: TypedSAML) -> String {
        last += 1
        messages.set(last, message, until: ExpiringStore<Int, TypedSAML>.forever)
        return TypedSAMLStore.prefix + String(last)
    }

    /// Whether a form field is meant as a handle (whether or not this store holds it).
    static func isHandle(_ field: String) -> Bool { field.hasPrefix(prefix) }

    /// The message `handle` stands for; nil when it is not one this store holds (forged, or evicted).
    func message(_ handle: String, at now: Instant) -> TypedSAML? {
        guard TypedSAMLStore.isHandle(handle) else { return nil }
        let digits = handle.utf8.dropFirst(TypedSAMLStore.prefix.utf8.count)
        guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let n = Int(Substring(digits))
        else { return nil }
        return messages.value(n, at: now)
    }
}
