/// The statuses a `net SP fail N status S` step or `POST /admin/net` may inject, and which of them
/// carry no body. Both sides read them here, so a scenario's parser and the live server agree.
public enum InjectedStatus {
    /// A final answer only: a 1xx is interim, so a client reads the next answer as this one's and
    /// every pipelined answer after it shifts by one.
    public static let range: ClosedRange<Int> = 200...599

    /// 204 and 304 have no body by definition; a 205 must not generate one (RFC 9110 §15.3.5, §15.3.6, §15.4.5).
    public static func forbidsBody(_ status: Int) -> Bool { status == 204 || status == 205 || status == 304 }
}
