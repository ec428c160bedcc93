import PassModel
import PassXML

extension Engine {
    /// `getMetadata(d)` → `setMetadataStatus(value, encrypted, opcode, d)`, echoing `d`.
    mutating func getMetadata(_ request: Value, at now: Instant) -> [EngineAction] {
        let opcode = request[Constants.metadataOpcodeKey]?.intValue ?? -1
        func answer(_ value: Value, encrypted: Bool = false) -> [EngineAction] {
            [.deliver(.setMetadataStatus(value: value, encrypted: encrypted, opcode: opcode, arguments: request))]
        }
        switch opcode {
        case Constants.metadataAuthentication:
            return answer(store.validAuthnToken(at: now).map { .string($0.expires.tokenDate) } ?? .null)
        case Constants.metadataAuthorization:
            guard store.validAuthnToken(at: now) != nil, let resource = request[Constants.metadataResourceIDKey]?.stringValue,
                  let token = store.validAuthzToken(for: resource, at: now) else { return answer(.null) }
            return answer(.string(token.expires.tokenDate))
        case Constants.metadataDeviceID:
            nextFlow += 1
            metadataRequests[nextFlow] = request
            let fields = [("requestor_id", requestorID), ("device_id", configuration.deviceID)]
            let sp = store.authnToken.map { spURL(forMVPD: $0.mvpdID) } ?? defaultSP
            return send(.form(sp + "/getMetadataDevice", fields), for: .metadata(nextFlow), at: now).1
        case Constants.metadataUserMeta:
            guard store.validAuthnToken(at: now) != nil, let key = request[Constants.metadataUserMetaKey]?.stringValue,
                  let meta = store.userMeta, let value = meta["data"]?[key] else { return answer(.null) }
            let encrypted = meta["encrypted"]?.listValue?.contains(.string(key)) ?? false
            return answer(.dict([Value.Entry(key, value)]), encrypted: encrypted)
        default:
            return answer(.null)
        }
    }

    mutating func deviceIDArrived(_ id: Int, _ result: HTTPResult) -> [EngineAction] {
        guard let request = metadataRequests.removeValue(forKey: id) else { return [] }
        var value = Value.null
        if case .response(let r) = result, r.status == 200, let deviceID = try? MetadataXML.parse(r.body) {
            value = .string(deviceID)
        }
        return [.deliver(.setMetadataStatus(value: value, encrypted: false, opcode: Constants.metadataDeviceID, arguments: request))]
    }
}
