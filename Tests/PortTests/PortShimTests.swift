import PassModel
import Testing
@testable import Port

@Suite struct PortShimTests {
    @Test func theShimAnswersEachLineUpToIdle() throws {
        let shim = PortShim()
        #expect(shim.handle(#"{"type":"call","app":"app","call":"logout","args":{},"now":0}"#)
                == [#"{"type":"error","message":"hello must come first"}"#])
        #expect(shim.handle(#"{"type":"hello","protocol":2,"now":0}"#).first?.contains("speaks protocol 1, not 2") == true)
        #expect(shim.handle(#"{"type":"hello","protocol":1,"now":1767225600000}"#)
                == [#"{"type":"ready","protocol":1,"implementation":"passim shim"}"#])
        let start = shim.handle(#"{"type":"call","app":"app","call":"setRequestor","args":{"requestorID":"REQ1","serviceProviders":["https://sp.test"]},"now":1767225600000}"#)
        #expect(start.last == #"{"type":"idle"}"#)
        let outputs = try start.dropLast().map { try PortOutput.parse($0) }
        guard case .request(let app, let id, let request) = outputs.first(where: { if case .request = $0 { true } else { false } }) else {
            Issue.record("no request in \(start)")
            return
        }
        #expect(app == "app" && request.url == "https://sp.test/config/REQ1")
        // A refused connection comes back as setRequestorComplete(0).
        let answer = shim.handle(#"{"type":"response","app":"app","id":\#(id),"error":"connection refused","now":1767225600010}"#)
        #expect(answer.contains { $0.contains(#""callback":"setRequestorComplete","args":[0]"#) })
        #expect(shim.handle("{").first?.hasPrefix(#"{"type":"error","message":"not JSON"#) == true)
    }
}
