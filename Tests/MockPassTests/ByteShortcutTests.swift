import PassModel
import Testing
@testable import MockPass

/// The mock reads ASCII request text by bytes and any other by Characters (cookies, a config or
/// regcode path's requestor, the form content type, an authority): the two readings agree.
@Suite struct ByteShortcutTests {
    /// Each Cookie header read as it is (by bytes) and with a non-ASCII pair after it (by
    /// Characters): the same pairs, that one added.
    @Test(arguments: [
        "a=1; b=2", " a = 1 ;;b=;  c ; =d ;\t e=f=g\t", "", ";", "  ", "x", "a=1;", "a\t=\t1",
    ])
    func cookiesReadAlikeByBytesAndCharacters(_ header: String) {
        func pairs(_ value: String) -> [String] {
            Cookies(HTTPHeaders([HTTPHeader("Cookie", value)])).pairs.map { "\($0.name)=\($0.value)" }
        }
        #expect(pairs(header) + ["é=ü"] == pairs(header + "; é=ü"))
    }

    @Test func aPathNamesItsRequestorAlikeByBytesAndCharacters() {
        for (path, requestor) in [
            ("/config/R1", "R1"), ("//config//R1/", "R1"), ("/api/v1/config/R1", "R1"), ("/reggie/v1/R1/regcode", "R1"),
            ("/config/R1/x", nil), ("/configs/R1", nil), ("/reggie/v1/R1/regcodes", nil), ("/a", nil),
        ] as [(String, String?)] {
            #expect(ClientAdmission.pathRequestor(path) == requestor, "\(path)")
            let other = path.replacingOccurrences(of: "R1", with: "Ré")
            #expect(ClientAdmission.pathRequestor(other) == requestor.map { _ in "Ré" }, "\(other)")
        }
    }

    @Test func aFormContentTypeIsReadAlikeByBytesAndCharacters() {
        for (type, form) in [
            ("application/x-www-form-urlencoded", true), ("Application/X-WWW-Form-Urlencoded; charset=utf-8", true),
            ("application/json", false), ("application/x-www-form", false), ("", false),
        ] {
            #expect(IncomingRequest.isForm(type) == form, "\(type)")
            #expect(IncomingRequest.isForm(type + "é") == form, "\(type)é")
        }
    }

    @Test func anAuthorityIsLowercasedAlike() {
        for text in ["sp.test:8080", "SP.Test", "", "İdp.test", "ÉCOLE.test", "a-b.c"] {
            #expect(HostTable.lowercased(text) == text.lowercased(), "\(text)")
        }
        #expect(HostTable.collapsingSlashes("//a///b/") == "/a/b/")
        #expect(HostTable.collapsingSlashes("/a/b") == "/a/b")
    }
}
