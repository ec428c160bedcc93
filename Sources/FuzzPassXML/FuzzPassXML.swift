import FuzzSupport
import PassXML

/// libFuzzer target: every PassXML reader on the same untrusted bytes (SAML, configuration, tokens,
/// pages); each must answer a value or a PassXMLError.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPassXML(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? SafeXML.parse(bytes)
    _ = try? ConfigurationXML.parse(bytes)
    _ = try? SAML.parseAuthnRequest(bytes)
    _ = try? SAML.parseResponse(bytes)
    _ = try? SAML.parseLogoutRequest(bytes)
    _ = try? SAML.parseLogoutResponse(bytes)
    _ = try? AuthnTokenXML.parse(bytes)
    _ = try? SessionDeviceXML.parse(bytes)
    _ = try? SessionDeviceXML.parseUserMeta(bytes)
    _ = try? AuthzTokenXML.parse(bytes)
    _ = try? AuthorizeDeviceXML.parse(bytes)
    _ = try? PreauthorizeXML.parse(bytes)
    _ = try? MetadataXML.parse(bytes)
    _ = try? ErrorXML.parse(bytes)
    _ = try? HTMLPageXML.parse(bytes)
    _ = try? SAML.decodeFromPost(String(decoding: bytes, as: UTF8.self))
    return 0
}

#if !FUZZING
    @main
    enum Replay {
        static func main() { CorpusReplay.run(fuzzPassXML) }
    }
#endif
