import Foundation
import PassModel
import Testing
@testable import Port

@Suite struct PortProcessTests {
    /// A port gets standard input, output and error, nothing else of the harness. SwiftNIO's sockets
    /// are not close-on-exec: a port that inherited a live server's listener kept a host "down"
    /// listening (its requests timed out instead of being refused) and kept it from listening again.
    @Test func thePortInheritsOnlyItsThreeStandardDescriptors() throws {
        let leaked = open("/dev/null", O_RDONLY)  // deliberately not close-on-exec
        #expect(leaked > 2)
        defer { close(leaked) }
        let process = try PortProcess(command: "test -e /proc/$$/fd/\(leaked) && echo inherited || echo clean; cat >/dev/null")
        defer { process.close() }
        #expect(try process.readLine(timeout: .seconds(5)) == "clean")
    }
}
