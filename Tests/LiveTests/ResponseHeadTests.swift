@testable import Live
import PassModel
import Testing

/// The server writes response heads itself (`ResponseHead`): the framing rules NIO's encoder used to
/// apply must hold, and a header that would split the message must never reach the wire.
struct ResponseHeadTests {
    private func text(_ bytes: [UInt8]?) -> String? { bytes.map { String(decoding: $0, as: UTF8.self) } }

    @Test func aHeadCarriesItsLengthOnceAndTheServersConnectionChoice() {
        let headers: HTTPHeaders = [("Content-Type", "application/xml"), ("Connection", "keep-alive")]
        #expect(
            text(ResponseHead.encode(status: 200, headers: headers, bodyCount: 12, keepAlive: true))
                == "HTTP/1.1 200 OK\r\nContent-Type: application/xml\r\nContent-Length: 12\r\n\r\n")
        let sized: HTTPHeaders = [("Content-Length", "3")]
        #expect(
            text(ResponseHead.encode(status: 404, headers: sized, bodyCount: 3, keepAlive: false))
                == "HTTP/1.1 404 Not Found\r\nContent-Length: 3\r\nConnection: close\r\n\r\n")
    }

    @Test func answersWithoutABodyHaveNoLength() {
        let headers: HTTPHeaders = [("Content-Length", "0")]
        #expect(
            text(ResponseHead.encode(status: 204, headers: headers, bodyCount: 0, keepAlive: true))
                == "HTTP/1.1 204 No Content\r\n\r\n")
        #expect(
            text(ResponseHead.encode(status: 304, headers: [], bodyCount: 0, keepAlive: true))
                == "HTTP/1.1 304 Not Modified\r\n\r\n")
        #expect(!ResponseHead.mayHaveBody(100) && ResponseHead.mayHaveBody(200) && ResponseHead.mayHaveBody(302))
    }

    @Test(arguments: [
        ("Location", "https://a.test/\r\nSet-Cookie: x=1"), ("Location", "a\nb"), ("X", "nul\u{0}"),
        ("Bad Name", "v"), ("", "v"), ("Split\r\nName", "v"),
    ])
    func aHeaderThatWouldSplitTheMessageIsRefused(_ field: (String, String)) {
        #expect(ResponseHead.encode(status: 302, headers: [field], bodyCount: 0, keepAlive: true) == nil)
    }
}
