import PassModel
import Testing
@testable import Entitlement

/// The authentication flow alone, without an engine: its transitions that need only its
/// state, and what it tells the registry (the request it waits on, its own timer).
@Suite struct AuthenticationFlowTests {
    typealias Flow = AuthenticationFlow
    static let login = Login(id: LoginID(value: 1), forceAuthn: false, data: nil, authorization: nil)
    static let mvpd = MVPD(id: "X", displayName: "X")
    static let picker = Picker(shown: [mvpd], featured: [])
    static let request = PendingRequest(id: RequestID(7), deadline: TimerID(3))
    static let code = RegistrationCode(code: "ABC", expires: Instant(milliseconds: 1_800_000))

    /// One flow in each state that is not idle.
    static let states: [Flow.State] = [
        .selecting(login),
        .picking(.init(login: login, picker: picker)),
        .browsing(.init(login: login, mvpd: mvpd)),
        .awaitingPromotionData(.init(login: login, mvpd: mvpd)),
        .starting(.init(login: login, mvpd: mvpd, request: request, kind: .tempPass)),
        .awaitingCode(.init(login: login, mvpd: mvpd, code: code, timer: TimerID(4))),
        .awaitingCode(.init(login: login, mvpd: mvpd, code: code, timer: TimerID(4), polls: [request])),
        .fetchingToken(.init(login: login, mvpd: mvpd, request: request, source: .sp)),
    ]

    static func flow(_ state: Flow.State) -> Flow {
        var flow = Flow()
        flow.state = state
        return flow
    }

    @Test func everyStateButIdleIsALogin() {
        #expect(Flow().login == nil)
        for state in Self.states { #expect(Self.flow(state).login == Self.login, "\(state)") }
    }

    /// Abandoning ends the login with no callback; what it waited on is cancelled, and a picker
    /// that is up is dismissed first (BEHAVIOR.md, Apple SSO: every present has its dismiss).
    @Test func abandoningCancelsWhatTheStateWaitsOnAndDismissesThePicker() {
        let expected: [[EngineAction]] = [
            [],
            [.deliver(.dismissTvProviderDialog(shown: Self.picker.shown, featured: []))],
            [],
            [],
            [.cancelTimer(TimerID(3))],
            [.cancelTimer(TimerID(4))],
            [.cancelTimer(TimerID(3)), .cancelTimer(TimerID(4))],
            [.cancelTimer(TimerID(3))],
        ]
        for (state, actions) in zip(Self.states, expected) {
            var flow = Self.flow(state)
            #expect(flow.abandon() == actions, "\(state)")
            #expect(flow.state == .idle)
            #expect(flow.abandon().isEmpty, "abandoning twice: \(state)")
        }
    }

    /// Dismissing the picker leaves the login waiting on the provider dialog; in any other state
    /// it does nothing.
    @Test func dismissingThePickerOnlyActsWhileItIsUp() {
        for state in Self.states {
            var flow = Self.flow(state)
            let actions = flow.dismissPicker()
            if case .picking = state {
                #expect(actions == [.deliver(.dismissTvProviderDialog(shown: Self.picker.shown, featured: []))])
                #expect(flow.state == .selecting(Self.login))
            } else {
                #expect(actions.isEmpty && flow.state == state, "\(state)")
            }
        }
    }

    /// The registry's questions: the request out (claimed by id or by deadline), the poll timer,
    /// which runs whether or not a poll is out (choice 18: a repeating timer).
    @Test func theRegistrySeesTheRequestOrThePollTimerTheStateHolds() {
        for state in Self.states {
            let flow = Self.flow(state)
            let claimed = flow.claim { $0.id == Self.request.id }
            let byDeadline = flow.claim { $0.deadline == Self.request.deadline }
            switch state {
            case .awaitingCode(let s):
                if s.polls.isEmpty {
                    #expect(claimed == nil)
                } else {
                    #expect(
                        claimed?.0 == .authentication && claimed?.1 == Self.request && byDeadline?.1 == Self.request)
                }
                #expect(flow.ownTimers.map(\.0) == [TimerID(4)] && flow.ownTimers.map(\.1) == [.codePoll])
            case .starting, .fetchingToken:
                #expect(
                    claimed?.0 == .authentication && claimed?.1 == Self.request && byDeadline?.1 == Self.request,
                    "\(state)")
                #expect(flow.ownTimers.isEmpty)
            case .idle, .selecting, .picking, .browsing, .awaitingPromotionData:
                #expect(claimed == nil && byDeadline == nil && flow.ownTimers.isEmpty, "\(state)")
            }
        }
    }

    /// A request sent again (after a refused Bearer token) gets its new deadline in whatever state holds it.
    @Test func rearmingGivesTheHeldRequestItsNewDeadline() {
        for state in Self.states {
            var flow = Self.flow(state)
            flow.rearm(Self.request.id, deadline: TimerID(9))
            if flow.outstanding.isEmpty {
                #expect(flow.state == state)
            } else {
                #expect(flow.outstanding == [PendingRequest(id: Self.request.id, deadline: TimerID(9))], "\(state)")
            }
        }
    }
}
