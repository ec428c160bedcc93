/// The SP's error answer (facts §1, §4): `<error><status/><message/><details/></error>`. AND-1.8 and
/// JS-4.1.1 hand `details` to `tokenRequestFailed`, so it carries the MVPD's own text verbatim.
public struct ErrorBody: Hashable, Sendable {
    public var status: Int
    public var message: String
    public var details: String

    public init(status: Int, message: String, details: String = "") {
        self.status = status
        self.message = message
        self.details = details
    }
}

public enum ErrorXML {
    public static func build(_ e: ErrorBody) -> String {
        var w = XMLWriter()
        write(e, &w)
        return w.text
    }

    /// `Array(build(e).utf8)`, the bytes as written: an answer's body is bytes, and making the text
    /// only to copy it back out was most of what an error answer cost beyond the writing.
    public static func buildBytes(_ e: ErrorBody) -> [UInt8] {
        var w = XMLWriter()
        write(e, &w)
        return w.bytes
    }

    /// `<status>` must be an integer; `<message>` and `<details>` must be present and may be empty.
    public static func parse(_ bytes: [UInt8]) throws(PassXMLError) -> ErrorBody {
        try parse(element: SafeXML.parse(bytes))
    }

    static func write(_ e: ErrorBody, _ w: inout XMLWriter) {
        w.element("error") { w in
            w.leaf("status", String(e.status))
            w.leaf("message", e.message)
            w.leaf("details", e.details)
        }
    }

    static func parse(element e: XMLElement) throws(PassXMLError) -> ErrorBody {
        try e.expectRoot("error", namespace: nil)
        let statusText = try e.requireText("status")
        guard let status = Int(statusText) else {
            throw PassXMLError("invalid status '\(statusText)' in <error> (expected an integer)")
        }
        return ErrorBody(
            status: status, message: try e.require("message").trimmedText,
            details: try e.require("details").trimmedText)
    }
}
