import Testing
import PassXML

@Suite struct HTMLPageXMLTests {
    @Test func parsesTheLoginPage() throws {
        let page = try HTMLPageXML.parse(Fixtures.bytes("good/login-page.xhtml"))
        #expect(page.title == "Comcast sign in")
        #expect(page.message == "Wrong password, try again.")
        #expect(
            page.forms == [
                HTMLForm(
                    action: "/mvpd/Comcast_SSO/login", method: "POST",
                    fields: [
                        FormField(name: "username", value: ""), FormField(name: "password", value: ""),
                        FormField(name: "SAMLRequest", value: "PHNhbWxwOkF1dGhuUmVxdWVzdC8+"),
                    ],
                    autoSubmit: false)
            ])
    }

    @Test func parsesTheAutoPostPage() throws {
        let page = try HTMLPageXML.parse(Fixtures.bytes("good/autopost-page.xhtml"))
        #expect(page.title == "Redirecting")
        #expect(page.message == nil)
        #expect(page.forms.count == 1)
        #expect(page.forms.first?.autoSubmit == true)
        #expect(page.forms.first?.fields.map(\.name) == ["SAMLResponse", "RelayState"])
    }

    @Test func roundTrips() throws {
        let page = HTMLPage(
            title: "Sign in <&>", message: "Bad \"password\"",
            forms: [
                HTMLForm(
                    action: "/login?a=1&b=2", method: "post",
                    fields: [
                        FormField(name: "username", value: ""), FormField(name: "password", value: ""),
                        FormField(name: "RelayState", value: "r&1"),
                    ]),
                HTMLForm(
                    action: "https://sp/acs", method: "GET", fields: [FormField(name: "x", value: "")], autoSubmit: true
                ),
            ])
        let xml = HTMLPageXML.build(page)
        #expect(xml.contains(#"<input type="text" name="username" value=""/>"#))
        #expect(xml.contains(#"<input type="password" name="password" value=""/>"#))
        #expect(xml.contains(#"<input type="hidden" name="RelayState" value="r&amp;1"/>"#))
        #expect(xml.contains(#"<body onload="document.forms[1].submit()">"#))
        var expected = page
        expected.forms[0].method = "POST"
        #expect(try HTMLPageXML.parse(Array(xml.utf8)) == expected)
    }

    @Test func emptyPageRoundTrips() throws {
        let page = HTMLPage(title: "")
        #expect(try HTMLPageXML.parse(Array(HTMLPageXML.build(page).utf8)) == page)
    }

    @Test func onloadWithoutIndexMeansFirstForm() throws {
        let xml =
            #"<html><body onload="document.forms.item(0).submit()"><form action="a"/><form action="b"/></body></html>"#
        let page = try HTMLPageXML.parse(Array(xml.utf8))
        #expect(page.forms.map(\.autoSubmit) == [true, false])
        #expect(page.forms.map(\.method) == ["GET", "GET"])
    }

    @Test func nonXHTMLIsRejected() {
        #expect(throws: PassXMLError.self) { try HTMLPageXML.parse(Array("<html><body><br></body></html>".utf8)) }
        #expect(throws: PassXMLError("expected root element <html>, found <page>")) {
            try HTMLPageXML.parse(Array("<page/>".utf8))
        }
        #expect(throws: PassXMLError("missing element <body> in <html>")) {
            try HTMLPageXML.parse(Array("<html><head/></html>".utf8))
        }
    }
}
