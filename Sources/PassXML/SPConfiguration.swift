import PassModel

/// What the SP's configuration answer says (facts §2).
public struct SPConfiguration: Hashable, Sendable {
    public var requestorID: String
    public var requestorName: String
    public var device: String?
    public var clientType: String?
    public var os: String?
    /// `spURL` is neither written nor read: the engine sets it from the SP it asked.
    public var mvpds: [MVPD]

    public init(
        requestorID: String, requestorName: String, device: String? = nil, clientType: String? = nil,
        os: String? = nil, mvpds: [MVPD] = []
    ) {
        self.requestorID = requestorID
        self.requestorName = requestorName
        self.device = device
        self.clientType = clientType
        self.os = os
        self.mvpds = mvpds
    }
}

/// The SP's configuration XML (facts §2). The root `<config>` is our choice: no public source shows it.
public enum ConfigurationXML {
    public static func build(_ c: SPConfiguration) -> String {
        var w = XMLWriter(declaration: true)
        w.element("config") { w in
            if let device = c.device { w.leaf("device", device) }
            if let clientType = c.clientType { w.leaf("clientType", clientType) }
            if let os = c.os { w.leaf("os", os) }
            w.element("requestor") { w in
                w.leaf("id", c.requestorID)
                w.leaf("name", c.requestorName)
                w.element("mvpds") { w in
                    for m in c.mvpds { write(m, &w) }
                }
            }
        }
        return w.text
    }

    private static func write(_ m: MVPD, _ w: inout XMLWriter) {
        w.element("mvpd") { w in
            w.leaf("id", m.id)
            w.leaf("displayName", m.displayName)
            if let logo = m.logoURL { w.leaf("logoUrl", logo) }
            // MVPD has no per-aggregator flag yet; written because AND-1.8 reads it (default false).
            w.leaf("authPerAggregator", "false")
            w.leaf("tempPass", String(m.tempPass))
            w.leaf("promoTempPass", String(m.promoTempPass))
            w.leaf("requiresSVC", String(m.requiresSVC))
            w.leaf("enablePlatformServices", String(m.enablePlatformServices))
            if let status = m.boardingStatus { w.leaf("boardingStatus", status.rawValue) }
        }
    }

    /// Follows AND-1.8: every child of `<mvpds>` must be an `<mvpd>` with a non-empty `<id>` and
    /// `<displayName>`, or the whole configuration is rejected. A repeated MVPD id keeps the first
    /// entry, as AND-1.8 appends only MVPDs not yet listed. Unknown elements are ignored.
    public static func parse(_ bytes: [UInt8]) throws(PassXMLError) -> SPConfiguration {
        let root = try SafeXML.parse(bytes)
        try root.expectRoot("config", namespace: nil)
        let requestor = try root.require("requestor")
        var config = SPConfiguration(
            requestorID: try requestor.requireText("id"),
            requestorName: try requestor.requireText("name"),
            device: root.optionalText("device"),
            clientType: root.optionalText("clientType"),
            os: root.optionalText("os"))
        let list = try requestor.require("mvpds")
        var seen = Set<String>()
        for (index, element) in list.children.enumerated() {
            guard element.name == "mvpd" else {
                throw PassXMLError("unexpected element <\(element.name)> in <mvpds> (only <mvpd> is allowed)")
            }
            let mvpd = try parseMVPD(element, index: index)
            if seen.insert(mvpd.id).inserted { config.mvpds.append(mvpd) }
        }
        return config
    }

    private static func parseMVPD(_ e: XMLElement, index: Int) throws(PassXMLError) -> MVPD {
        let id: String
        do throws(PassXMLError) {
            id = try e.requireText("id")
        } catch {
            throw PassXMLError("\(error.message) (MVPD #\(index + 1))")
        }
        func flag(_ name: String) throws(PassXMLError) -> Bool {
            guard let text = e.optionalText(name) else { return false }
            return try XMLValue.bool(text, in: "<\(name)> of MVPD '\(id)'")
        }
        var m = MVPD(id: id, displayName: "")
        do throws(PassXMLError) {
            m.displayName = try e.requireText("displayName")
        } catch {
            throw PassXMLError("\(error.message) (MVPD '\(id)')")
        }
        if let logo = e.optionalText("logoUrl"), !logo.isEmpty { m.logoURL = logo }
        _ = try flag("authPerAggregator")
        m.tempPass = try flag("tempPass")
        m.promoTempPass = try flag("promoTempPass")
        m.requiresSVC = try flag("requiresSVC")
        m.enablePlatformServices = try flag("enablePlatformServices")
        if let status = e.optionalText("boardingStatus"), !status.isEmpty {
            guard let parsed = BoardingStatus(rawValue: status.uppercased()) else {
                throw PassXMLError(
                    "invalid <boardingStatus> '\(status)' of MVPD '\(id)' (expected PICKER or SUPPORTED)")
            }
            m.boardingStatus = parsed
        }
        return m
    }
}
