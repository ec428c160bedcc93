import CCurl
import PassModel

/// HTTP over libcurl for the live runtime: exactly one request per call, no automatic redirects
/// (a 3xx comes back with its exact `Location`), every response header kept in order, and the
/// connection kept between calls (the easy handle is reused).
///
/// Not thread-safe: use one transport from one thread at a time (one per thread otherwise). It is
/// deliberately not `Sendable`. The request goes out as written: curl's default `Accept`,
/// `Expect: 100-continue` and form `Content-Type` are suppressed unless the request sets them, and
/// proxies from the environment are ignored (the targets are loopback mock hosts).
public final class CurlTransport {
    private let handle: UnsafeMutableRawPointer
    private let errorBuffer: UnsafeMutablePointer<CChar>

    /// How many connections this transport has opened so far (a reused connection opens none).
    public private(set) var connectionsOpened = 0

    /// `curl_global_init` is not thread-safe and must run once: a `static let` runs it exactly once.
    private static let globalInit: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

    public init() throws(LiveError) {
        guard CurlTransport.globalInit == CURLE_OK else {
            throw LiveError("libcurl could not be initialised (curl_global_init: \(CurlTransport.globalInit.rawValue))")
        }
        guard let handle = curl_easy_init() else { throw LiveError("libcurl could not create a handle") }
        self.handle = handle
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        curl_easy_cleanup(handle)
        errorBuffer.deallocate()
    }

    /// Sends one request and waits for its answer, at most `timeout` in all (connecting included).
    /// A refused connection is `.failure("connection refused")`, no answer in time is `.timeout`.
    public func perform(_ request: HTTPRequest, timeout: Millis) -> HTTPResult {
        guard URLParts(request.url)?.isHTTP == true else {
            return .failure("unsupported URL \(request.url)")
        }
        if let bad = request.headers.fields.first(where: {
            CurlTransport.unsafe($0.name) || CurlTransport.unsafe($0.value)
        }) {
            return .failure("header \(bad.name) holds a line break")
        }
        if CurlTransport.unsafe(request.method) || request.method.isEmpty || request.method.contains(" ") {
            return .failure("invalid method \(request.method)")
        }

        // Reset drops the previous request's options but keeps the connection cache.
        curl_easy_reset(handle)
        errorBuffer[0] = 0
        let collector = Collector()
        let box = Unmanaged.passRetained(collector)
        defer { box.release() }

        var headerList: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headerList) }
        for field in request.headers.fields {
            // "Name;" is curl's way to send a header with an empty value ("Name:" would remove it).
            let line = field.value.isEmpty ? field.name + ";" : field.name + ": " + field.value
            headerList = curl_slist_append(headerList, line)
        }
        for name in ["Accept", "Expect", "Content-Type"] where request.headers[name] == nil {
            headerList = curl_slist_append(headerList, name + ":")
        }

        var status = CURLE_OK
        func set(_ option: CURLoption, _ value: Int) {
            if status == CURLE_OK { status = passim_setopt_long(handle, option, value) }
        }
        func set(_ option: CURLoption, _ value: String) {
            if status == CURLE_OK { status = passim_setopt_string(handle, option, value) }
        }
        func set(_ option: CURLoption, pointer: UnsafeMutableRawPointer?) {
            if status == CURLE_OK { status = passim_setopt_pointer(handle, option, pointer) }
        }
        set(CURLOPT_URL, request.url)
        set(CURLOPT_PROTOCOLS_STR, "http,https")
        set(CURLOPT_FOLLOWLOCATION, 0)
        set(CURLOPT_NOSIGNAL, 1)
        set(CURLOPT_PROXY, "")
        set(CURLOPT_TIMEOUT_MS, max(1, Int(timeout.value)))
        set(CURLOPT_CONNECTTIMEOUT_MS, max(1, Int(timeout.value)))
        set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
        set(CURLOPT_HTTPHEADER, pointer: headerList.map { UnsafeMutableRawPointer($0) })
        switch request.method {
        case "GET" where request.body.isEmpty:
            set(CURLOPT_HTTPGET, 1)
        case "HEAD" where request.body.isEmpty:
            set(CURLOPT_NOBODY, 1)
        default:
            // COPYPOSTFIELDS copies the bytes (NULs included, given the size first), so the Swift array
            // need not outlive this call; CUSTOMREQUEST keeps the method as the request wrote it.
            set(CURLOPT_POSTFIELDSIZE, request.body.count)
            var body = request.body
            body.withUnsafeMutableBytes {
                set(CURLOPT_COPYPOSTFIELDS, pointer: $0.baseAddress ?? UnsafeMutableRawPointer(errorBuffer))
            }
            if request.method != "POST" { set(CURLOPT_CUSTOMREQUEST, request.method) }
        }
        if status == CURLE_OK { status = passim_setopt_write_function(handle, CURLOPT_WRITEFUNCTION, curlWriteBody) }
        set(CURLOPT_WRITEDATA, pointer: box.toOpaque())
        if status == CURLE_OK { status = passim_setopt_write_function(handle, CURLOPT_HEADERFUNCTION, curlWriteHeader) }
        set(CURLOPT_HEADERDATA, pointer: box.toOpaque())
        guard status == CURLE_OK else { return .failure("libcurl refused an option: \(message(for: status))") }

        let result = curl_easy_perform(handle)
        var opened = 0
        if passim_getinfo_long(handle, CURLINFO_NUM_CONNECTS, &opened) == CURLE_OK { connectionsOpened += opened }
        switch result {
        case CURLE_OK:
            var code = 0
            _ = passim_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &code)
            return .response(HTTPResponse(status: code, headers: HTTPHeaders(collector.headers), body: collector.body))
        case CURLE_COULDNT_CONNECT:
            return .failure("connection refused")
        case CURLE_OPERATION_TIMEDOUT:
            return .timeout
        default:
            return .failure(message(for: result))
        }
    }

    private func message(for code: CURLcode) -> String {
        let detail = String(cString: errorBuffer)
        if !detail.isEmpty { return detail }
        return curl_easy_strerror(code).map { String(cString: $0) } ?? "libcurl error \(code.rawValue)"
    }

    private static func unsafe(_ s: String) -> Bool { s.contains("\r") || s.contains("\n") || s.contains("\0") }
}

/// What the callbacks collect for one transfer.
private final class Collector {
    var headers: [HTTPHeader] = []
    var body: [UInt8] = []

    /// One header line as curl hands it over. A status line starts a new header block (a `100
    /// Continue` comes before the real answer), so only the last block's fields are kept.
    func addHeaderLine(_ bytes: UnsafeRawBufferPointer) {
        // Trimmed as bytes: "\r\n" is one Character, so String's hasSuffix("\n") would not see it.
        var end = bytes.count
        while end > 0, bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D { end -= 1 }
        let line = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[..<end]), as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            headers = []
            return
        }
        guard !line.isEmpty else { return }
        if line.first == " " || line.first == "\t", !headers.isEmpty {
            // An obsolete folded continuation line belongs to the previous field.
            headers[headers.count - 1].value += " " + line.drop { $0 == " " || $0 == "\t" }
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = String(line[..<colon])
        let value = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
        var trimmed = String(value)
        while trimmed.hasSuffix(" ") || trimmed.hasSuffix("\t") { trimmed.removeLast() }
        headers.append(HTTPHeader(name, trimmed))
    }
}

private let curlWriteBody: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
    data, size, count, context in
    let total = size * count
    guard let context else { return 0 }
    let collector = Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue()
    if let data, total > 0 { collector.body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: total)) }
    return total
}

private let curlWriteHeader: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int =
    {
        data, size, count, context in
        let total = size * count
        guard let context else { return 0 }
        let collector = Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue()
        if let data, total > 0 { collector.addHeaderLine(UnsafeRawBufferPointer(start: data, count: total)) }
        return total
    }
