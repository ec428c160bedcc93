import Testing
@testable import Lint

@Suite struct JournalTests {
    let line =
        #"{"host":"sp:SP","time":1767225600000,"method":"GET","path":"/api/v2/REQ/profiles","parameters":[],"headers":[{"name":"AP-Device-Identifier","value":"fingerprint eA=="}],"status":200}"#

    @Test func readsAdminLogLines() throws {
        let j = try Journal.parse(line + "\n\n" + line + "\n")
        #expect(j.entries.count == 2)
        #expect(j.entries[1].sequence == 2)
        #expect(j.entries[0].status == 200)
        #expect(j.entries[0].device == "device eA==")
    }

    @Test(arguments: [
        ("[1,2]", "not a JSON object"),
        (#"{"host":"sp:SP","time":1,"method":"GET"}"#, "\"path\""),
        (#"{"host":"nowhere","time":1,"method":"GET","path":"/"}"#, "host must be"),
        ("{\"host\":\"sp:SP\",\"time\":1,\"meth", "truncated"),
        ("hello", "not JSON"),
        (#"{"host":"sp:SP","time":1,"method":"GET","path":"/","status":999}"#, "status"),
    ])
    func refusesWhatIsNotAJournal(_ text: String, _ says: String) {
        do {
            _ = try Journal.parse(text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.message.contains(says), "\(error.message)")
        }
    }

    @Test func refusesAHugeJournal() {
        do {
            _ = try Journal.parse(String(repeating: line + "\n", count: 10), maxBytes: 1000)
            Issue.record("accepted over the limit")
        } catch {
            #expect(error.message.contains("larger than 1000 bytes"))
        }
    }

    @Test func secondsAreWrittenWithoutLocale() {
        #expect(Journal.seconds(0) == "0.000s")
        #expect(Journal.seconds(2_400) == "2.400s")
        #expect(Journal.seconds(-5) == "-0.005s")
    }
}
