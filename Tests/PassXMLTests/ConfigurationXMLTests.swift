import Testing
import PassModel
import PassXML

@Suite struct ConfigurationXMLTests {
    static func parse(_ text: String) throws -> SPConfiguration { try ConfigurationXML.parse(Array(text.utf8)) }

    static func config(mvpds: String) -> String {
        "<config><requestor><id>R</id><name>Req</name><mvpds>\(mvpds)</mvpds></requestor></config>"
    }

    @Test func parsesTheSample() throws {
        let c = try ConfigurationXML.parse(Fixtures.bytes("good/config.xml"))
        #expect(c.requestorID == "NBCOlympics")
        #expect(c.requestorName == "NBC Olympics")
        #expect(c.device == "computer")
        #expect(c.clientType == "iOS")
        #expect(c.os == "iOS 17")
        // The duplicate Comcast_SSO entry is dropped: the first one wins.
        #expect(
            c.mvpds == [
                MVPD(
                    id: "Comcast_SSO", displayName: "Xfinity & Friends",
                    logoURL: "https://entitlement.auth.adobe.com/entitlement/noLogo.png",
                    enablePlatformServices: true, boardingStatus: .picker, requiresSVC: true),
                MVPD(id: "TempPass_TEST40", displayName: "3 min", tempPass: true),
            ])
    }

    @Test func roundTrips() throws {
        let c = SPConfiguration(
            requestorID: "R&D <1>", requestorName: "Name \"q\"", device: "tv", clientType: nil, os: "tvOS",
            mvpds: [
                MVPD(
                    id: "A", displayName: "A's", logoURL: "https://x/a.png?x=1&y=2", enablePlatformServices: true,
                    boardingStatus: .supported, tempPass: false, promoTempPass: true, requiresSVC: true),
                MVPD(id: "B", displayName: "B"),
            ])
        let xml = ConfigurationXML.build(c)
        #expect(xml.hasPrefix(#"<?xml version="1.0" encoding="UTF-8"?><config><device>tv</device><os>tvOS</os>"#))
        #expect(try ConfigurationXML.parse(Array(xml.utf8)) == c)
        #expect(ConfigurationXML.build(try ConfigurationXML.parse(Array(xml.utf8))) == xml)
    }

    @Test func spURLIsNotWritten() throws {
        let c = SPConfiguration(
            requestorID: "R", requestorName: "N",
            mvpds: [MVPD(id: "A", displayName: "A", spURL: "https://sp.example")])
        let parsed = try ConfigurationXML.parse(Array(ConfigurationXML.build(c).utf8))
        #expect(parsed.mvpds.first?.spURL == nil)
        #expect(!ConfigurationXML.build(c).contains("sp.example"))
    }

    @Test func emptyMVPDListIsFine() throws {
        #expect(try Self.parse(Self.config(mvpds: "")).mvpds.isEmpty)
    }

    @Test func nonMVPDChildRejectsTheWholeConfig() {
        #expect(throws: PassXMLError("unexpected element <provider> in <mvpds> (only <mvpd> is allowed)")) {
            try Self.parse(Self.config(mvpds: "<mvpd><id>A</id><displayName>A</displayName></mvpd><provider/>"))
        }
    }

    @Test func missingRequiredElementsAreNamed() {
        #expect(throws: PassXMLError("missing element <displayName> in <mvpd> (MVPD 'A')")) {
            try Self.parse(Self.config(mvpds: "<mvpd><id>A</id></mvpd>"))
        }
        #expect(throws: PassXMLError("missing element <id> in <mvpd> (MVPD #2)")) {
            try Self.parse(Self.config(mvpds: "<mvpd><id>A</id><displayName>A</displayName></mvpd><mvpd/>"))
        }
        #expect(throws: PassXMLError("empty element <id> in <mvpd> (MVPD #1)")) {
            try Self.parse(Self.config(mvpds: "<mvpd><id> </id><displayName>A</displayName></mvpd>"))
        }
        #expect(throws: PassXMLError("missing element <requestor> in <config>")) { try Self.parse("<config/>") }
        #expect(throws: PassXMLError("missing element <mvpds> in <requestor>")) {
            try Self.parse("<config><requestor><id>R</id><name>N</name></requestor></config>")
        }
        #expect(throws: PassXMLError("missing element <name> in <requestor>")) {
            try Self.parse("<config><requestor><id>R</id><mvpds/></requestor></config>")
        }
    }

    @Test func badValuesAreRejected() {
        #expect(throws: PassXMLError("invalid boolean 'yes' in <tempPass> of MVPD 'A'")) {
            try Self.parse(
                Self.config(mvpds: "<mvpd><id>A</id><displayName>A</displayName><tempPass>yes</tempPass></mvpd>"))
        }
        #expect(throws: PassXMLError("invalid <boardingStatus> 'MAYBE' of MVPD 'A' (expected PICKER or SUPPORTED)")) {
            try Self.parse(
                Self.config(
                    mvpds: "<mvpd><id>A</id><displayName>A</displayName><boardingStatus>MAYBE</boardingStatus></mvpd>"))
        }
        #expect(throws: PassXMLError("expected root element <config>, found <configuration>")) {
            try Self.parse("<configuration/>")
        }
    }
}
