import PassModel

/// Limits on what SPs send the engine, the one place they are set (docs/LIMITS.md, "Engine").
public enum EngineLimits {
    /// The longest access-token life the engine believes (`expires_in`); a longer or negative one is
    /// cut into `0...accessTokenLifetime`, so a hostile answer cannot overflow the clock's arithmetic.
    /// Cut short, a token is only renewed sooner.
    public static let accessTokenLifetime = Millis.hours(24 * 366)
}
