import Crypto
import Foundation
import NIOSSL
import SwiftASN1
import X509

/// The certificate authority of `passim serve --proxy/--tls`: made at start (or read back with
/// `--ca/--ca-key`), it signs one leaf certificate per host name on demand, so a client that trusts
/// the CA's PEM accepts passim as `sp.auth.adobe.com` or any other host of the world. P-256 keys
/// throughout: fast to make and sign with, and accepted by every TLS stack passim meets.
///
/// This is the live server, not the simulation: keys come from the system's random source and
/// validity from the wall clock.
public final class CertificateAuthority: Sendable {
    public let certificate: Certificate
    private let key: Certificate.PrivateKey

    /// Leaf certificates live a year: Apple's platforms refuse server certificates valid longer than 398 days.
    static let leafValidity: TimeInterval = 365 * 24 * 3600
    static let caValidity: TimeInterval = 10 * 365 * 24 * 3600
    /// Back-dated so a client whose clock is a little behind still accepts a certificate made just now.
    static let backdating: TimeInterval = 3600

    /// A new CA with a fresh key.
    public convenience init() throws {
        let key = Certificate.PrivateKey(P256.Signing.PrivateKey())
        let name = try DistinguishedName {
            OrganizationName("passim")
            CommonName("passim mock Adobe Pass CA")
        }
        let now = Date()
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: key.publicKey,
            notValidBefore: now - Self.backdating, notValidAfter: now + Self.caValidity,
            issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                SubjectKeyIdentifier(hash: key.publicKey)
            },
            issuerPrivateKey: key)
        self.init(certificate: certificate, key: key)
    }

    /// A CA read back from its PEM files (`--ca FILE --ca-key FILE`). The key must be the certificate's.
    public convenience init(certificatePEM: String, keyPEM: String) throws(LiveError) {
        let certificate: Certificate
        let key: Certificate.PrivateKey
        do { certificate = try Certificate(pemEncoded: certificatePEM) } catch {
            throw LiveError("the CA certificate is not a PEM certificate: \(error)")
        }
        do { key = try Certificate.PrivateKey(pemEncoded: keyPEM) } catch {
            // The error's text is about the format, never the key's bytes.
            throw LiveError("the CA key is not a PEM private key (P-256, P-384, P-521 or RSA)")
        }
        guard key.publicKey == certificate.publicKey else {
            throw LiveError("the CA key does not belong to the CA certificate")
        }
        guard let constraints = try? certificate.extensions.basicConstraints,
            case .isCertificateAuthority = constraints
        else {
            throw LiveError("the CA certificate is not a certificate authority (basicConstraints CA:TRUE)")
        }
        self.init(certificate: certificate, key: key)
    }

    private init(certificate: Certificate, key: Certificate.PrivateKey) {
        self.certificate = certificate
        self.key = key
    }

    public var certificatePEM: String {
        get throws { try certificate.serializeAsPEM().pemString }
    }

    /// Writes the certificate to `certificatePath` and the key to `keyPath`, the key created with mode
    /// 0600 before a byte of it is written (an existing file is truncated and set to 0600 too).
    public func write(certificateTo certificatePath: String, keyTo keyPath: String) throws(LiveError) {
        do {
            try Data(try certificatePEM.utf8).write(to: URL(fileURLWithPath: certificatePath))
        } catch {
            throw LiveError("cannot write the CA certificate to \(certificatePath): \(error)")
        }
        let pem: String
        do { pem = try key.serializeAsPEM().pemString } catch {
            throw LiveError("cannot serialize the CA key")
        }
        let fd = open(keyPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw LiveError("cannot write the CA key to \(keyPath): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        guard fchmod(fd, 0o600) == 0 else { throw LiveError("cannot make \(keyPath) private (mode 0600)") }
        let bytes = Array(pem.utf8)
        let written = bytes.withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw LiveError("cannot write the CA key to \(keyPath)") }
    }

    /// A server context whose certificate covers `names` (DNS names and IP addresses), signed by this CA.
    /// `requireSNI`: the handshake must name one of `names` in SNI (a proxy tunnel, whose host is known
    /// from CONNECT), else it fails with a TLS alert and `refused` is told why; a direct listener
    /// reached by address gets no SNI. Minimum TLS 1.2: an older client gets a protocol_version alert.
    func makeServerContext(
        for names: [String], requireSNI: Bool,
        refused: @escaping @Sendable (String) -> Void
    ) throws -> NIOSSLContext {
        let leafKey = P256.Signing.PrivateKey()
        let leaf = try issue(names: names, publicKey: Certificate.PublicKey(leafKey.publicKey))
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: [
                .certificate(try NIOSSLCertificate(bytes: try leaf.serializeAsPEM().derBytes, format: .der))
            ],
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(leafKey.pemRepresentation.utf8), format: .pem)))
        configuration.minimumTLSVersion = .tlsv12
        if requireSNI {
            let allowed = Set(names.map { $0.lowercased() })
            let shown = names.joined(separator: ", ")
            configuration.sslContextCallback = { values, promise in
                guard let sni = values.serverHostname else {
                    refused("a TLS client sent no SNI (server name) in a tunnel to \(shown): refused with an alert")
                    promise.fail(TLSRefusal("no SNI"))
                    return
                }
                guard allowed.contains(sni.lowercased()) else {
                    refused("a TLS client asked for \(sni) (SNI) in a tunnel to \(shown): refused with an alert")
                    promise.fail(TLSRefusal("SNI is not the tunnel's host"))
                    return
                }
                promise.succeed(.noChanges)
            }
        }
        return try NIOSSLContext(configuration: configuration)
    }

    func issue(names: [String], publicKey: Certificate.PublicKey) throws -> Certificate {
        let now = Date()
        let alternatives: [GeneralName] = names.map { name in
            if let address = Self.ipAddressBytes(name) {
                return .ipAddress(ASN1OctetString(contentBytes: address[...]))
            }
            return .dnsName(name)
        }
        let subject = try DistinguishedName { CommonName(names.first ?? "passim") }
        return try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: publicKey,
            notValidBefore: now - Self.backdating, notValidAfter: now + Self.leafValidity,
            issuer: certificate.subject, subject: subject, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames(alternatives)
                AuthorityKeyIdentifier(keyIdentifier: try certificate.extensions.subjectKeyIdentifier?.keyIdentifier)
            },
            issuerPrivateKey: key)
    }

    /// The 4 or 16 bytes of an IPv4/IPv6 literal, or nil for a DNS name.
    static func ipAddressBytes(_ text: String) -> [UInt8]? {
        let bare = text.hasPrefix("[") && text.hasSuffix("]") ? String(text.dropFirst().dropLast()) : text
        var v4 = in_addr()
        if inet_pton(AF_INET, bare, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, bare, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }
}

/// Why passim refused a TLS handshake itself (the client then gets an alert).
struct TLSRefusal: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
