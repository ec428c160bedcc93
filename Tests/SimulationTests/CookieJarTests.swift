import PassModel
import Testing
@testable import Simulation

/// The device's cookie jar: `Set-Cookie` stored per host, names and values without the spaces
/// around them (ASCII trimmed by bytes, anything else by characters, the same way).
@Suite struct CookieJarTests {
    @Test(arguments: [
        "", " ", "a", " a ", "  a b  ", "a  ", "  a", "é ", " é", " \u{301}a ", "\u{301} ", "  ünïcode  ",
    ])
    func spacesAreTrimmedAsCharactersWouldBe(_ text: String) {
        let byCharacters = String(text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
        #expect(text.trimmingSpaces == byCharacters)
        #expect(text[...].trimmingSpaces == byCharacters)
    }

    @Test func setCookieIsStoredPerHostAndSentBack() {
        var jar = CookieJar()
        let response = HTTPResponse(
            status: 200, headers: [("Set-Cookie", " JSESSIONID = abc ; Path=/"), ("Set-Cookie", "x=1")])
        jar.store(from: response, url: "https://sp.test/authenticate")
        let sent = jar.apply(to: HTTPRequest(method: "GET", url: "https://sp.test/sessionDevice"))
        #expect(sent.headers["Cookie"] == "JSESSIONID=abc; x=1")
        #expect(jar.apply(to: HTTPRequest(method: "GET", url: "https://other.test/")).headers["Cookie"] == nil)
    }
}
