@_exported import Entitlement
@_exported import MockPass
@_exported import PassModel

/// The versions a Swift user of passim may need to compare: this library's, the driver protocol's
/// (docs/PORTING.md) and the scenario format's (SCENARIO-FORMAT.md). Each is stated once, where it
/// is used (the protocol in `PortMessage`, the format in `ScenarioFormat`); this only gathers them.
/// (Not named `Passim`: a type named like its module breaks `Passim.AccessEnabler`.)
public enum PassimVersion {
    /// The library's version (CHANGELOG.md).
    public static let library = "0.14.0"
    /// The driver protocol this passim speaks, `MAJOR.MINOR`.
    public static var driverProtocol: String { PassimVersions.driverProtocol }
    /// The newest scenario format this passim reads.
    public static var scenarioFormat: Int { PassimVersions.scenarioFormat }
}
