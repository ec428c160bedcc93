import Port
import ScenarioSyntax

/// Kept apart from `Passim` so its public file does not import the internal modules.
enum ReleaseVersions {
    static var driverProtocol: String { PortMessage.versionText }
    static var scenarioFormat: Int { ScenarioFormat.version }
}
