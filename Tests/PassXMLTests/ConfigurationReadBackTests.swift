import Testing
import PassModel
import PassXML

/// `ConfigurationXML.readsBack`: when it says a configuration reads back, parsing what `build`
/// wrote gives the value exactly (a typed run's mock hands the value to the engine on that promise);
/// it says so for the configurations of fuzz worlds.
@Suite struct ConfigurationReadBackTests {
    @Test func whatReadsBackParsesToItself() throws {
        var rng = SeededRandom(seed: 17)
        var yes = 0, no = 0
        for _ in 0..<4000 {
            func s(_ rare: UInt64 = 10) -> String { SAMLReadBackTests.string(&rng, rare: rare) }
            let mvpds = (0..<Int(rng.next() % 4)).map { i in
                MVPD(
                    id: rng.next() % 8 == 0 ? "same" : "m\(i)" + s(30), displayName: s(),
                    logoURL: rng.next() % 3 == 0 ? s() : nil, enablePlatformServices: rng.next() % 2 == 0,
                    boardingStatus: [nil, .picker, .supported][Int(rng.next() % 3)],
                    tempPass: rng.next() % 2 == 0, promoTempPass: rng.next() % 2 == 0, requiresSVC: rng.next() % 2 == 0,
                    spURL: rng.next() % 10 == 0 ? "https://sp.test" : nil)
            }
            let c = SPConfiguration(
                requestorID: "r" + s(30), requestorName: s(30),
                device: rng.next() % 4 == 0 ? s() : nil, clientType: rng.next() % 4 == 0 ? s() : nil,
                os: nil, mvpds: mvpds)
            if ConfigurationXML.readsBack(c) {
                yes += 1
                #expect(try ConfigurationXML.parse(Array(ConfigurationXML.build(c).utf8)) == c, "\(c)")
            } else {
                no += 1
            }
        }
        // Both answers are frequent, so the check above means something.
        #expect(yes > 500 && no > 500, "\(yes) read back, \(no) not")
    }

    @Test func aFuzzWorldsConfigurationReadsBack() {
        let c = SPConfiguration(
            requestorID: "REQ1", requestorName: "REQ1",
            mvpds: [
                MVPD(id: "M1", displayName: "M1 TV"), MVPD(id: "T2", displayName: "T2 TV", tempPass: true),
                MVPD(id: "P3", displayName: "P3 TV", promoTempPass: true),
                MVPD(id: "S4", displayName: "S4 TV", enablePlatformServices: true, boardingStatus: .supported),
            ])
        #expect(ConfigurationXML.readsBack(c))
        var learnt = c
        learnt.mvpds[0].spURL = "https://sp.test"
        #expect(!ConfigurationXML.readsBack(learnt))
    }
}
