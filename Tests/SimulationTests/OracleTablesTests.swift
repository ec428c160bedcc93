import Entitlement
import MockPass
import PassModel
import Testing
@testable import Simulation

/// The oracle's tables alone: the request classifier, the picker's transitions, which drained call
/// owns which first answer or request.
@Suite struct OracleTablesTests {
    @Test func requestsAreClassifiedInOnePlace() {
        let authorize = OracleRequest(
            .form(
                "https://sp.test/api/v1/authorizeDevice",
                [("resource_id", "R1"), ("authentication_token", "<t/>")]))
        #expect(authorize.kind == .authorize(resource: "R1"))
        #expect(authorize.authnToken?.text == "<t/>")
        #expect(
            OracleRequest(.form("https://sp.test/deviceShortAuthorize", [("authentication_token", "<t/>")])).kind
                == .mediaToken)
        #expect(OracleRequest(.form("https://sp.test/preauthorize", [])).kind == .preauthorize)
        #expect(
            OracleRequest(.form("https://sp.test/authenticate/freepreview", [("authentication_token", "<t/>")]))
                == OracleRequest(kind: .tempPassLogin), "a TempPass login's request is not read for a token")
        #expect(OracleRequest(HTTPRequest(method: "GET", url: "https://sp.test/config/REQ")).kind == .other)
        #expect(OracleRequest.kind(ofPath: "https://sp.test/api/v1/authenticate/freepreview") == .tempPassLogin)
        #expect(OracleRequest.kind(ofPath: "https://sp.test/freepreview") == .other)
        #expect(OracleRequest.kind(ofPath: "https://sp.test/notpreauthorize") == .other)
        #expect(OracleRequest.kind(ofPath: "https://sp.test/preauthorize?x=a/b") == .other)
        // By the ending `Route` defines, its slash included: a URL's path always has it.
        #expect(OracleRequest.kind(ofPath: "/preauthorize") == .preauthorize)
        #expect(OracleRequest.kind(ofPath: "preauthorize") == .other)
        #expect(OracleRequest.kind(ofPath: "") == .other)
    }

    /// An authorization's token is kept escaped and its resource read without decoding the rest of
    /// the form: both are what `request.parameters` gives, on any body (query, repeats, no `=`, text
    /// that is not ASCII, forms the engine never writes).
    @Test func theTokenAndResourceReadAsParametersReadThem() {
        let pieces = [
            "resource_id=R1", "resource_id=R%32", "authentication_token=%3Ct%2F%3E", "authentication_token=a+b",
            "authentication%5Ftoken=x", "authentication_token", "resource_id", "&", "=", "a=%FF", "t=é", "%",
        ]
        var rng = SeededRandom(seed: 5)
        for _ in 0..<2_000 {
            let body = (0..<Int(rng.next() % 6)).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }
                .joined(separator: "&")
            let query = rng.next() % 5 == 0 ? "?resource_id=Q" : ""
            let type = rng.next() % 6 == 0 ? "text/plain" : "application/x-www-form-urlencoded"
            let request = HTTPRequest(
                method: "POST", url: "https://sp.test/api/v1/authorizeDevice" + query,
                headers: [("Content-Type", type)], body: Array(body.utf8))
            let classified = OracleRequest(request)
            let parameters = request.parameters
            guard query.isEmpty else {
                // Classified by the URL's end: a query makes it none of the kinds read for a token.
                #expect(classified == OracleRequest(kind: .other))
                continue
            }
            #expect(classified.kind == .authorize(resource: parameters.first { $0.0 == "resource_id" }?.1), "\(body)")
            #expect(classified.authnToken?.text == parameters.first { $0.0 == "authentication_token" }?.1, "\(body)")
        }
    }

    @Test func aLoginStartsWithItsDialogPickerOrFailureReadEitherWay() {
        let samples: [Callback] = [
            .displayProviderDialog([]), .presentTvProviderDialog(shown: [], featured: []),
            .dismissTvProviderDialog(shown: [], featured: []),
            .setAuthenticationStatus(status: 0, errorCode: Constants.genericAuthenticationError),
            .setAuthenticationStatus(status: 0, errorCode: Constants.userNotAuthenticatedError),
            .setAuthenticationStatus(status: 1, errorCode: ""), .setRequestorComplete(status: 1),
            .navigateToUrl("https://sp.test/x", useSVC: nil), .setToken(token: "t", resource: "R1"),
            .tokenRequestFailed(resource: "R1", errorCode: "x", details: ""), .preauthorizedResources([]),
            .selectedProvider(nil), .status(code: "N003", message: nil), .sendTrackingData(event: 0, data: []),
        ]
        for c in samples { #expect(CallbackRole.startsALogin(c) == CallbackRole(c).startsALogin, "\(c)") }
        #expect(samples.filter(CallbackRole.startsALogin).count == 3)
    }

    @Test func thePickerTableRefusesWhatMayNotComeNext() {
        #expect(PickerState.transitions.count == PickerState.allCases.count, "a row per state")
        #expect(
            PickerState.transitions.allSatisfy { $0.count == PickerState.Event.allCases.count }, "a column per event")
        #expect(PickerState.down.after(.present) == (.up, nil))
        #expect(PickerState.up.after(.dismiss) == (.down, nil))
        #expect(PickerState.up.after(.inputEnded) == (.up, nil))
        #expect(PickerState.up.after(.loginEndedByCall) == (.dismissalOwed, nil))
        #expect(PickerState.dismissalOwed.after(.dismiss) == (.down, nil))
        // Refused: a second picker, a dismissal of none, a login ended under the picker left up.
        #expect(PickerState.up.after(.present).1 != nil)
        #expect(PickerState.down.after(.dismiss).1 != nil)
        let (after, refused) = PickerState.dismissalOwed.after(.inputEnded)
        #expect(after == .down && refused != nil)
    }

    @Test func aDrainedCallOwnsItsFirstAnswerOrRequest() {
        let getAuthZ = Call.getAuthorization(resource: "R1", data: nil)
        let checkAuthZ = Call.checkAuthorization(resource: "R1", data: nil)
        // A getAuthorization never owns a success status at once (another call's, from the store).
        #expect(!Ownership.canStart(getAuthZ, with: CallbackRole(.setAuthenticationStatus(status: 1, errorCode: ""))))
        #expect(Ownership.canStart(getAuthZ, with: CallbackRole(.displayProviderDialog([]))))
        #expect(
            Ownership.canStart(
                checkAuthZ, with: CallbackRole(.tokenRequestFailed(resource: "R1", errorCode: "x", details: ""))))
        #expect(
            !Ownership.canStart(
                checkAuthZ, with: CallbackRole(.tokenRequestFailed(resource: "R2", errorCode: "x", details: ""))))
        #expect(Ownership.canStart(.logout, with: CallbackRole(.status(code: StatusCode.vsa203, message: nil))))
        #expect(
            !Ownership.canStart(
                .logout, with: CallbackRole(.status(code: StatusCode.configurationThrottled, message: nil))))
        #expect(Ownership.sends(checkAuthZ, .authorize(resource: "R1")))
        #expect(!Ownership.sends(checkAuthZ, .authorize(resource: "R2")))
        #expect(Ownership.sends(getAuthZ, .mediaToken))
        #expect(!Ownership.sends(.checkPreauthorizedResources(["R1"], cache: true), .mediaToken))
        #expect(Ownership.sends(.getAuthentication(forceAuthn: false, data: nil, filter: nil), .tempPassLogin))
    }
}
