/// The versions a Swift user of passim may need to compare: this library's, the driver protocol's
/// (docs/PORTING.md) and the scenario format's (SCENARIO-FORMAT.md). Each is stated once, where it
/// is used (the protocol in `PortMessage`, the format in `ScenarioFormat`); this only gathers them.
/// (Not named `Passim`: a type named like its module breaks `Passim.AccessEnabler`. Nor
/// `PassimVersion`: the symbol graph drops `<Module>Version…` names, Apple's framework version symbols,
/// so DocC could not document it.)
public enum PassimRelease {
    /// The library's version (CHANGELOG.md).
    public static let library = "0.16.0"
    /// The driver protocol this passim speaks, `MAJOR.MINOR`.
    public static var driverProtocol: String { ReleaseVersions.driverProtocol }
    /// The newest scenario format this passim reads.
    public static var scenarioFormat: Int { ReleaseVersions.scenarioFormat }
}
