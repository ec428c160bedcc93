/// Limits on JSON text from outside (a port's messages, the admin endpoint, `userMeta`), the one place
/// they are set. The parser itself keeps containers on an explicit stack, but the `Value` it builds is
/// compared, hashed, written and freed by recursion: the depth bound is what keeps those off the
/// end of the call stack.
public enum JSONLimits {
    /// Arrays and objects inside one another.
    public static let depth = 64
}
