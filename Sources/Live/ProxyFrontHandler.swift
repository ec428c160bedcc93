import NIOCore
import NIOHTTP1
import PassModel

/// The first handler of a proxy connection: reads the first request head and decides what the
/// connection is. `CONNECT host:port` to a host of the world: `200 Connection Established`, then TLS
/// as that host and HTTP inside. Any other request: the connection is a plain proxy connection whose
/// requests name their targets in absolute form. Then it steps aside, handing on what it read.
///
/// A refusal (an unknown host, a malformed or oversized head, a head that never ends) is a short
/// text answer, logged, and the connection closes; the server keeps serving.
final class ProxyFrontHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private enum Phase {
        /// Reading the first head: what came so far.
        case reading(ByteBuffer?)
        /// Decided (or refused): nothing more is read here.
        case done
    }

    private let core: ServerCore
    private var phase = Phase.reading(nil)
    private var timer: Scheduled<Void>?
    private var peer = "a client"
    /// How much of the head `headEnd` has already searched.
    private var scanned = 0

    init(core: ServerCore) { self.core = core }

    func handlerAdded(context: ChannelHandlerContext) {
        if let address = context.channel.remoteAddress { peer = "\(address.ipAddress ?? "?"):\(address.port ?? 0)" }
        // Nothing sent: the idle timeout; a head begun: the header timeout, as on every other port.
        arm(context: context, after: core.limits.idleTimeout, reason: nil)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    private func arm(context: ChannelHandlerContext, after duration: Duration, reason: String?) {
        timer?.cancel()
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(duration)) {
            guard case .reading = self.phase else { return }
            if let reason {
                self.refuse(408, reason, context: context)
            } else {
                self.phase = .done
                context.close(promise: nil)
            }
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .reading(var buffered) = phase else { return }
        var incoming = unwrapInboundIn(data)
        if buffered == nil {
            arm(
                context: context, after: core.limits.headerTimeout,
                reason:
                    "request head not complete within \(ServerLimits.text(core.limits.headerTimeout)) (limit: header-timeout)"
            )
            buffered = incoming
        } else {
            buffered?.writeBuffer(&incoming)
        }
        guard var bytes = buffered else { return }
        phase = .reading(bytes)
        let view = bytes.readableBytesView
        guard let end = headEnd(view) else {
            if view.count > core.limits.headBytes {
                refuse(431, "request head over \(core.limits.headBytes) bytes (limit: head-bytes)", context: context)
            }
            return
        }
        guard end <= core.limits.headBytes else {
            refuse(431, "request head over \(core.limits.headBytes) bytes (limit: head-bytes)", context: context)
            return
        }
        timer?.cancel()
        timer = nil
        phase = .done
        let firstLine = String(
            decoding: view.prefix { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        let words = firstLine.split(separator: " ", omittingEmptySubsequences: false)
        guard words.count == 3, words[0] == "CONNECT" else {
            becomePlainProxy(bytes, context: context)
            return
        }
        bytes.moveReaderIndex(forwardBy: end)
        connect(target: String(words[1]), rest: bytes, context: context)
    }

    /// The offset just past `\r\n\r\n` (or a bare `\n\n`, which HTTP parsers also take), or nil.
    /// The search resumes where the last one stopped, so a head trickled a byte at a time costs
    /// linear time, not quadratic.
    private func headEnd(_ view: ByteBufferView) -> Int? {
        var i = max(scanned, 0)
        let count = view.count
        let start = view.startIndex
        while i < count {
            if view[start + i] == 10 {
                if i >= 1, view[start + i - 1] == 10 { return i + 1 }
                if i >= 3, view[start + i - 1] == 13, view[start + i - 2] == 10, view[start + i - 3] == 13 {
                    return i + 1
                }
            }
            i += 1
        }
        scanned = count
        return nil
    }

    private func becomePlainProxy(_ bytes: ByteBuffer, context: ChannelHandlerContext) {
        let core = self.core
        let peer = self.peer
        let address = context.channel.remoteAddress
        do {
            try core.addHTTPHandlers(to: context.channel, origin: nil) { request, loop in
                core.proxyAnswer(request, peer: peer, address: address, on: loop)
            }
        } catch {
            context.close(promise: nil)
            return
        }
        context.fireChannelRead(wrapInboundOut(bytes))
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    private func connect(target: String, rest: ByteBuffer, context: ChannelHandlerContext) {
        let shownTarget = ServerCore.shown(target)
        // Authority form only: `host:port`, the port a number (RFC 9110 §9.3.6).
        guard let colon = target.lastIndex(of: ":"), let port = Int(target[target.index(after: colon)...]),
            (1...65535).contains(port), let name = ServerCore.hostName(of: String(target[..<colon]))
        else {
            refuse(400, "CONNECT takes host:port, got \(shownTarget)", context: context)
            return
        }
        guard let route = core.proxyRoute(forHostName: name) else {
            core.log("proxy: \(peer) sent CONNECT \(shownTarget): refused (502, not a host of the world)")
            send(core.unknownHostResponse("CONNECT \(shownTarget)"), context: context)
            return
        }
        let core = self.core
        let peer = self.peer
        let address = context.channel.remoteAddress
        do {
            let tls = try core.tlsContext(for: [name], requireSNI: true)
            // The 200 goes out in the clear, from in front of the TLS handler; all after it is the tunnel.
            context.writeAndFlush(
                wrapOutboundOut(ByteBuffer(string: "HTTP/1.1 200 Connection Established\r\n\r\n")), promise: nil)
            try core.addTLS(to: context.channel, context: tls, peer: "\(peer) in a tunnel to \(name)")
            try core.addHTTPHandlers(to: context.channel, origin: route.origin) { request, loop in
                core.proxyAnswer(request, peer: peer, address: address, on: loop)
            }
        } catch {
            core.log("proxy: \(peer) CONNECT \(name): the tunnel could not be set up: \(error)")
            context.close(promise: nil)
            return
        }
        if rest.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(rest)) }
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    private func refuse(_ status: Int, _ message: String, context: ChannelHandlerContext) {
        core.log("proxy: \(peer): refused (\(status), \(message))")
        let reason = HTTPResponseStatus(statusCode: status).reasonPhrase
        send(
            HTTPResponse(status: status, contentType: ServerCore.text, text: "\(status) \(reason): \(message)\n"),
            context: context)
    }

    /// Writes a whole answer by hand (no HTTP encoder is in the pipeline yet), then closes.
    private func send(_ response: HTTPResponse, context: ChannelHandlerContext) {
        phase = .done
        timer?.cancel()
        timer = nil
        var head = "HTTP/1.1 \(response.status) \(HTTPResponseStatus(statusCode: response.status).reasonPhrase)\r\n"
        for field in response.headers.fields { head += "\(field.name): \(field.value)\r\n" }
        head += "Content-Length: \(response.body.count)\r\nConnection: close\r\n\r\n"
        var buffer = context.channel.allocator.buffer(capacity: head.utf8.count + response.body.count)
        buffer.writeString(head)
        buffer.writeBytes(response.body)
        context.writeAndFlush(wrapOutboundOut(buffer)).assumeIsolated().whenComplete { _ in
            context.close(mode: .output, promise: nil)
            context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(self.core.limits.lingerTimeout)) {
                context.close(promise: nil)
            }
        }
    }
}
