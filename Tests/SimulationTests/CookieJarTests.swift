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

    /// The byte reading of an ASCII `Set-Cookie` (`CookieJar.parseASCII`) against the character
    /// reading it replaced, on headers ordinary and hostile.
    @Test(arguments: [
        "", ";", ";;", "=", "=v", " = v", "a", "a=", "a=b", " a = b ", "a=b; Path=/; HttpOnly", ";a=b",
        ";;a=b;;", "a=b;Max-Age=0", "a=b; MAX-AGE=0 ", "a=b; max-age=00", "a=b; max-age =0", "Max-Age=0",
        "max-age=0; a=b", "a=b;;max-age=0", "a=b\r\n; max-age=0", "a=\r\nb; Max-Age=0\r\n", "a=b;\tmax-age=0",
        "a=b=c; max-age=0;", "  =b", "a =  ; mAx-AgE=0", "a=b; max-age=0; max-age=1",
    ])
    func asciiHeadersReadAsByCharacters(_ header: String) {
        #expect(CookieJar.parseASCII(header) == CookieJar.parseCharacters(header))
        #expect(CookieJar.parse(header) == CookieJar.parseCharacters(header))
    }

    @Test func randomASCIIHeadersReadAsByCharacters() {
        let alphabet = Array("aAmMxX-=;; 0\r\n\t")
        var rng = SeededRandom(seed: 42)
        for _ in 0..<5000 {
            let count = Int(rng.next() % 24)
            let header = String((0..<count).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] })
            #expect(CookieJar.parseASCII(header) == CookieJar.parseCharacters(header), "\(header.debugDescription)")
        }
        // The words that matter, mixed: a deletion hides among other attributes.
        let words = ["a=b", "Max-Age=0", "max-age=0", " MAX-AGE=0 ", "Path=/", "", " ", "=", "x=y=z"]
        for _ in 0..<2000 {
            let count = Int(rng.next() % 5)
            let header = (0..<count).map { _ in words[Int(rng.next() % UInt64(words.count))] }.joined(separator: ";")
            #expect(CookieJar.parseASCII(header) == CookieJar.parseCharacters(header), "\(header.debugDescription)")
        }
    }

    @Test func nonASCIIHeadersAreReadByCharacters() {
        for header in ["é=b", "a=b;\u{301}max-age=0", "a=b; max-age=0\u{301}", "a\u{301}=b", ";\u{301}a=b"] {
            #expect(CookieJar.parse(header) == CookieJar.parseCharacters(header))
        }
        // A combining mark after `;` joins it: there is no second part, so nothing is deleted.
        #expect(CookieJar.parse("a=b;\u{301}max-age=0")?.deletes == false)
    }

    @Test func maxAgeZeroDeletesTheCookie() {
        var jar = CookieJar()
        jar.store(from: HTTPResponse(status: 200, headers: [("Set-Cookie", "s=1")]), url: "https://sp.test/")
        jar.store(from: HTTPResponse(status: 200, headers: [("Set-Cookie", "s=; Max-Age=0")]), url: "https://sp.test/")
        #expect(jar.apply(to: HTTPRequest(method: "GET", url: "https://sp.test/")).headers["Cookie"] == nil)
    }
}
