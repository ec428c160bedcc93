import PassModel
import PassXML

typealias MetadataID = FlowID<MetadataFlow>

/// One `getMetadata` of the device id waiting on its request; the others are answered at once.
struct MetadataFlow: Hashable, Sendable, OneRequestFlow {
    /// The call's argument, echoed in the answer.
    var arguments: Value
    var request: PendingRequest
}

/// The device-id queries in progress, each waiting on its one request.
struct MetadataFlows: Sendable, FlowTable {
    var flows: [MetadataID: MetadataFlow] = [:]

    static func owner(_ id: MetadataID) -> RequestOwner { .metadata(id) }

    // MARK: Transitions

    /// `getMetadata(d)` → `setMetadataStatus(value, encrypted, opcode, d)`, echoing `d`: from the
    /// token store at once, except the device id, which the SP is asked for.
    mutating func query(_ request: Value, _ core: inout EngineCore, at now: Instant) -> [EngineAction] {
        let opcode = request[Constants.metadataOpcodeKey]?.intValue ?? -1
        func answer(_ value: Value, encrypted: Bool = false) -> [EngineAction] {
            [.deliver(.setMetadataStatus(value: value, encrypted: encrypted, opcode: opcode, arguments: request))]
        }
        switch opcode {
        case Constants.metadataAuthentication:
            return answer(core.store.validAuthnToken(at: now).map { .string($0.expires.tokenDate) } ?? .null)
        case Constants.metadataAuthorization:
            guard core.store.validAuthnToken(at: now) != nil,
                let resource = request[Constants.metadataResourceIDKey]?.stringValue,
                let token = core.store.validAuthzToken(for: resource, at: now)
            else { return answer(.null) }
            return answer(.string(token.expires.tokenDate))
        case Constants.metadataDeviceID:
            switch core.dialect.deviceIDQuery(core) {
            case .known(let deviceID):
                return answer(.string(deviceID))
            case .ask(let wire):
                let id: MetadataID = core.newFlowID()
                let (pending, actions) = core.send(wire, at: now)
                flows[id] = MetadataFlow(arguments: request, request: pending)
                return actions
            }
        case Constants.metadataUserMeta:
            guard core.store.validAuthnToken(at: now) != nil,
                let key = request[Constants.metadataUserMetaKey]?.stringValue,
                let meta = core.store.userMeta, let value = meta["data"]?[key]
            else { return answer(.null) }
            let encrypted = meta["encrypted"]?.listValue?.contains(.string(key)) ?? false
            return answer(.dict([Value.Entry(key, value)]), encrypted: encrypted)
        default:
            return answer(.null)
        }
    }

    /// The device id arrived (or did not: `null`).
    mutating func answered(_ id: MetadataID, _ result: HTTPResult, _ core: EngineCore) -> [EngineAction] {
        guard let flow = flows.removeValue(forKey: id) else {
            return []  // no such flow: nothing can be answered (the owner check makes this unreachable)
        }
        let value = core.dialect.deviceID(in: result).map(Value.string) ?? .null
        return [
            .deliver(
                .setMetadataStatus(
                    value: value, encrypted: false, opcode: Constants.metadataDeviceID, arguments: flow.arguments))
        ]
    }
}
