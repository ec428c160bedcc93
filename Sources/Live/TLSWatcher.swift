import NIOCore
import NIOSSL
import NIOTLS

/// Sits right behind the TLS handler: logs a handshake that fails (an old protocol version, a client
/// that does not trust passim's CA and says so with an alert, a refused SNI, bytes that are not TLS)
/// and closes a connection whose handshake is not done within `timeout`. Errors go on to the HTTP
/// handler, which closes the connection; the server keeps serving.
final class TLSWatcher: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let peer: String
    private let timeout: Duration
    private let log: @Sendable (String) -> Void
    private var handshakeDone = false
    private var reported = false
    private var timer: Scheduled<Void>?

    init(peer: String, timeout: Duration, log: @escaping @Sendable (String) -> Void) {
        self.peer = peer
        self.timeout = timeout
        self.log = log
    }

    func handlerAdded(context: ChannelHandlerContext) {
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(timeout)) {
            guard !self.handshakeDone else { return }
            self.report("the TLS handshake with \(self.peer) was not done within \(ServerLimits.text(self.timeout)) (limit: handshake-timeout)")
            context.close(promise: nil)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case TLSUserEvent.handshakeCompleted = event {
            handshakeDone = true
            timer?.cancel()
            timer = nil
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A client closing without close_notify after its answers is ordinary, not worth a line.
        if handshakeDone, case NIOSSLError.uncleanShutdown = error {
            context.fireErrorCaught(error)
            return
        }
        report("TLS with \(peer) failed\(handshakeDone ? "" : " during the handshake"): \(error)")
        context.fireErrorCaught(error)
    }

    private func report(_ line: String) {
        guard !reported else { return }
        reported = true
        log("tls: " + line)
    }
}
