import PassModel
import Testing
@testable import MockPass

/// REST API v2's configuration as Adobe's configuration page defines it, and the session answer's
/// `device` as its session-information page shows it (docs/CONFORMANCE.md, choices 88 and 89).
@Suite struct RESTv2ConfigurationTests {
    static let macChrome =
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36"

    func configuration(_ world: World = v2World(), headers: HTTPHeaders? = nil) throws -> Value {
        var c = try V2Client(world: world)
        var h = headers ?? []
        h.add("Authorization", "Bearer " + c.token)
        return try json(c.get("/configuration", headers: h))
    }

    func mvpd(_ body: Value, _ id: String) throws -> Value {
        try #require(body["requestor"]?["mvpds"]?.listValue?.first { $0["id"] == .string(id) })
    }

    @Test func aFlagIsThereOnlyWhereItApplies() throws {
        let body = try configuration()
        // An MVPD with nothing set has its id, name and logo, and none of the optional flags.
        #expect(keys(try mvpd(body, "Dish")) == ["id", "displayName"])
        // A TempPass (basic or promotional) says so; nothing else does.
        #expect(try mvpd(body, "TempPass")["isTempPass"] == .bool(true))
        #expect(try mvpd(body, "PromoPass")["isTempPass"] == .bool(true))
        // Apple SSO: the platform's four fields and the boarding status.
        #expect(
            keys(try mvpd(body, "Comcast")) == [
                "id", "displayName", "enablePlatformServices", "displayInPlatformPicker", "platformMappingId",
                "enforcePlatformPermissions", "boardingStatus",
            ])
    }

    @Test func theWorldsFlagsAreThereTrueOrFalse() throws {
        var w = v2World()
        w.restV2.mvpdConfigurations = [
            .init(mvpdID: "Dish", authPerAggregator: true, passiveAuthnEnabled: false, authPerBrowserSession: true),
            .init(mvpdID: "TempPass", authPerAggregator: false, isProxy: true),
        ]
        let body = try configuration(w)
        let dish = try mvpd(body, "Dish")
        #expect(
            keys(dish) == ["id", "displayName", "authPerAggregator", "passiveAuthnEnabled", "authPerBrowserSession"])
        #expect(dish["authPerAggregator"] == .bool(true))
        #expect(dish["passiveAuthnEnabled"] == .bool(false))
        #expect(dish["authPerBrowserSession"] == .bool(true))
        let pass = try mvpd(body, "TempPass")
        #expect(keys(pass) == ["id", "displayName", "isTempPass", "isProxy", "authPerAggregator"])
        #expect(pass["isProxy"] == .bool(true))
        #expect(pass["authPerAggregator"] == .bool(false))
    }

    @Test func theProgrammersNameAndDomains() throws {
        let plain = try configuration()
        #expect(keys(plain["requestor"]) == ["id", "name", "domains", "mvpds"])
        #expect(plain["requestor"]?["name"] == .string("V2"))
        let adobe = Value.dict([Value.Entry("name", .string("adobe.com")), Value.Entry("mvpdInitiated", .bool(false))])
        #expect(plain["requestor"]?["domains"] == .list([adobe]))

        var w = v2World()
        w.restV2.requestorConfigurations = [
            .init(
                requestorID: "V2", name: "Passim TV",
                domains: [.init(name: "passim.test"), .init(name: "partner.test", mvpdInitiated: true)])
        ]
        let set = try configuration(w)
        #expect(set["requestor"]?["id"] == .string("V2"))
        #expect(set["requestor"]?["name"] == .string("Passim TV"))
        #expect(
            set["requestor"]?["domains"]
                == .list([
                    .dict([Value.Entry("name", .string("passim.test")), Value.Entry("mvpdInitiated", .bool(false))]),
                    .dict([Value.Entry("name", .string("partner.test")), Value.Entry("mvpdInitiated", .bool(true))]),
                ]))
    }

    @Test func theClientFromItsDeviceInfoElseItsUserAgentElseUnknown() throws {
        func client(_ headers: HTTPHeaders) throws -> [Value?] {
            let body = try configuration(headers: headers)
            return [body["device"], body["clientType"], body["os"]]
        }
        #expect(try client([]) == [.string("unknown"), .string("html5"), .string("Unknown")])
        let phone = base64(#"{"primaryHardwareType":"MobilePhone","model":"iPhone","osName":"iOS"}"#)
        #expect(try client([("X-Device-Info", phone)]) == [.string("mobile"), .string("html5"), .string("iOS")])
        #expect(
            try client([("User-Agent", Self.macChrome)]) == [.string("computer"), .string("html5"), .string("macOS")])
        // Adobe's own sample: an Apple TV's user agent says nothing known; a set-top box is no tracking type.
        let appleTV = "Mozilla/5.0 (Apple TV; U; CPU AppleTV5,3 OS 11.0 like Mac OS X; en_US)"
        #expect(try client([("User-Agent", appleTV)]) == [.string("unknown"), .string("html5"), .string("Unknown")])
        #expect(
            try client([("X-Device-Info", v2DeviceInfo), ("User-Agent", appleTV)])
                == [.string("unknown"), .string("html5"), .string("tvOS")])
        // Optional here: a value that is not Base64 JSON is no X-Device-Info, not a refusal.
        #expect(
            try client([("X-Device-Info", "not base64!"), ("User-Agent", Self.macChrome)])
                == [.string("computer"), .string("html5"), .string("macOS")])
    }

    @Test func aSessionsDeviceHasEveryKeyAdobeShows() throws {
        var c = try V2Client()
        let info = base64(
            #"{"primaryHardwareType":"Desktop","model":"Mac","version":"r0q","osName":"Mac OS","osVersion":"10.15.7","connectionType":"LAN","connectionPort":55161,"connectionIp":"10.0.0.2","displayWidth":1920,"displayHeight":"1080","diagonalScreenSize":"27","applicationId":"REF30"}"#
        )
        var h = c.headers
        h.fields.removeAll { $0.name == "X-Device-Info" }
        h.add("X-Device-Info", info)
        h.add("User-Agent", Self.macChrome)
        h.add("X-Forwarded-For", "203.0.113.9, 10.1.1.1")
        let code = try #require(
            try json(c.form("/sessions", [("domainName", "adobe.com")], headers: h))["code"]?.stringValue)
        let status = try json(c.get("/sessions/\(code)"))
        #expect(status["existingParameters"]?["serviceProvider"] == .string("V2"))
        let device = try #require(status["device"])
        #expect(
            keys(device) == [
                "type", "model", "version", "hardware", "operatingSystem", "browser", "display", "applicationId",
                "connection",
            ])
        func version(_ a: Int, _ b: Int, _ c: Int, _ profile: String = "") -> Value {
            .dict([
                Value.Entry("major", .int(a)), Value.Entry("minor", .int(b)), Value.Entry("patch", .int(c)),
                Value.Entry("profile", .string(profile)),
            ])
        }
        #expect(device["type"] == .string("Desktop"))
        #expect(device["model"] == .string("Mac"))
        #expect(device["version"] == version(0, 0, 0, "r0q"))
        // The user agent fills in what X-Device-Info does not say, for the same system.
        #expect(
            device["hardware"]
                == .dict([
                    Value.Entry("name", .null), Value.Entry("vendor", .string("Apple")),
                    Value.Entry("version", version(0, 0, 0)), Value.Entry("manufacturer", .string("Apple")),
                ]))
        #expect(
            device["operatingSystem"]
                == .dict([
                    Value.Entry("name", .string("Mac OS")), Value.Entry("family", .string("macOS")),
                    Value.Entry("vendor", .string("Apple")), Value.Entry("version", version(10, 15, 7)),
                ]))
        #expect(
            device["browser"]
                == .dict([
                    Value.Entry("name", .string("Chrome")), Value.Entry("vendor", .string("Google")),
                    Value.Entry("version", version(140, 0, 0)), Value.Entry("userAgent", .string(Self.macChrome)),
                    Value.Entry("originalUserAgent", .string(Self.macChrome)),
                ]))
        #expect(
            device["display"]
                == .dict([
                    Value.Entry("width", .int(1920)), Value.Entry("height", .int(1080)), Value.Entry("ppi", .int(0)),
                    Value.Entry("name", .string("DISPLAY")), Value.Entry("vendor", .null),
                    Value.Entry("version", .null),
                    Value.Entry("diagonalSize", .string("27")),
                ]))
        #expect(device["applicationId"] == .string("REF30"))
        // X-Forwarded-For's first address is the device's; the port is text, as Adobe writes it.
        #expect(
            device["connection"]
                == .dict([
                    Value.Entry("ipAddress", .string("203.0.113.9")), Value.Entry("port", .string("55161")),
                    Value.Entry("secure", .bool(false)), Value.Entry("type", .string("LAN")),
                ]))
    }

    @Test func whatNobodySaidIsTheValueAdobeGivesForUnknown() throws {
        var c = try V2Client()
        let info = base64(
            #"{"model":"Box","version":"1.0","osName":"tvOS","osVersion":"17.4","connectionType":"WiFi","connectionSecure":true}"#
        )
        var h = c.headers
        h.fields.removeAll { $0.name == "X-Device-Info" }
        h.add("X-Device-Info", info)
        // A Mac's user agent does not describe a tvOS device: only its browser is taken.
        h.add("User-Agent", Self.macChrome)
        let code = try #require(try json(c.form("/sessions", [], headers: h))["code"]?.stringValue)
        let device = try #require(try json(c.get("/sessions/\(code)"))["device"])
        #expect(device["type"] == .string("Desktop"))
        #expect(device["hardware"]?["vendor"] == .string("Apple"))
        #expect(device["operatingSystem"]?["family"] == .string("tvOS"))
        #expect(device["operatingSystem"]?["vendor"] == .null)
        #expect(device["browser"]?["name"] == .string("Chrome"))
        #expect(device["applicationId"] == .null)
        #expect(device["connection"]?["ipAddress"] == .null)
        #expect(device["connection"]?["port"] == .null)
        #expect(device["connection"]?["secure"] == .bool(true))

        // No user agent at all: a browser nobody names.
        let bare = try #require(try json(c.form("/sessions", []))["code"]?.stringValue)
        let plain = try #require(try json(c.get("/sessions/\(bare)"))["device"])
        #expect(plain["browser"]?["name"] == .null)
        #expect(plain["browser"]?["userAgent"] == .null)
        #expect(plain["hardware"]?["vendor"] == .null)
        #expect(plain["display"]?["width"] == .int(0))
    }

    @Test func versionsAsAdobeWritesThem() {
        func v(_ text: String?) -> [Value?] {
            let value = V2Device.version(text)
            return [value["major"], value["minor"], value["patch"], value["profile"]]
        }
        #expect(v("10.2.1") == [.int(10), .int(2), .int(1), .string("")])
        #expect(v("14") == [.int(14), .int(0), .int(0), .string("")])
        #expect(v("140.0.0.0") == [.int(140), .int(0), .int(0), .string("")])
        #expect(v("8,1") == [.int(0), .int(0), .int(0), .string("8,1")])
        #expect(v("1.2.3-beta") == [.int(0), .int(0), .int(0), .string("1.2.3-beta")])
        #expect(v(nil) == [.int(0), .int(0), .int(0), .string("")])
    }

    @Test func userAgentsPassimRecognises() {
        let iPhone = V2UserAgent(
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"
        )
        #expect(iPhone.hardwareType == "MobilePhone")
        #expect(iPhone.os == V2UserAgent.OS(name: "iOS", family: "iOS", vendor: "Apple", version: "17.4"))
        #expect(iPhone.browserName == "Safari" && iPhone.browserVersion == "17.4")
        let edge = V2UserAgent(
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.2210.91"
        )
        #expect(edge.os?.name == "Windows" && edge.os?.version == "10.0")
        #expect(edge.browserName == "Edge" && edge.browserVendor == "Microsoft")
        let tablet = V2UserAgent("Mozilla/5.0 (Linux; Android 14; SM-X710) Firefox/125.0")
        #expect(tablet.hardwareType == "Tablet" && tablet.os?.family == "Android" && tablet.browserName == "Firefox")
        #expect(V2UserAgent("curl/8.5.0") == V2UserAgent(""))
    }

    /// An ASCII user agent is searched by bytes, any other by Characters: the same tokens read alike.
    @Test func aUserAgentReadsAlikeWithATextThatIsNotASCII() {
        for agent in [
            "Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) Version/17.4 Safari/604.1",
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) Firefox/125.0",
            "Mozilla/5.0 (X11; CrOS x86_64) Chrome/120.0",
            "Mozilla/5.0 (Linux; Android 14; Pixel 8) Mobile OPR/80.1",
        ] {
            #expect(V2UserAgent(agent) == V2UserAgent(agent + " é"), "\(agent)")
            #expect(V2UserAgent(agent) != V2UserAgent(""), "\(agent)")
        }
    }
}
