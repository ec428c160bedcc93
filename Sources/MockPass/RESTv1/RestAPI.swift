import PassModel
import PassXML

/// A REST API v1 authorization of a device for a resource (`authorize`, then `tokens/authz` and
/// `tokens/media` read it).
struct RestAuthzKey: Hashable, Sendable {
    var deviceID: String
    var requestorID: String
    var resource: String
}

struct RestAuthz: Sendable {
    var mvpdID: String
    var sessionGUID: String
    var expires: Instant
}

/// One REST answer, written as JSON or as XML under `root` (same field names, in order).
struct RestRecord: Sendable {
    var root: String
    var fields: [(String, Value)]

    func response(_ format: RestFormat, status: Int = 200) -> HTTPResponse {
        switch format {
        case .json:
            return HTTPResponse(
                status: status, contentType: Reply.json,
                text: Value.dict(fields.map { Value.Entry($0.0, $0.1) }).jsonText)
        case .xml:
            return HTTPResponse(
                status: status, contentType: Reply.xml,
                text: RestRecord.element(root, .dict(fields.map { Value.Entry($0.0, $0.1) })))
        }
    }

    /// A list becomes repeated elements named after the list's entry name (`resources` → `resource`).
    static func element(_ name: String, _ value: Value) -> String {
        switch value {
        case .dict(let entries):
            return "<\(name)>" + entries.map { element($0.key, $0.value) }.joined() + "</\(name)>"
        case .list(let items):
            let item = name.hasSuffix("s") ? String(name.dropLast()) : "item"
            return "<\(name)>" + items.map { element(item, $0) }.joined() + "</\(name)>"
        case .null: return "<\(name)/>"
        default:
            let text: String
            switch value {
            case .string(let s): text = s
            case .int(let i): text = String(i)
            case .bool(let b): text = b ? "true" : "false"
            default: text = value.jsonText
            }
            return "<\(name)>\(SafeXML.escape(text))</\(name)>"
        }
    }
}
