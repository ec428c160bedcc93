import Crypto
import Foundation
@testable import Live
import Testing
import X509

/// What a client checks in passim's certificates, checked here without a client: the leaf names its
/// host (DNS or IP), is for servers only, lives under Apple's 398-day cap, and chains to the CA.
@Suite struct CertificateAuthorityTests {
    @Test func aLeafNamesItsHostsIsForServersAndChainsToTheCA() async throws {
        let ca = try CertificateAuthority()
        let key = P256.Signing.PrivateKey()
        let leaf = try ca.issue(
            names: ["sp.auth.adobe.com", "127.0.0.1", "::1"], publicKey: Certificate.PublicKey(key.publicKey))
        let names = try #require(try leaf.extensions.subjectAlternativeNames)
        #expect(names.contains(.dnsName("sp.auth.adobe.com")))
        #expect(names.count == 3)
        #expect(Array(names).filter { if case .ipAddress = $0 { true } else { false } }.count == 2)
        #expect(try leaf.extensions.extendedKeyUsage?.contains(.serverAuth) == true)
        #expect(try leaf.extensions.basicConstraints == .notCertificateAuthority)
        #expect(leaf.notValidAfter.timeIntervalSince(leaf.notValidBefore) <= 398 * 24 * 3600)
        #expect(leaf.issuer == ca.certificate.subject)
        #expect(ca.certificate.publicKey.isValidSignature(leaf.signature, for: leaf))

        var verifier = Verifier(rootCertificates: CertificateStore([ca.certificate])) {
            RFC5280Policy()  // validates expiry against the current time
            ServerIdentityPolicy(serverHostname: "sp.auth.adobe.com", serverIP: nil)
        }
        let result = await verifier.validate(leaf: leaf, intermediates: CertificateStore())
        guard case .validCertificate = result else {
            Issue.record("the leaf does not verify against the CA: \(result)")
            return
        }
    }

    @Test func ipAddressesAreRecognised() {
        #expect(CertificateAuthority.ipAddressBytes("127.0.0.1") == [127, 0, 0, 1])
        #expect(CertificateAuthority.ipAddressBytes("[::1]")?.count == 16)
        #expect(CertificateAuthority.ipAddressBytes("sp.auth.adobe.com") == nil)
    }
}
