import NIOCore

/// Sits in front of the HTTP decoder and tells the connection handler when bytes arrive: the
/// decoder only reports a head once it is complete, but the header timeout runs from its first byte
/// and the idle timeout from the last byte of any kind.
final class ByteWatcher: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let connection: HTTPConnectionHandler

    init(_ connection: HTTPConnectionHandler) { self.connection = connection }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        connection.bytesArrived()
        context.fireChannelRead(data)
    }
}
