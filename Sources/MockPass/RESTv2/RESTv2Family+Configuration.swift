import PassModel

/// `GET /{sp}/configuration`.
extension RESTv2Family {
    /// `GET /{sp}/configuration`: the client as Adobe sees it (`device`, `clientType`, `os`), the
    /// programmer (`id`, `name`, `domains`) and the MVPDs the SP offers it, in the SP's order, each
    /// with the fields Adobe's configuration page defines. An optional flag is there when the world
    /// sets it (true or false) or when it is true by nature (`isTempPass` of a TempPass,
    /// `enablePlatformServices` of an Apple SSO MVPD), as Adobe's sample shows them; otherwise absent.
    static func v2Configuration(
        _ sp: World.ServiceProvider, _ requestor: World.Requestor, _ r: IncomingRequest, in context: MockContext
    ) -> HTTPResponse {
        let world = context.world
        let mvpds: [Value] = world.mvpds(offeredBy: sp, to: requestor).map { m in
            var e = [Value.Entry("id", .string(m.id)), Value.Entry("displayName", .string(m.displayName))]
            if let logo = m.logoURL { e.append(Value.Entry("logoUrl", .string(logo))) }
            if m.tempPass || m.promoTempPass || world.tempPass(for: m.id) != nil {
                e.append(Value.Entry("isTempPass", .bool(true)))
            }
            let flags = world.restV2.mvpdConfiguration(of: m.id)
            if let proxy = flags.isProxy { e.append(Value.Entry("isProxy", .bool(proxy))) }
            if let a = flags.authPerAggregator { e.append(Value.Entry("authPerAggregator", .bool(a))) }
            if let p = flags.passiveAuthnEnabled { e.append(Value.Entry("passiveAuthnEnabled", .bool(p))) }
            if let b = flags.authPerBrowserSession { e.append(Value.Entry("authPerBrowserSession", .bool(b))) }
            if m.enablePlatformServices {
                e.append(Value.Entry("enablePlatformServices", .bool(true)))
                e.append(Value.Entry("displayInPlatformPicker", .bool(true)))
                e.append(Value.Entry("platformMappingId", .string(world.restV2.platformMappingID(of: m.id))))
                e.append(Value.Entry("enforcePlatformPermissions", .bool(true)))
            }
            if let status = m.boardingStatus { e.append(Value.Entry("boardingStatus", .string(status.rawValue))) }
            return .dict(e)
        }
        let domains: [Value] = world.restV2.domains(of: requestor.id).map { d in
            .dict([Value.Entry("name", .string(d.name)), Value.Entry("mvpdInitiated", .bool(d.mvpdInitiated))])
        }
        let client = V2ClientKind(r.request.headers)
        return RESTv2Family.v2JSON([
            Value.Entry("device", .string(client.deviceType)),
            Value.Entry("clientType", .string(V2ClientKind.clientType)),
            Value.Entry("os", .string(client.os)),
            Value.Entry(
                "requestor",
                .dict([
                    Value.Entry("id", .string(requestor.id)),
                    Value.Entry("name", .string(world.restV2.requestorName(of: requestor.id))),
                    Value.Entry("domains", .list(domains)),
                    Value.Entry("mvpds", .list(mvpds)),
                ])),
        ])
    }
}

/// The client a configuration request comes from, as the answer's `device`, `clientType` and `os` name
/// it (docs/CONFORMANCE.md, choice 88): the X-Device-Info it may send (optional here: a value that is
/// not Base64 JSON counts as none, as Adobe answers its own sample's), else what its User-Agent says.
struct V2ClientKind {
    /// The tracking device type (Adobe's documented `computer`, `tablet`, `mobile`, `gameconsole`,
    /// `unknown`) of the hardware type.
    var deviceType: String
    /// The OS name, else `Unknown`, as Adobe's sample answers a client it does not recognise.
    var os: String

    /// Adobe's sample answers `html5` for an Apple TV: a REST API v2 client is none of the SDKs' types.
    static let clientType = "html5"

    init(_ headers: HTTPHeaders) {
        var info = Value.dict([])
        if let value = headers.first(lowercased: "x-device-info"), value.utf8.count <= V2Limits.headerBytes,
            let json = StrictBase64.jsonObject(value.trimmingSpaces)
        {
            info = json
        }
        let agent = V2UserAgent(headers.first(lowercased: "user-agent") ?? "")
        let hardware = info["primaryHardwareType"]?.stringValue ?? agent.hardwareType
        switch hardware {
        case "Desktop": deviceType = "computer"
        case "Tablet": deviceType = "tablet"
        case "MobilePhone": deviceType = "mobile"
        case "GamesConsole": deviceType = "gameconsole"
        default: deviceType = "unknown"
        }
        os = info["osName"]?.stringValue ?? agent.os?.name ?? "Unknown"
    }
}
