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
            self.report(
                "the TLS handshake with \(self.peer) was not done within \(ServerLimits.text(self.timeout)) (limit: handshake-timeout)"
            )
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
        // After the handshake, a client closing without close_notify or resetting the connection once
        // it has its answers is ordinary, not worth a line; only TLS protocol errors are.
        if handshakeDone {
            let protocolError = (error is NIOSSLError || error is BoringSSLError) && !Self.isUncleanShutdown(error)
            guard protocolError else {
                context.fireErrorCaught(error)
                return
            }
        }
        let hint =
            handshakeDone
            ? "" : " during the handshake (does the client trust passim's CA, and speak TLS 1.2 or later?)"
        report("TLS with \(peer) failed\(hint): \(error)")
        context.fireErrorCaught(error)
    }

    private static func isUncleanShutdown(_ error: any Error) -> Bool {
        if case NIOSSLError.uncleanShutdown = error { return true }
        return false
    }

    private func report(_ line: String) {
        guard !reported else { return }
        reported = true
        log("tls: " + line)
    }
}
