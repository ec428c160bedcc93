import NIOHTTP1
import PassModel

/// An HTTP/1.1 response head as the bytes that go on the wire.
///
/// The server writes its heads itself instead of through NIO's `HTTPResponseEncoder`: the head of an
/// answer is encoded once and kept for the next identical one (a poll, a load test), which saves the
/// encoder's work and a pipeline hop on every request — the `/config` benchmark's CPU per request,
/// BENCHMARKS.md. Every answer has a `Content-Length` (bodies are whole), so no chunked framing is needed.
struct ResponseHead {
    /// nil when a header could break the message's framing (a CR, LF or NUL anywhere, an empty or
    /// non-token name): such a head is never written; the caller answers 500 instead. NIO's encoder
    /// made the same check.
    static func encode(status: Int, headers: PassModel.HTTPHeaders, bodyCount: Int, keepAlive: Bool) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(128 + headers.fields.count * 48)
        out += "HTTP/1.1 \(status) \(HTTPResponseStatus(statusCode: status).reasonPhrase)\r\n".utf8
        // RFC 9110 §8.6: no Content-Length on an answer that has no body by definition.
        let framed = mayHaveBody(status)
        var hasLength = !framed
        for field in headers.fields {
            let lowered = field.name.lowercased()
            if lowered == "connection" { continue }  // the server decides: `keepAlive`
            if lowered == "content-length" {
                if !framed { continue }
                hasLength = true
            }
            guard isToken(field.name), isFieldValue(field.value) else { return nil }
            out += field.name.utf8
            out += ": ".utf8
            out += field.value.utf8
            out += "\r\n".utf8
        }
        if !hasLength { out += "Content-Length: \(bodyCount)\r\n".utf8 }
        if !keepAlive { out += "Connection: close\r\n".utf8 }
        out += "\r\n".utf8
        return out
    }

    /// 1xx, 204 and 304 answers never carry a body (nor its length).
    static func mayHaveBody(_ status: Int) -> Bool {
        !(100..<200).contains(status) && status != 204 && status != 304
    }

    /// `HTTP/1.1 100 Continue`, for a client that waits for it before sending its body.
    static let continueBytes = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// RFC 9110 `token`: the characters a field name may hold.
    private static func isToken(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"):
                    return true
                default:
                    return "!#$%&'*+-.^_`|~".utf8.contains(byte)
                }
            }
    }

    /// A field value may hold anything but the bytes that end a line or a C string.
    private static func isFieldValue(_ value: String) -> Bool {
        !value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }
    }
}
