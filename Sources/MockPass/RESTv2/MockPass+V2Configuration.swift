import PassModel

/// `GET /{sp}/configuration`.
extension MockPass {
    /// `GET /{sp}/configuration`: the MVPDs the SP offers the programmer, in the SP's order, in
    /// the contract's `ConfigurationResponse` shape (`requestor.mvpds`).
    func v2Configuration(_ sp: World.ServiceProvider, _ requestor: World.Requestor) -> HTTPResponse {
        let mvpds: [Value] = world.mvpds(offeredBy: sp, to: requestor).map { m in
            var e = [Value.Entry("id", .string(m.id)), Value.Entry("displayName", .string(m.displayName))]
            if let logo = m.logoURL { e.append(Value.Entry("logoUrl", .string(logo))) }
            e.append(Value.Entry("isTempPass", .bool(m.tempPass || world.tempPass(for: m.id) != nil)))
            e.append(Value.Entry("isProxy", .bool(false)))
            e.append(Value.Entry("authPerAggregator", .bool(false)))
            e.append(Value.Entry("passiveAuthnEnabled", .bool(false)))
            e.append(Value.Entry("enablePlatformServices", .bool(m.enablePlatformServices)))
            if m.enablePlatformServices {
                e.append(Value.Entry("displayInPlatformPicker", .bool(true)))
                e.append(Value.Entry("platformMappingId", .string(world.restV2.platformMappingID(of: m.id))))
                e.append(Value.Entry("enforcePlatformPermissions", .bool(true)))
            }
            if let status = m.boardingStatus { e.append(Value.Entry("boardingStatus", .string(status.rawValue))) }
            return .dict(e)
        }
        return MockPass.v2JSON([
            Value.Entry(
                "requestor",
                .dict([
                    Value.Entry("id", .string(requestor.id)), Value.Entry("name", .string(requestor.id)),
                    Value.Entry("mvpds", .list(mvpds)),
                ]))
        ])
    }
}
