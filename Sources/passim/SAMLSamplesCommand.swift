import ArgumentParser
import Foundation
import MockPass
import PassModel

/// Writes the SAML messages of one mock login and logout, for checkers outside Swift (pysaml2 in
/// `Fixtures/clients/saml/`): the messages as the mock really sends them, not a copy kept in git.
struct SAMLSamplesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "saml-samples",
        abstract: "Write the SAML messages of one login and one logout (and the IdP's certificate) to a folder.")

    @Option(
        help: ArgumentHelp(
            "The folder to write authn-request.xml, response.xml, logout-request.xml, "
                + "logout-response.xml, idp-cert.pem and endpoints.json to.", valueName: "DIR"))
    var out: String

    @Option(help: "The seed (it picks the IdP's signing key and every ID).")
    var seed: UInt64 = 0x5EED

    @Option(
        help: ArgumentHelp(
            "When the messages are issued, in seconds since 1970 (default: the simulation's start, "
                + "2026-01-01; a checker that compares with its own clock passes the time it runs at).",
            valueName: "SECONDS"))
    var at: Int64?

    func run() throws {
        let samples: SAMLSamples
        do {
            samples = try SAMLSamples.generate(
                seed: seed, at: at.map { Instant(milliseconds: $0 * 1000) } ?? .simulationStart)
        } catch {
            throw ValidationError("saml-samples: \(error.description)")
        }
        let dir = URL(fileURLWithPath: out, isDirectory: true)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for m in samples.messages {
            try Data(m.xml.utf8).write(to: dir.appendingPathComponent(m.name + ".xml"))
        }
        try Data(samples.idpCertificatePEM.utf8).write(to: dir.appendingPathComponent("idp-cert.pem"))
        let endpoints: [String: String] = [
            "sp_entity_id": samples.spEntityID, "acs_url": samples.assertionConsumerURL,
            "sp_slo_url": samples.spLogoutResponseURL, "idp_entity_id": samples.idpEntityID,
            "idp_sso_url": samples.idpSSOURL, "idp_slo_url": samples.idpSLOURL,
        ]
        let json = try JSONSerialization.data(withJSONObject: endpoints, options: [.prettyPrinted, .sortedKeys])
        try json.write(to: dir.appendingPathComponent("endpoints.json"))
        print("wrote \(samples.messages.count) messages to \(out)")
    }
}
