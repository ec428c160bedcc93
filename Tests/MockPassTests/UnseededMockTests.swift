import PassModel
import PassXML
import Testing
@testable import MockPass

/// Issue 44: a mock without a seed (`passim serve` without `--seed`) draws its client secrets, access
/// tokens, registration codes and traces from the system's secure random source; a seed keeps them
/// reproducible. And what an injected failure answers where HTTP forbids a body.
@Suite struct UnseededMockTests {
    /// The first access token, then the first registration code, of a new mock.
    static func firstValues(seed: UInt64?) throws -> [String] {
        var b = Browser(MockPass(world: rootServiceWorld(), seed: seed))
        let token = try b.accessToken()
        let regcode = b.engine("/reggie/v1/REQ1/regcode", [("deviceId", "tv-1"), ("format", "json")])
        #expect(regcode.status == 201 || regcode.status == 200, "\(regcode.status) \(regcode.bodyText)")
        return [token, regcode.bodyText]
    }

    @Test func withoutASeedNoTwoMocksDrawTheSame() throws {
        let a = try Self.firstValues(seed: nil), b = try Self.firstValues(seed: nil)
        #expect(a[0] != b[0])
        #expect(a[1] != b[1])
        #expect(MockPass(world: rootServiceWorld(), seed: nil).context.random.isSecure)
        #expect(MockPass(world: rootServiceWorld(), seed: nil).context.registrationRandom.isSecure)
    }

    @Test func aSeedStillGivesTheSameValues() throws {
        #expect(try Self.firstValues(seed: 71) == Self.firstValues(seed: 71))
    }

    @Test(arguments: [204, 205, 304])
    func anInjectedAnswerHasNoBodyWhereHTTPForbidsOne(_ status: Int) {
        for failure in [
            InjectedFailure(remaining: 1, status: status), InjectedFailure(remaining: 1, status: status, body: "{}"),
        ] {
            #expect(failure.response.body.isEmpty)
            #expect(failure.response.status == status)
        }
        #expect(InjectedFailure(remaining: 1, status: 200, body: "{}").response.bodyText == "{}")
    }
}
