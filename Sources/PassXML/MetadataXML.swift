/// The body of `POST getMetadataDevice`: `<metadata><deviceID>…</deviceID></metadata>`.
public enum MetadataXML {
    public static func build(deviceID: String) -> String {
        var w = XMLWriter()
        w.element("metadata") { w in w.leaf("deviceID", deviceID) }
        return w.text
    }

    /// The device id, which must be present and non-empty.
    public static func parse(_ bytes: [UInt8]) throws(PassXMLError) -> String {
        let root = try SafeXML.parse(bytes)
        try root.expectRoot("metadata", namespace: nil)
        return try root.requireText("deviceID")
    }
}
