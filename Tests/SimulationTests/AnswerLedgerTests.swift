import PassModel
import Testing
@testable import Simulation

/// Invariant 4: every answer belongs to a call of its own.
@Suite struct AnswerLedgerTests {
    @Test func anUnaskedSelectedProviderIsWrong() {
        var ledger = AnswerLedger()
        #expect(ledger.delivered(.selectedProvider(nil)) != nil)
        ledger.called(.getSelectedProvider)
        #expect(ledger.delivered(.selectedProvider(nil)) == nil)
        #expect(ledger.delivered(.selectedProvider(nil)) != nil, "one answer per query")
    }

    @Test func preauthorizationMustBeASubsetInRequestOrder() {
        var ledger = AnswerLedger()
        ledger.called(.checkPreauthorizedResources(["A", "B", "C"], cache: true))
        ledger.called(.checkPreauthorizedResources(["A", "B"], cache: true))
        #expect(ledger.delivered(.preauthorizedResources(["A", "C"])) == nil)
        #expect(ledger.delivered(.preauthorizedResources(["B", "A"])) != nil)
    }

    @Test func preauthorizationAnswersMayComeOutOfCallOrder() {
        var ledger = AnswerLedger()
        ledger.called(.checkPreauthorizedResources(["R1", "R2"], cache: true))
        ledger.called(.checkPreauthorizedResources(["R4"], cache: true))
        #expect(ledger.delivered(.preauthorizedResources([])) == nil)
        // A greedy match would give [] to the first request and find none left for [R2]: the
        // matching moves [] to the second.
        #expect(ledger.delivered(.preauthorizedResources(["R2"])) == nil)
        #expect(ledger.delivered(.preauthorizedResources([])) != nil, "a third answer for two requests")
    }

    @Test func metadataMustEchoItsDictionary() {
        var ledger = AnswerLedger()
        let d = Value.dict([Value.Entry("opCode", .int(0))])
        ledger.called(.getMetadata(d))
        #expect(
            ledger.delivered(.setMetadataStatus(value: .null, encrypted: false, opcode: 0, arguments: .dict([]))) != nil
        )
        #expect(ledger.delivered(.setMetadataStatus(value: .null, encrypted: false, opcode: 0, arguments: d)) == nil)
        #expect(ledger.delivered(.setMetadataStatus(value: .null, encrypted: false, opcode: 0, arguments: d)) != nil)
    }

    @Test func otherCallbacksAreNotItsConcern() {
        var ledger = AnswerLedger()
        #expect(ledger.delivered(.setRequestorComplete(status: 1)) == nil)
        #expect(ledger.delivered(.setToken(token: "t", resource: "R")) == nil)
    }
}
