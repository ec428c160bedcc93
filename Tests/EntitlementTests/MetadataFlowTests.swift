import PassModel
import PassXML
import Testing
@testable import Entitlement

/// The metadata flows alone, with a core and no engine: the store's answers at once, the
/// device id from the SP, the call's argument echoed.
@Suite struct MetadataFlowTests {
    typealias F = FlowFixtures

    static func query(_ opcode: Int, _ extra: [Value.Entry] = []) -> Value {
        .dict([Value.Entry(Constants.metadataOpcodeKey, .int(opcode))] + extra)
    }

    @Test func theDeviceIDIsAskedAndItsAnswerEchoesTheCall() {
        var core = F.core(token: F.token())
        var flows = MetadataFlows()
        let q = Self.query(Constants.metadataDeviceID)
        let sent = F.sent(flows.query(q, &core, at: F.now))
        #expect(sent.map(\.1.url) == ["https://sp.test/getMetadataDevice"])
        let done = flows.answered(FlowID(value: 1), F.xml(200, MetadataXML.build(deviceID: "dev")), core)
        #expect(
            done == [
                .deliver(
                    .setMetadataStatus(
                        value: .string("dev"), encrypted: false, opcode: Constants.metadataDeviceID, arguments: q))
            ])
        #expect(flows.answered(FlowID(value: 1), .timeout, core).isEmpty, "answered once")
    }

    /// User metadata comes from what the token brought, marked encrypted when its key is listed so.
    @Test func userMetadataIsReadFromTheTokenEncryptedWhereSaid() {
        var core = F.core()
        let meta = Value.dict([
            Value.Entry("encrypted", .list([.string("zip")])),
            Value.Entry("data", .dict([Value.Entry("zip", .string("Z")), Value.Entry("name", .string("N"))])),
        ])
        core.store.store(F.token(), userMeta: meta, fromPlatformSSO: false)
        var flows = MetadataFlows()
        for (key, encrypted) in [("zip", true), ("name", false)] {
            let q = Self.query(Constants.metadataUserMeta, [Value.Entry(Constants.metadataUserMetaKey, .string(key))])
            let value = Value.dict([Value.Entry(key, .string(encrypted ? "Z" : "N"))])
            #expect(
                flows.query(q, &core, at: F.now) == [
                    .deliver(
                        .setMetadataStatus(
                            value: value, encrypted: encrypted, opcode: Constants.metadataUserMeta, arguments: q))
                ])
        }
        #expect(flows.count == 0, "answered at once: nothing held")
    }
}
