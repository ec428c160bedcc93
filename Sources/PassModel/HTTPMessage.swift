/// An HTTP header field. Names compare case-insensitively through `HTTPHeaders`.
public struct HTTPHeader: Hashable, Sendable {
    public var name: String
    public var value: String
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// An ordered header list (order is kept so that what goes on the wire is reproducible).
public struct HTTPHeaders: Hashable, Sendable, ExpressibleByArrayLiteral {
    public var fields: [HTTPHeader]
    public init(_ fields: [HTTPHeader] = []) { self.fields = fields }
    public init(arrayLiteral elements: (String, String)...) { fields = elements.map { HTTPHeader($0.0, $0.1) } }

    public subscript(name: String) -> String? {
        let ascii = HTTPHeaders.isASCII(name)
        return fields.first { HTTPHeaders.sameName($0.name, name, nameIsASCII: ascii) }?.value
    }

    public func all(_ name: String) -> [String] {
        let ascii = HTTPHeaders.isASCII(name)
        return fields.filter { HTTPHeaders.sameName($0.name, name, nameIsASCII: ascii) }.map(\.value)
    }

    /// `a.lowercased() == b.lowercased()`, without lowercasing (two new strings per field looked at,
    /// on every lookup of every request) when the bytes decide it: names whose bytes are equal but
    /// for ASCII case lowercase to the same text, and two ASCII names that are not lowercase to
    /// different ones (lowercasing ASCII only changes ASCII case). A non-ASCII name that is not
    /// byte-equal is still compared through `lowercased()`: a KELVIN SIGN lowercases to an ASCII "k".
    /// `nameIsASCII` is `isASCII(b)`, worked out once per lookup rather than once per field.
    static func sameName(_ a: String, _ b: String, nameIsASCII: Bool) -> Bool {
        let x = a.utf8, y = b.utf8
        func folded(_ c: UInt8) -> UInt8 { c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z") ? c | 0x20 : c }
        if x.count == y.count, x.elementsEqual(y, by: { folded($0) == folded($1) }) { return true }
        if nameIsASCII, isASCII(a) { return false }
        return a.lowercased() == b.lowercased()
    }

    static func sameName(_ a: String, _ b: String) -> Bool { sameName(a, b, nameIsASCII: isASCII(b)) }

    static func isASCII(_ s: String) -> Bool { s.utf8.allSatisfy { $0 < 0x80 } }

    public mutating func add(_ name: String, _ value: String) { fields.append(HTTPHeader(name, value)) }
}

/// A request as the engine, the browser or a live client sends it. The body is bytes: what arrives
/// from the wire need not be UTF-8.
public struct HTTPRequest: Hashable, Sendable {
    public var method: String
    public var url: String
    public var headers: HTTPHeaders
    public var body: [UInt8]

    public init(method: String, url: String, headers: HTTPHeaders = [], body: [UInt8] = []) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// A form POST (`application/x-www-form-urlencoded`).
    public static func form(_ url: String, _ fields: [(String, String)], headers: HTTPHeaders = []) -> HTTPRequest {
        var h = headers
        h.add("Content-Type", "application/x-www-form-urlencoded")
        return HTTPRequest(method: "POST", url: url, headers: h, body: FormCoding.encodedBytes(fields))
    }

    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// Query parameters, then form fields of a urlencoded body, in order.
    public var parameters: [(String, String)] {
        var out = URLParts(url)?.query ?? []
        let type = headers["Content-Type"]?.lowercased() ?? ""
        if type.hasPrefix("application/x-www-form-urlencoded") {
            out += FormCoding.decode(bytes: body)
        }
        return out
    }

    public func parameter(_ name: String) -> String? { parameters.first { $0.0 == name }?.1 }

    /// The request as a front server hands it on, `X-Forwarded-For` naming the client's address
    /// unless the request names one already (Adobe's edge does this, and its throttle reads it:
    /// rest-api-v2.md 1.10).
    public func forwarded(for address: String) -> HTTPRequest {
        guard headers["X-Forwarded-For"] == nil else { return self }
        var request = self
        request.headers.add("X-Forwarded-For", address)
        return request
    }
}

/// A response. `status` 0 never appears: transport failures are `HTTPResult.failure`.
public struct HTTPResponse: Hashable, Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// What `body` decodes to, when whoever wrote the body knows it: the in-process mock, in the
    /// fuzzer's typed runs, hands the value it rendered so that the engine and the simulated browser
    /// need not parse again bytes the same process just wrote (`decoded(orParse:)`). No wire carries
    /// it, and it is no part of the message: equality and hashing ignore it.
    public var decoded: (any Sendable)? {
        get { decodedBox?.value }
        set { decodedBox = newValue.map(DecodedBody.init) }
    }
    /// Held by reference: one pointer, so a response copies (and lays out) as cheaply as before. A
    /// stored existential here crashed the debug test build in CurlTransport (signal 11, not understood).
    private var decodedBox: DecodedBody?

    public init(status: Int, headers: HTTPHeaders = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public init(status: Int, contentType: String, text: String, headers: HTTPHeaders = []) {
        var h = headers
        h.add("Content-Type", contentType)
        self.init(status: status, headers: h, body: Array(text.utf8))
    }

    public static func redirect(_ location: String, headers: HTTPHeaders = []) -> HTTPResponse {
        var h = headers
        h.add("Location", location)
        return HTTPResponse(status: 302, headers: h)
    }

    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// `decoded` when it is a `T`, else `parse(body)`; nil when the body does not parse.
    public func decoded<T>(orParse parse: ([UInt8]) throws -> T) -> T? {
        if let value = decoded as? T { return value }
        return try? parse(body)
    }

    public static func == (a: HTTPResponse, b: HTTPResponse) -> Bool {
        a.status == b.status && a.headers == b.headers && a.body == b.body
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(status)
        hasher.combine(headers)
        hasher.combine(body)
    }
}

/// The box of `HTTPResponse.decoded`: immutable, so sharing it between copies is safe.
private final class DecodedBody: Sendable {
    let value: any Sendable
    init(_ value: any Sendable) { self.value = value }
}

/// What a client learns about a request it sent.
public enum HTTPResult: Hashable, Sendable {
    case response(HTTPResponse)
    /// The connection was refused or broke; the text says why.
    case failure(String)
    /// No answer within the client's timeout.
    case timeout

    /// The response's status; nil when no response came.
    public var status: Int? {
        if case .response(let r) = self { return r.status }
        return nil
    }
}
