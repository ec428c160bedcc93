import PassModel
import Testing
@testable import Port

@Suite struct PortShimTests {
    @Test func theShimAnswersEachLineUpToIdle() throws {
        let shim = PortShim()
        #expect(
            shim.handle(#"{"type":"call","app":"app","call":"logout","args":{},"now":0}"#)
                == [#"{"type":"error","message":"hello must come first"}"#])
        #expect(
            shim.handle(#"{"type":"hello","protocol":2,"now":0}"#).first?.contains("speaks protocol 1, not 2") == true)
        #expect(
            shim.handle(#"{"type":"hello","protocol":1,"now":1767225600000}"#)
                == [#"{"type":"ready","protocol":1,"implementation":"passim shim","reset":true}"#])
        let start = shim.handle(
            #"{"type":"call","app":"app","call":"setRequestor","args":{"requestorID":"REQ1","serviceProviders":["https://sp.test"]},"now":1767225600000}"#
        )
        #expect(start.last == #"{"type":"idle"}"#)
        let outputs = try start.dropLast().map { try PortOutput.parse($0) }
        guard
            case .request(let app, let id, let request) = outputs.first(where: {
                if case .request = $0 { true } else { false }
            })
        else {
            Issue.record("no request in \(start)")
            return
        }
        #expect(app == "app" && request.url == "https://sp.test/config/REQ1")
        // A refused connection comes back as setRequestorComplete(0).
        let answer = shim.handle(
            #"{"type":"response","app":"app","id":\#(id),"error":"connection refused","now":1767225600010}"#)
        #expect(answer.contains { $0.contains(#""callback":"setRequestorComplete","args":[0]"#) })
        #expect(shim.handle("{").first?.hasPrefix(#"{"type":"error","message":"not JSON"#) == true)
    }

    /// Protocol 1.1: a second hello is a new world; the first world's engines and requests are gone.
    @Test func aSecondHelloResetsTheShim() throws {
        let shim = PortShim()
        _ = shim.handle(#"{"type":"hello","protocol":1,"now":1767225600000}"#)
        _ = shim.handle(
            #"{"type":"call","app":"app","call":"setRequestor","args":{"requestorID":"REQ1","serviceProviders":["https://sp.test"]},"now":1767225600000}"#
        )
        #expect(
            shim.handle(#"{"type":"hello","protocol":1,"platform":"tvos","now":1767225600000}"#).first?.contains(
                #""reset":true"#) == true)
        // The old world's setRequestor is gone: the answer to its request no longer completes it.
        #expect(
            shim.handle(#"{"type":"response","app":"app","id":1,"error":"connection refused","now":1767225600010}"#)
                == [#"{"type":"idle"}"#])
    }

    /// On the live network the shim sends each request itself, to its host's listener with the world's
    /// `Host` and the message's cookies, reports `fetched`, and hands the answer to the engine on `deliver`.
    @Test func onTheLiveNetworkTheShimFetchesAndWaitsForDeliver() throws {
        var sent: [(HTTPRequest, Millis)] = []
        let shim = PortShim { request, timeout in
            sent.append((request, timeout))
            return .response(
                HTTPResponse(status: 404, headers: [("Content-Type", "text/plain")], body: Array("no".utf8)))
        }
        #expect(
            shim.handle(
                #"{"type":"hello","protocol":1,"network":"live","hosts":{"https://sp.test":"http://127.0.0.1:4000"},"fetchTimeout":2000,"now":1767225600000}"#
            )
                == [#"{"type":"ready","protocol":1,"implementation":"passim shim","reset":true}"#])
        let start = shim.handle(
            #"{"type":"call","app":"app","call":"setRequestor","args":{"requestorID":"REQ1","serviceProviders":["https://sp.test","https://elsewhere.test"]},"now":1767225600000,"cookies":{"sp.test":"JSESSIONID=s1"}}"#
        )
        #expect(
            start.contains(
                #"{"type":"fetched","app":"app","id":1,"method":"GET","url":"https://sp.test/config/REQ1","status":404}"#
            ), "\(start)")
        // Not on the live network: never connected.
        #expect(
            start.contains(
                #"{"type":"fetched","app":"app","id":2,"method":"GET","url":"https://elsewhere.test/config/REQ1","error":"could not resolve host"}"#
            ), "\(start)")
        #expect(!start.contains { $0.contains("setRequestorComplete") })
        #expect(sent.count == 1)
        #expect(sent.first?.0.url == "http://127.0.0.1:4000/config/REQ1")
        #expect(sent.first?.0.headers["Host"] == "sp.test")
        #expect(sent.first?.0.headers["Cookie"] == "JSESSIONID=s1")
        #expect(sent.first?.1 == Millis(2000))

        _ = shim.handle(#"{"type":"deliver","app":"app","id":2,"now":1767225600000,"cookies":{}}"#)
        let done = shim.handle(#"{"type":"deliver","app":"app","id":1,"now":1767225600010,"cookies":{}}"#)
        #expect(done.contains { $0.contains(#""callback":"setRequestorComplete","args":[0]"#) }, "\(done)")
        #expect(
            shim.handle(#"{"type":"deliver","app":"app","id":1,"now":1767225600020}"#).first?.contains(
                "no request 1 of app was fetched") == true)
    }

    /// Each `fetched` line is given as its fetch ends: two silent hosts in one input each get the
    /// harness's full wait for a line, instead of sharing one (a fuzz finding: two silent SPs with a
    /// 7 s fetch timeout overran the 12 s wait for the input's lines).
    @Test func onTheLiveNetworkEachFetchedLineComesAsItsFetchEnds() throws {
        final class Lines { var emitted: [String] = []; var seenAtFetch: [Int] = [] }
        let lines = Lines()
        let shim = PortShim { _, _ in
            lines.seenAtFetch.append(lines.emitted.count)
            return .timeout
        }
        _ = shim.handle(
            #"{"type":"hello","protocol":1,"network":"live","hosts":{"https://a.test":"http://127.0.0.1:4000","https://b.test":"http://127.0.0.1:4001"},"fetchTimeout":7000,"now":1767225600000}"#
        )
        shim.handle(
            #"{"type":"call","app":"app","call":"setRequestor","args":{"requestorID":"R","serviceProviders":["https://a.test","https://b.test"]},"now":1767225600000,"cookies":{}}"#
        ) {
            lines.emitted.append($0)
        }
        #expect(lines.seenAtFetch == [0, 1], "the first fetched line is out before the second fetch starts")
        #expect(lines.emitted.filter { $0.contains(#""type":"fetched""#) }.count == 2, "\(lines.emitted)")
        #expect(lines.emitted.last == #"{"type":"idle"}"#, "\(lines.emitted)")
    }

    @Test func withoutAnHTTPClientTheShimDeclinesTheLiveNetwork() {
        #expect(
            PortShim().handle(#"{"type":"hello","protocol":1,"network":"live","hosts":{},"fetchTimeout":1000,"now":0}"#)
                == [#"{"type":"unimplemented","what":"network live"}"#])
    }
}
