import PassModel

extension Engine {
    /// `setRequestor`: fetch the configuration from every SP at the same time.
    mutating func setRequestor(_ requestorID: String, serviceProviders: [String]?, at now: Instant) -> [EngineAction] {
        // A login running now ends with no callback (BEHAVIOR.md, Overlapping calls).
        var actions = abandonLogin()
        logoutState = .idle
        let urls = (serviceProviders ?? [configuration.defaultServiceProvider]).map(EngineConfiguration.normalizeSP)

        // A fetch still in flight is superseded: its setRequestor ends now with 0 (invariant 1).
        let superseded = startup.isFetching
        for r in startup.outstandingRequests { requests[r] = nil; actions += cancelDeadline(of: r) }
        if let old = timers.first(where: { $0.value == .configurationDeadline })?.key { actions += cancelTimer(old) }
        if superseded { actions.append(.deliver(.setRequestorComplete(status: Constants.statusError))) }

        var outstanding: [RequestID: String] = [:]
        var sends: [EngineAction] = []
        for url in urls {
            let request = HTTPRequest(method: "GET", url: url + "/config/" + FormCoding.escape(requestorID), headers: HTTPHeaders([HTTPHeader("Accept", "application/xml")]))
            let (id, a) = send(request, for: .configuration, at: now, deadline: false)
            outstanding[id] = url
            sends += a
        }
        let (deadline, timer) = startTimer(.configurationDeadline, at: now + configuration.requestTimeout)
        _ = startup.start(requestorID: requestorID, requests: outstanding, deadline: deadline)
        return actions + sends + [timer]
    }

    mutating func configurationArrived(_ id: RequestID, _ result: HTTPResult, at now: Instant) -> [EngineAction] {
        guard let settled = startup.receive(id, result: result) else { return [] }
        return configurationSettled(settled, at: now)
    }

    /// All fetches settled: complete the `setRequestor`, then start the queued calls in call order at
    /// this same instant (their callbacks come after `setRequestorComplete(1)`).
    mutating func configurationSettled(_ settled: StartupStateMachine.Settled, at now: Instant) -> [EngineAction] {
        guard case .complete(let config, let deadline) = settled else { return [] }
        var actions = cancelTimer(deadline)
        guard config != nil else {
            actions.append(.deliver(.setRequestorComplete(status: Constants.statusError)))
            return actions
        }
        // The stored selection keeps the SP of the new configuration when the MVPD is still offered.
        if let selected = store.selectedMVPD, let fresh = config?.mvpd(selected.id) { store.selectedMVPD = fresh }
        actions.append(.deliver(.setRequestorComplete(status: Constants.statusSuccess)))
        let waiting = queue
        queue = []
        for call in waiting {
            actions += dispatch(call, at: now)
        }
        return actions
    }
}
