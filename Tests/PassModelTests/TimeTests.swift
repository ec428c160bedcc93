import Testing
@testable import PassModel

@Suite struct TimeTests {
    @Test func tokenDateOfTheSimulationStart() {
        #expect(Instant.simulationStart.tokenDate == "2026/01/01 00:00:00 GMT +0000")
        #expect((Instant.simulationStart + .hours(24) + Millis(61_000)).tokenDate == "2026/01/02 00:01:01 GMT +0000")
        // A leap day and a date before the epoch.
        #expect(Instant(milliseconds: 951_782_400_000).tokenDate == "2000/02/29 00:00:00 GMT +0000")
        #expect(Instant(milliseconds: -1000).tokenDate == "1969/12/31 23:59:59 GMT +0000")
    }

    @Test func tokenDateParsesBackWithOffsets() {
        let t = Instant.simulationStart + Millis(3_723_000)
        #expect(Instant(tokenDate: t.tokenDate) == t)
        #expect(
            Instant(tokenDate: "2011/03/19 02:29:34 GMT +0200") == Instant(tokenDate: "2011/03/19 00:29:34 GMT +0000"))
        #expect(Instant(tokenDate: "yesterday") == nil)
    }

    @Test func durations() {
        #expect(Millis(text: "250ms") == Millis(250))
        #expect(Millis(text: "30s") == .seconds(30))
        #expect(Millis(text: "5m") == .minutes(5))
        #expect(Millis(text: "2h") == .hours(2))
        #expect(Millis(text: "1d") == .hours(24))
        for bad in ["40", "4x", "1.5s", "-3s", "s", "ms", "", "99999999999999999999d"] {
            #expect(Millis(text: bad) == nil, "\(bad)")
        }
        #expect(Millis.hours(2).description == "2h")
        #expect(Millis(1500).description == "1500ms")
    }
}
