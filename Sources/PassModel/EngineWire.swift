/// Which requests the engine makes behind the same API and callbacks: the AccessEnabler
/// SDK's own, or REST API v2's, each SDK call mapped as Adobe's migration FAQ maps it
/// (rest-api-v2.md 1.7). What the app sees differs only where Adobe's design makes it differ
/// (docs/MIGRATION.md; Scenarios/wire-v2.expect).
public enum EngineWire: String, Hashable, Sendable, CaseIterable {
    /// The SDK's wire: `config`, `authenticate/saml`, `sessionDevice`, `authorizeDevice`… (docs/WIRE.md).
    case sdk
    /// REST API v2: `configuration`, `sessions`, `profiles`, `decisions`, `logout` under `/api/v2/`.
    case restV2 = "v2"
}
