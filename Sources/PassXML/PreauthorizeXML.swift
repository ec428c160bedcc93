/// The body of `POST preauthorize` (facts §1, §4):
/// `<resources><resource><id/><authorized>true|false</authorized>[<error>…</error>]</resource>…</resources>`.
public enum PreauthorizeXML {
    public struct Decision: Hashable, Sendable {
        public var resourceID: String
        public var authorized: Bool
        /// Why a resource is not authorized (the MVPD's text in `details`).
        public var error: ErrorBody?

        public init(resourceID: String, authorized: Bool, error: ErrorBody? = nil) {
            self.resourceID = resourceID
            self.authorized = authorized
            self.error = error
        }
    }

    public static func build(_ decisions: [Decision]) -> String {
        var w = XMLWriter()
        if decisions.isEmpty {
            w.leaf("resources")
            return w.text
        }
        w.element("resources") { w in
            for d in decisions {
                w.element("resource") { w in
                    w.leaf("id", d.resourceID)
                    w.leaf("authorized", d.authorized ? "true" : "false")
                    if let e = d.error { ErrorXML.write(e, &w) }
                }
            }
        }
        return w.text
    }

    /// Decisions in document order. Every child of `<resources>` must be a `<resource>` with a
    /// non-empty `<id>` and a boolean `<authorized>`; an `<error>` must be well-formed.
    public static func parse(_ bytes: [UInt8]) throws(PassXMLError) -> [Decision] {
        let root = try SafeXML.parse(bytes)
        try root.expectRoot("resources", namespace: nil)
        var out: [Decision] = []
        for child in root.children {
            guard child.name == "resource", child.namespace == nil else {
                throw PassXMLError("unexpected element <\(child.name)> in <resources>")
            }
            out.append(
                Decision(
                    resourceID: try child.requireText("id"),
                    authorized: try XMLValue.bool(try child.requireText("authorized"), in: "<authorized>"),
                    error: try child.child("error").map { (e: XMLElement) throws(PassXMLError) -> ErrorBody in
                        try ErrorXML.parse(element: e)
                    }))
        }
        return out
    }
}
