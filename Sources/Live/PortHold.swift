#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import NIOCore

/// A host's port while the host is `down`: a socket bound to it that does not listen. A connection
/// to it is refused (the kernel answers the SYN with a reset, the client sees ECONNREFUSED), as when
/// nothing is there, yet no other process can take the port: closing the listener outright let
/// another server on the machine (a parallel test run binds ephemeral ports all the time) be handed
/// the port, and a client of the `down` host then got that server's 404 instead of a refusal.
/// `startListening` hands the same socket to NIO when the host comes up, so the port is never free.
/// A hold is used once: either it starts listening or it is released.
struct PortHold: Sendable {
    private let descriptor: CInt

    /// Binds a socket to `address` with `SO_REUSEADDR` (the connections the listener just closed may
    /// be in TIME_WAIT on that port). Port-0 binds of other processes do not pick a port held this
    /// way: the kernel counts a bound socket as a conflict when it chooses a free port.
    init(address: SocketAddress) throws {
        #if canImport(Glibc)
            let type = CInt(SOCK_STREAM.rawValue) | CInt(SOCK_CLOEXEC.rawValue)
        #else
            let type = SOCK_STREAM
        #endif
        let fd = socket(CInt(address.protocol.rawValue), type, 0)
        guard fd >= 0 else { throw LiveError("cannot hold port \(address.port ?? 0): socket: \(PortHold.errorText())") }
        var one: CInt = 1
        let bound =
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<CInt>.size)) == 0
            && address.withSockAddr { bind(fd, $0, socklen_t($1)) } == 0
        guard bound else {
            let text = PortHold.errorText()
            close(fd)
            throw LiveError("cannot hold port \(address.port ?? 0): \(text)")
        }
        descriptor = fd
    }

    /// Starts listening and gives the socket up (it is closed if `listen` fails): the caller passes it to `ServerBootstrap.withBoundSocket`,
    /// which owns it from then on.
    func startListening(backlog: CInt) throws -> CInt {
        let fd = descriptor
        guard listen(fd, backlog) == 0 else {
            let text = PortHold.errorText()
            close(fd)
            throw LiveError("cannot listen again: \(text)")
        }
        return fd
    }

    /// Frees the port.
    func release() { close(descriptor) }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}
