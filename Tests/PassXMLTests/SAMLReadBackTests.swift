import Testing
import PassModel
import PassXML

/// `SAML.readsBack`: when it says a message reads back, parsing what `build` wrote gives the value
/// exactly (the mock's typed runs hand the value over on that promise); it says so for the messages
/// the mock writes for scenario worlds.
@Suite struct SAMLReadBackTests {
    static let t0 = Instant(milliseconds: 1_767_225_600_000)

    /// Strings from pieces the XML writer or reader treats specially: markup characters, non-ASCII,
    /// and, one piece in `rare`, spaces (at the ends they are trimmed), tabs, newlines, CR, controls,
    /// C1 controls, noncharacters.
    static let plain = ["a", "https://sp.test", "_0f3a", "&", "<", ">", "\"", "'", "]]>", "é", "名", "😀", "a b"]
    static let special = [" ", "\t", "\n", "\r", "\r\n", "\u{1}", "\u{7F}", "\u{85}", "\u{FFFE}", "\u{FFFF}", ""]

    static func string(_ rng: inout SeededRandom, rare: UInt64) -> String {
        (0..<Int(rng.next() % 4)).map { _ in
            let pieces = rng.next() % rare == 0 ? special : plain
            return pieces[Int(rng.next() % UInt64(pieces.count))]
        }.joined()
    }

    static func instant(_ rng: inout SeededRandom) -> Instant {
        // Mostly ordinary instants, sometimes past what the 4-digit year form can write.
        rng.next() % 8 == 0
            ? Instant(milliseconds: 253_402_300_800_000 + Int64(rng.next() % 1000))
            : t0 + .seconds(Int64(rng.next() % 100_000)) + Millis(Int64(rng.next() % 1000))
    }

    @Test func whatReadsBackParsesToItself() throws {
        var rng = SeededRandom(seed: 99)
        // Per message kind: how many read back, how many not.
        var counts = [String: (yes: Int, no: Int)]()
        func check<M: Equatable>(
            _ kind: String, _ m: M, _ readsBack: Bool, _ parse: ([UInt8]) throws -> M,
            _ build: (M) -> String
        ) throws {
            if readsBack {
                counts[kind, default: (0, 0)].yes += 1
                #expect(try parse(Array(build(m).utf8)) == m, "\(m)")
            } else {
                counts[kind, default: (0, 0)].no += 1
            }
        }
        for _ in 0..<3000 {
            // Rarer specials where a message has more strings, so both answers stay frequent.
            func s(_ rare: UInt64 = 12) -> String { Self.string(&rng, rare: rare) }
            let request = AuthnRequest(
                id: s(), issueInstant: Self.instant(&rng), issuer: s(), destination: s(),
                assertionConsumerServiceURL: s())
            try check("AuthnRequest", request, SAML.readsBack(request), SAML.parseAuthnRequest, SAML.build)

            let attributes = (0..<Int(rng.next() % 3)).map { _ in
                SAMLAttribute(name: "n" + s(40), values: [s(40), s(40)])
            }
            let assertion = Assertion(
                id: rng.next() % 16 == 0 ? "_same" : "_a" + s(40), issueInstant: Self.instant(&rng),
                issuer: "i" + s(40), nameID: "n" + s(40), sessionIndex: s(40),
                notOnOrAfter: Self.instant(&rng), audience: "a" + s(40), attributes: attributes)
            let response = SAMLResponse(
                id: "_same", inResponseTo: s(40), issueInstant: Self.instant(&rng), issuer: "i" + s(40),
                destination: s(40), success: rng.next() % 2 == 0, assertion: assertion)
            try check("Response", response, SAML.readsBack(response), SAML.parseResponse) { SAML.build($0) }

            let logout = LogoutRequest(
                id: s(), issueInstant: Self.instant(&rng), issuer: s(), destination: s(),
                nameID: s(), sessionIndex: s())
            try check("LogoutRequest", logout, SAML.readsBack(logout), SAML.parseLogoutRequest, SAML.build)

            let answer = LogoutResponse(
                id: s(), inResponseTo: s(), issueInstant: Self.instant(&rng), issuer: s(),
                destination: s(), success: rng.next() % 2 == 0)
            try check("LogoutResponse", answer, SAML.readsBack(answer), SAML.parseLogoutResponse, SAML.build)
        }
        // Both answers are exercised, each often, for every kind.
        #expect(counts.count == 4)
        for (kind, c) in counts.sorted(by: { $0.key < $1.key }) {
            #expect(c.yes > 200 && c.no > 200, "\(kind): \(c.yes) read back, \(c.no) not")
        }
    }

    /// The shapes the mock writes: URLs, `_`-hex IDs, user metadata as attributes.
    @Test func theMocksMessagesReadBack() {
        let assertion = Assertion(
            id: "_b2", issueInstant: Self.t0, issuer: "https://comcast.idp.test", nameID: "9f0e",
            sessionIndex: "_c3", notOnOrAfter: Self.t0 + .minutes(5), audience: "https://sp.auth.test",
            attributes: [
                SAMLAttribute(name: "userID", values: ["u-alice"]),
                SAMLAttribute(name: "zip", values: ["12345", "New York, NY"]),
            ])
        let response = SAMLResponse(
            id: "_a1", inResponseTo: "_q", issueInstant: Self.t0, issuer: "https://comcast.idp.test",
            destination: "https://sp.auth.test/sp/saml/SAMLAssertionConsumer", success: true,
            assertion: assertion)
        #expect(SAML.readsBack(response))
        #expect(
            SAML.readsBack(
                AuthnRequest(
                    id: "_q", issueInstant: Self.t0, issuer: "https://sp.auth.test",
                    destination: "https://comcast.idp.test/sso",
                    assertionConsumerServiceURL: "https://sp.auth.test/sp/saml/SAMLAssertionConsumer")))
        // Too much metadata is sent as bytes (the parser's limits are then the judge).
        var big = response
        big.assertion?.attributes = [SAMLAttribute(name: "many", values: (0..<2000).map(String.init))]
        #expect(!SAML.readsBack(big))
        var trailing = response
        trailing.assertion?.audience = "https://sp.auth.test "
        #expect(!SAML.readsBack(trailing))
    }
}
