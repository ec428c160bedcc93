import Port

enum ConformanceVersions {
    static var protocolMajor: Int { PortMessage.version }
}
