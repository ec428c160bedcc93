import PassModel
import Testing
@testable import Scenario

/// `CallBuilder.callNames` against the initializer it replaces, `Call.Name(rawValue:)`.
@Suite struct CallNameTableTests {
    @Test func theTableFindsWhatTheInitializerFinds() {
        var texts = Call.Name.allCases.map(\.rawValue)
        texts += [
            "", " ", "initialize", "INIT", "Init", "init ", " init", "init\u{0}", "logout\n", "getAuthorizatio",
            "getAuthorizationX", "checkAuthorization(", "setRequestor\u{301}", "logou\u{74}", "ｌｏｇｏｕｔ",
            "set\u{200B}Requestor", "getVersion\u{FE0F}", "é", "e\u{301}",
        ]
        // Every name cut short and grown by one character.
        for name in Call.Name.allCases.map(\.rawValue) {
            texts.append(String(name.dropLast()))
            texts.append(name + "s")
            texts.append(name.uppercased())
        }
        for text in texts {
            #expect(CallBuilder.callNames[text] == Call.Name(rawValue: text), "\(text.debugDescription)")
        }
        #expect(CallBuilder.callNames.count == Call.Name.allCases.count)
    }
}
