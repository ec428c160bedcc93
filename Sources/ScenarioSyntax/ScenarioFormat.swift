/// The version of the scenario format (SCENARIO-FORMAT.md) this parser reads: the one place it is
/// stated. A file may say which version it is written in with a `format N` header statement
/// (docs/CONFORMANCE.md); one written for a newer format is refused with that reason, instead of
/// failing on whichever statement this parser does not know.
public enum ScenarioFormat {
    public static let version = 1

    /// Why a file that says `format TEXT` cannot be read, or nil when it can.
    static func check(_ text: String) -> String? {
        guard let n = Int(text), n >= 1, String(n) == text else {
            return "invalid format '\(text)' (expected a version number, this passim reads format \(version))"
        }
        guard n <= version else {
            return
                "this scenario is written in scenario format \(n); this passim reads format \(version) and older: update passim (CHANGELOG.md)"
        }
        return nil
    }
}
