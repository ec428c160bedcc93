/// Limits on a scenario or world file, the one place they are set. Scenario files come from anyone
/// (`passim run` in CI on a pull request, `POST /admin/world`), so every size the parser's time,
/// memory or recursion depends on is bounded here; each error names its limit so a user can find it.
public enum ScenarioLimits {
    /// Lists, dictionaries and `Id{...}` patterns inside one another. The value parser recurses once
    /// per level, so this is also the parser's deepest recursion.
    public static let valueDepth = 64
    /// Unicode scalars on one line.
    public static let lineLength = 16_384
    /// Unicode scalars in one string or regex, after escapes.
    public static let valueLength = 8_192
    /// Bytes in one file.
    public static let fileBytes = 4 << 20
    /// Steps in one file.
    public static let steps = 10_000
    /// World statements (`sp`, `mvpd`, `user`, `requestor`, `default-sp`) and `app` lines in one file.
    public static let worldStatements = 2_000
    /// Distinct tags of one file (a tag may be repeated; repeats are not counted).
    public static let tags = 256

    /// `message (limit: name)`, the form every limit's error takes.
    static func exceeded(_ message: String, limit: String) -> String {
        "\(message) (limit: \(limit))"
    }
}
