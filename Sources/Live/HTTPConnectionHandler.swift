import NIOCore
import NIOHTTP1
import PassModel

/// Answers one request: a response (possibly later), or nil for never (a silent host).
typealias Responder = @Sendable (HTTPRequest, any EventLoop) -> EventLoopFuture<HTTPResponse?>

/// The last handler of every server connection (mock hosts and admin alike). It turns NIO's request
/// parts into a `PassModel.HTTPRequest`, enforces `ServerLimits`, turns decoder errors into 400/431,
/// and answers requests strictly in arrival order, one at a time, so a delayed (latency) or silent
/// answer holds back the pipelined requests behind it as a real server would.
///
/// Pipelining has backpressure rather than a hard cap: while `queuedRequests` answers are owed, the
/// `read` event is held back, so the socket is not read again until answers drain the queue. HEAD is
/// run as a GET and answered without the body (same head, same Content-Length).
///
/// Timeouts: a request head not complete `headerTimeout` after its first byte is answered 408, and so
/// is a body not complete `bodyTimeout` after its head, or arriving slower than `bodyRate` once
/// `bodyRateGrace` has passed; a connection owed nothing that sends nothing for `idleTimeout` is
/// closed. The first byte of a head is seen by `ByteWatcher`, in front of the decoder. A connection
/// `OpenConnections` evicts while its request arrives is answered 408 too.
///
/// NIO's `HTTPServerPipelineHandler` is not used: it asserts (in debug builds) when a response is
/// written for an error it did not classify, and these refusals must never take the process down.
final class HTTPConnectionHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    // Answers go out as bytes: heads are encoded here (`ResponseHead`), not by NIO's encoder.
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private enum Work {
        case request(HTTPRequest, keepAlive: Bool, isHead: Bool)
        /// Answered in turn, then the connection closes.
        case refusal(HTTPResponse)
    }

    private struct Incoming {
        var head: HTTPRequestHead
        var body: [UInt8] = []
    }

    /// nil on a forward proxy's connection: each request names its own target (absolute form).
    private let origin: String?
    private let limits: ServerLimits
    private let respond: Responder
    /// Tells `OpenConnections` what this connection is doing (`OpenConnections.Activity`).
    private let report: (OpenConnections.Activity) -> Void
    private var reported = OpenConnections.Activity.idle
    /// When the first byte of the request now arriving came, until its end does.
    private var requestStarted: NIODeadline?
    /// When the connection was set up: until its first request has arrived whole, it waits on its
    /// client from then (`activity`).
    private let accepted = NIODeadline.now()
    /// Whether a whole request has arrived on this connection: only then is it idle between requests.
    private var served = false
    /// Since when the channel has not been writable: the client is not reading its answers.
    private var unwritableSince: NIODeadline?

    private var incoming: Incoming?
    /// After a refusal nothing more is read from this connection.
    private var refused = false
    private var queue = CircularBuffer<Work>()
    private var answering = false
    private var active = true
    /// A `read` held back while the queue is full, passed on when it drains.
    private var readHeld = false
    private var lastByte = NIODeadline.now()
    /// When the first byte of a head not yet decoded arrived.
    private var headStarted: NIODeadline?
    /// When the head of the request being read arrived, until its end does.
    private var bodyStarted: NIODeadline?
    private var timer: Scheduled<Void>?
    /// When `timer` fires.
    private var timerDeadline: NIODeadline?
    /// The last body sent and its buffer. The mock hands out the same body storage again for a
    /// cached answer (`/config`), so under load the copy into a new buffer is made once, not per request.
    private var lastBody: (bytes: [UInt8], buffer: ByteBuffer)?
    private var lastHead: LastHead?

    private struct LastHead {
        var status: Int
        var headers: PassModel.HTTPHeaders
        var bodyCount: Int
        var keepAlive: Bool
        var bytes: ByteBuffer
    }

    /// `origin` is `http://HOST:PORT`: every request URL is built on it, so each port serves one host
    /// whatever `Host` header the client sends (nil: a proxy's connection, see `origin`).
    init(
        origin: String?, limits: ServerLimits, respond: @escaping Responder,
        report: @escaping (OpenConnections.Activity) -> Void = { _ in }
    ) {
        self.report = report
        self.origin = origin
        self.limits = limits
        self.respond = respond
    }

    func handlerAdded(context: ChannelHandlerContext) {
        lastByte = .now()
        scheduleCheck(context: context)
    }

    /// Called by `ByteWatcher` for every read from the socket, before the decoder sees the bytes.
    func bytesArrived() {
        lastByte = .now()
        if incoming == nil, headStarted == nil {
            headStarted = lastByte
            if requestStarted == nil { requestStarted = lastByte }
        }
    }

    private var activity: OpenConnections.Activity {
        if answering || !queue.isEmpty {
            return unwritableSince.map { .awaitingClient(since: $0) } ?? .serving
        }
        if let requestStarted { return .awaitingClient(since: requestStarted) }
        // A new connection whose request has not come yet is not idle: at a cap full of slow bodies
        // a stream of new connections, each taking the place of the one before as the oldest idle,
        // left a new client no time to send its request while the slow ones kept their places.
        return served ? .idle : .awaitingClient(since: accepted)
    }

    /// Reported on a change only, and for what was read at the end of each read (not per byte
    /// batch inside it), so a request that arrives whole and is answered at once takes the
    /// connections' lock at most twice.
    private func updateActivity() {
        let now = activity
        if now != reported {
            reported = now
            report(now)
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        updateActivity()
        // A body still arriving after this read: its rate is looked at when its grace ends, not at
        // the next periodic check (up to `headerTimeout` away). Only such a request pays for it.
        if let bodyStarted, limits.bodyRate > 0, let deadline = timerDeadline,
            deadline > bodyStarted + TimeAmount(limits.bodyRateGrace)
        {
            timer?.cancel()
            scheduleCheck(context: context)
        }
        context.fireChannelReadComplete()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        unwritableSince = context.channel.isWritable ? nil : .now()
        updateActivity()
        context.fireChannelWritabilityChanged()
    }

    /// `OpenConnections` gave this connection's place to another while it waited on its client.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is OpenConnections.Evicted else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        guard !refused, active else { return }
        if requestStarted != nil, !answering, queue.isEmpty {
            refuse(
                408,
                "request not complete when the server, at its connection cap, needed its place for another (limit: connections)",
                context: context)
        } else {
            refused = true
            active = false
            context.close(promise: nil)
        }
    }

    func read(context: ChannelHandlerContext) {
        if !refused, queue.count >= limits.queuedRequests {
            readHeld = true
            return
        }
        context.read()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            headStarted = nil
            let headSize =
                head.uri.utf8.count + head.method.rawValue.utf8.count + 12
                + head.headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
            if headSize > limits.headBytes {
                refuse(431, "request head over \(limits.headBytes) bytes (limit: head-bytes)", context: context)
                return
            }
            if let length = head.headers.first(name: "content-length").flatMap({ Int($0) }), length > limits.bodyBytes {
                refuse(413, "request body over \(limits.bodyBytes) bytes (limit: body-bytes)", context: context)
                return
            }
            // Answer `Expect: 100-continue` only when nothing is owed before it, to keep answers in order.
            if head.headers.first(name: "expect")?.lowercased() == "100-continue", queue.isEmpty, !answering {
                context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: ResponseHead.continueBytes)), promise: nil)
            }
            incoming = Incoming(head: head)
            bodyStarted = .now()
        case .body(var buffer):
            guard var current = incoming else { return }
            if current.body.count + buffer.readableBytes > limits.bodyBytes {
                refuse(413, "request body over \(limits.bodyBytes) bytes (limit: body-bytes)", context: context)
                return
            }
            incoming = nil  // keeps `current.body` uniquely referenced while it grows
            current.body += buffer.readBytes(length: buffer.readableBytes) ?? []
            incoming = current
        case .end:
            guard let current = incoming else { return }
            incoming = nil
            bodyStarted = nil
            requestStarted = nil
            served = true
            let isHead = current.head.method == .HEAD
            let request = HTTPRequest(
                method: isHead ? "GET" : current.head.method.rawValue, url: requestURL(current.head.uri),
                headers: PassModel.HTTPHeaders(current.head.headers.map { HTTPHeader($0.name, $0.value) }),
                body: current.body)
            enqueue(.request(request, keepAlive: current.head.isKeepAlive, isHead: isHead), context: context)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if refused {
            return
        }
        switch error {
        case HTTPParserError.headerOverflow, is ByteToMessageDecoderError.PayloadTooLargeError:
            refuse(431, "request head over \(limits.headBytes) bytes (limit: head-bytes)", context: context)
        case is HTTPParserError:
            refuse(400, "malformed HTTP request", context: context)
        default:
            // I/O errors (a reset connection): nobody is left to answer.
            refused = true
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        active = false
        queue.removeAll()
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        active = false
        timer?.cancel()
        timer = nil
    }

    // MARK: - Timeouts

    /// One timer per connection, firing at least every `headerTimeout` (or `bodyTimeout`, if shorter):
    /// a head or body that starts between two checks is caught at the next one, which then waits for
    /// its own deadline. So a busy
    /// connection costs no timer work per request, and a 408 comes on time.
    private func scheduleCheck(context: ChannelHandlerContext) {
        guard active else { return }
        let now = NIODeadline.now()
        var next = now + TimeAmount(min(limits.headerTimeout, limits.bodyTimeout))
        if !answering, queue.isEmpty { next = min(next, lastByte + TimeAmount(limits.idleTimeout)) }
        if let headStarted { next = headStarted + TimeAmount(limits.headerTimeout) }
        if let bodyStarted {
            next = min(next, bodyStarted + TimeAmount(limits.bodyTimeout))
            // The rate is looked at from the end of the grace, then twice a second until the body ends.
            if limits.bodyRate > 0 {
                let graceEnds = bodyStarted + TimeAmount(limits.bodyRateGrace)
                next = min(next, now < graceEnds ? graceEnds : now + ServerLimits.bodyRateEvery)
            }
        }
        let deadline = max(next, now + .milliseconds(1))
        timerDeadline = deadline
        timer = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) {
            self.check(context: context)
        }
    }

    private func check(context: ChannelHandlerContext) {
        timer = nil
        timerDeadline = nil
        guard active, !refused else { return }
        let now = NIODeadline.now()
        if let started = headStarted, now - started >= TimeAmount(limits.headerTimeout) {
            headStarted = nil
            refuse(
                408,
                "request head not complete within \(ServerLimits.text(limits.headerTimeout)) (limit: header-timeout)",
                context: context)
            return
        }
        if let started = bodyStarted, now - started >= TimeAmount(limits.bodyTimeout) {
            bodyStarted = nil
            refuse(
                408, "request body not complete within \(ServerLimits.text(limits.bodyTimeout)) (limit: body-timeout)",
                context: context)
            return
        }
        if let started = bodyStarted, limits.bodyRate > 0,
            ServerLimits.bodyTooSlow(
                received: incoming?.body.count ?? 0, elapsed: now - started, rate: limits.bodyRate,
                grace: limits.bodyRateGrace)
        {
            bodyStarted = nil
            refuse(
                408,
                "request body slower than \(limits.bodyRate) bytes/s after \(ServerLimits.text(limits.bodyRateGrace)) (limit: body-rate)",
                context: context)
            return
        }
        if !answering, queue.isEmpty, now - lastByte >= TimeAmount(limits.idleTimeout) {
            active = false
            context.close(promise: nil)
            return
        }
        scheduleCheck(context: context)
    }

    // MARK: - Answering in order

    private func refuse(_ status: Int, _ message: String, context: ChannelHandlerContext) {
        refused = true
        incoming = nil
        bodyStarted = nil
        requestStarted = nil
        let reason = HTTPResponseStatus(statusCode: status).reasonPhrase
        let response = HTTPResponse(
            status: status, contentType: "text/plain; charset=utf-8",
            text: "\(status) \(reason): \(message)\n")
        enqueue(.refusal(response), context: context)
    }

    private func enqueue(_ work: Work, context: ChannelHandlerContext) {
        if queue.isEmpty, !answering, active {
            // Nothing owed before it (the usual case): answered at once, without a trip through the queue.
            answer(work, context: context)
            return
        }
        queue.append(work)
        answerNext(context: context)
    }

    private func answerNext(context: ChannelHandlerContext) {
        guard active, !answering, !queue.isEmpty else { return }
        answer(queue.removeFirst(), context: context)
        if readHeld, queue.count < limits.queuedRequests {
            readHeld = false
            context.read()
        }
    }

    private func answer(_ work: Work, context: ChannelHandlerContext) {
        answering = true
        switch work {
        case .refusal(let response):
            write(response, keepAlive: false, isHead: false, lingering: true, context: context)
        case .request(let request, let keepAlive, let isHead):
            respond(request, context.eventLoop).hop(to: context.eventLoop).assumeIsolated().whenComplete { result in
                switch result {
                case .success(.some(var response)):
                    // A responder that ends the connection (the proxy after a refusal, docs/WIRE.md) says
                    // so with `Connection: close`; the head writer adds the header itself.
                    var keep = keepAlive
                    if response.headers.fields.contains(where: {
                        $0.name.lowercased() == "connection" && $0.value.lowercased() == "close"
                    }) {
                        response.headers.fields.removeAll { $0.name.lowercased() == "connection" }
                        keep = false
                    }
                    self.write(response, keepAlive: keep, isHead: isHead, context: context)
                case .success(.none):
                    // Silent: stay "answering" for ever, so nothing behind it is answered either.
                    break
                case .failure(let error):
                    let response = HTTPResponse(
                        status: 500, contentType: "text/plain; charset=utf-8",
                        text: "500 Internal Server Error: \(error)\n")
                    self.write(response, keepAlive: false, isHead: isHead, context: context)
                }
            }
        }
    }

    /// `lingering`: after a refusal the client may still be sending (a body too large, the rest of a
    /// huge head). Closing at once would make the kernel answer its bytes with a reset, which can
    /// destroy our answer before the client reads it; so only our side is shut, what still comes is
    /// read and dropped, and the connection closes when the client closes it (or after `lingerTimeout`).
    private func write(
        _ response: HTTPResponse, keepAlive: Bool, isHead: Bool, lingering: Bool = false,
        context: ChannelHandlerContext
    ) {
        guard active else { return }
        guard let head = responseHead(response, keepAlive: keepAlive, context: context) else {
            // A header that would break the framing (the mock put a CR or LF in a value): never sent.
            let refusal = HTTPResponse(
                status: 500, contentType: "text/plain; charset=utf-8",
                text: "500 Internal Server Error: a response header holds a line break\n")
            write(refusal, keepAlive: false, isHead: isHead, lingering: lingering, context: context)
            return
        }
        // The promise goes with the last part that puts bytes on the wire.
        let written = context.eventLoop.makePromise(of: Void.self)
        if !isHead, !response.body.isEmpty, ResponseHead.mayHaveBody(response.status) {
            context.write(wrapOutboundOut(head), promise: nil)
            context.writeAndFlush(wrapOutboundOut(bodyBuffer(response.body, context: context)), promise: written)
        } else {
            context.writeAndFlush(wrapOutboundOut(head), promise: written)
        }
        written.futureResult.assumeIsolated().whenComplete { _ in
            self.answering = false
            if lingering {
                self.active = false
                context.close(mode: .output, promise: nil)
                context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(self.limits.lingerTimeout)) {
                    context.close(promise: nil)
                }
            } else if !keepAlive {
                self.active = false
                context.close(promise: nil)
            } else {
                self.answerNext(context: context)
                self.updateActivity()
            }
        }
    }

    /// The head depends only on the status, the headers, the body's length and `keepAlive`; the last
    /// one is kept, since a client repeating a request (a load test, a poll) gets the same head again.
    private func responseHead(_ response: HTTPResponse, keepAlive: Bool, context: ChannelHandlerContext) -> ByteBuffer?
    {
        if let last = lastHead, last.status == response.status, last.bodyCount == response.body.count,
            last.keepAlive == keepAlive, last.headers == response.headers
        {
            return last.bytes
        }
        guard
            let encoded = ResponseHead.encode(
                status: response.status, headers: response.headers,
                bodyCount: response.body.count, keepAlive: keepAlive)
        else { return nil }
        let bytes = context.channel.allocator.buffer(bytes: encoded)
        lastHead = LastHead(
            status: response.status, headers: response.headers, bodyCount: response.body.count,
            keepAlive: keepAlive, bytes: bytes)
        return bytes
    }

    private func bodyBuffer(_ body: [UInt8], context: ChannelHandlerContext) -> ByteBuffer {
        if let last = lastBody, last.bytes.count == body.count,
            last.bytes.withUnsafeBufferPointer({ $0.baseAddress }) == body.withUnsafeBufferPointer({ $0.baseAddress })
        {
            // The same storage (held here, so it cannot have been freed and reused): the same bytes.
            return last.buffer
        }
        let buffer = context.channel.allocator.buffer(bytes: body)
        lastBody = (body, buffer)
        return buffer
    }

    /// The absolute URL of a request: origin-form (`/path?q`) as is, absolute-form reduced to its path
    /// and query, anything else left for the mock to refuse (404).
    private func requestURL(_ uri: String) -> String {
        // A proxy keeps the target whole; a relative one stays relative for the proxy to refuse (400).
        guard let origin else { return uri }
        if uri.hasPrefix("/") { return origin + uri }
        if let parts = URLParts(uri), parts.isHTTP {
            return origin + (parts.path.isEmpty ? "/" : parts.path) + (parts.rawQuery.map { "?" + $0 } ?? "")
        }
        return origin + "/" + uri
    }
}
