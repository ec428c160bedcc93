import PassModel

/// The rules, as data. Citations name Adobe's REST API V2 Checklist
/// (`AdobeDocs/pass.en`, `help/authentication/integration-guide-programmers/rest-apis/rest-api-v2/rest-api-v2-checklist.md`)
/// by section and row, or the throttling page as `docs/spec/reference/rest-api-v2.md` 1.10 records it.
/// Liveness rules are passim's, each tied to the checklist row whose risk it guards.
public enum Rules {
    static let checklist = "Adobe REST API V2 Checklist"
    static func mandatory(_ section: String, _ row: String) -> String {
        "\(checklist), Mandatory Requirements \(section), \"\(row)\""
    }
    static func recommended(_ section: String, _ row: String) -> String {
        "\(checklist), Recommended Practices \(section), \"\(row)\""
    }
    static let throttling = "pass.en throttling-mechanism.md (docs/spec/reference/rest-api-v2.md 1.10)"

    static let noV2 = "the journal holds no REST API v2 call"
    /// The SDKs register through DCR too; the checklist's registration rows are a REST v2 client's.
    static let dcrWithoutV2 =
        "the client makes no REST API v2 call (an SDK's registration is not judged by the REST v2 checklist)"
    static let noStatus =
        "the journal does not record answers (status): take it from a passim whose GET /admin/log writes \"status\""

    /// Every rule, in the order reports list them.
    public static let all: [Rule] = [
        // 1. Registration
        Rule(
            id: "v2.registered-application-scoping", title: "Use a registered application with REST API v2 scope",
            citation: mandatory("1", "Registered Application Scoping"), severity: .mandatory, families: [.restV2]
        ) { j in
            judge(j, over: { $0.isV2ClientCall }, needsStatus: true) { calls in
                Findings(
                    calls.lazy.filter {
                        $0.errorCode == "invalid_access_token_service_provider"
                            || $0.errorCode == "invalid_access_token_client_application"
                    }
                    .map {
                        Violation(
                            "a call was refused: its access token's application is not registered for this service provider (\($0.errorCode ?? ""))",
                            [$0])
                    })
            }
        },
        Rule(
            id: "v2.client-credentials-caching", title: "Register once, reuse the client credentials",
            citation: mandatory("1", "Client Credentials Caching"), severity: .mandatory, families: [.restV2]
        ) { j in
            guard j.hasV2Calls else { return .notApplicable(dcrWithoutV2) }
            return judge(
                j, over: { $0.route == .clientRegister }, needsStatus: true,
                none: "the journal holds no client registration"
            ) { regs in
                let ok = regs.filter { $0.succeeded == true }
                return Findings(
                    ok.count > 1
                        ? [
                            Violation(
                                "the client registered \(ok.count) times instead of reusing its client credentials", ok)
                        ] : [])
            }
        },
        Rule(
            id: "v2.access-token-caching", title: "Reuse the access token until it expires",
            citation: mandatory("1", "Access Tokens Caching"), severity: .mandatory, families: [.restV2]
        ) { j in
            guard j.hasV2Calls else { return .notApplicable(dcrWithoutV2) }
            return judge(
                j, over: { $0.route == .clientToken }, needsStatus: true,
                none: "the journal holds no access token request"
            ) { _ in
                accessTokenRefetches(j)
            }
        },
        // 2. Configuration
        Rule(
            id: "v2.configuration-retrieval", title: "Fetch the configuration only to let the user pick an MVPD",
            citation: mandatory("2", "Configuration Retrieval"), severity: .mandatory, families: [.restV2]
        ) { j in
            judge(
                j, over: { $0.v2?.operation == .configuration }, needsStatus: true,
                none: "the client never fetched the configuration"
            ) { _ in
                configurationWhileAuthenticated(j)
            }
        },
        Rule(
            id: "v2.tv-provider-selection-caching", title: "Persist the user's MVPD selection",
            citation: mandatory("2", "TV Provider Selection Caching"), severity: .mandatory, families: [.restV2]
        ) { _ in
            .notApplicable("persistent storage across launches does not show on the wire")
        },
        // 3. Authentication
        Rule(
            id: "v2.polling-starting", title: "Start polling at the right moment",
            citation: mandatory("3", "Polling Mechanism Starting"), severity: .mandatory, families: [.restV2]
        ) { _ in
            .notApplicable(
                "when the browser reached redirectUrl, or when the code was shown, does not show on the wire")
        },
        Rule(
            id: "v2.polling-stopping", title: "Stop polling at success, at a code's expiry, at a new code",
            citation: mandatory("3", "Polling Mechanism Stopping"), severity: .mandatory, families: [.restV2, .restV1]
        ) { j in
            judge(
                j, over: { $0.polledCode != nil }, needsStatus: true, none: "the client polled no authentication code"
            ) { _ in
                pollingAfterStop(j)
            }
        },
        Rule(
            id: "v2.polling-configuring", title: "Poll every 3 s or slower",
            citation: mandatory("3", "Polling Mechanism Configuring"), severity: .mandatory,
            families: [.restV2, .restV1]
        ) { j in
            judge(
                j, over: { $0.polledCode != nil }, needsStatus: false, none: "the client polled no authentication code"
            ) { polls in
                var last: [String: ClassifiedRequest] = [:]
                var found = Findings()
                for p in polls {
                    let key = p.device + " " + (p.polledCode ?? "")
                    if let prev = last[key], p.time - prev.time < 3000 {
                        found.append(
                            Violation(
                                "polled code \(p.polledCode ?? "") \(Journal.seconds(p.time - prev.time)) after the previous poll (at least 3 s)",
                                [prev, p]))
                    }
                    last[key] = p
                }
                return found
            }
        },
        Rule(
            id: "v2.profiles-caching", title: "Cache the profile's MVPD and attributes",
            citation: mandatory("3", "Profiles Caching"), severity: .mandatory, families: [.restV2]
        ) { _ in
            .notApplicable("profiles and their validity are answer bodies, which the journal does not hold")
        },
        // 4. Preauthorization
        Rule(
            id: "v2.preauthorization-not-for-playback", title: "Preauthorization is never a playback decision",
            citation: mandatory("4", "Preauthorization Decisions Retrieval"), severity: .mandatory, families: [.restV2]
        ) { _ in
            .notApplicable("playback does not show on the wire")
        },
        Rule(
            id: "v2.preauthorization-retry",
            title: "Retry a preauthorization 2-3 times at most, and only when its action says retry",
            citation: mandatory("4", "Preauthorization Decisions Retrieval Retry"), severity: .mandatory,
            families: [.restV2]
        ) { j in
            judge(
                j, over: { $0.v2?.operation == .preauthorize }, needsStatus: true,
                none: "the client asked for no preauthorization"
            ) { calls in
                retries(calls)
            }
        },
        Rule(
            id: "v2.preauthorization-caching", title: "Cache permit preauthorization decisions in memory",
            citation: mandatory("4", "Preauthorization Decisions Caching"), severity: .mandatory, families: [.restV2]
        ) { _ in
            .notApplicable(
                "the resources asked and the decisions given are JSON bodies, which the journal does not hold")
        },
        // 5. Authorization
        Rule(
            id: "v2.authorization-before-playback", title: "Obtain an authorization decision before each playback",
            citation: mandatory("5", "Authorization Decisions Retrieval"), severity: .mandatory, families: [.restV2]
        ) { _ in
            .notApplicable("playback does not show on the wire")
        },
        Rule(
            id: "v2.authorization-retry",
            title: "Retry an authorization 2-3 times at most, and only when its action says retry",
            citation: mandatory("5", "Authorization Decisions Retrieval Retry"), severity: .mandatory,
            families: [.restV2]
        ) { j in
            judge(
                j, over: { $0.v2?.operation == .authorize }, needsStatus: true,
                none: "the client asked for no authorization"
            ) { calls in
                retries(calls)
            }
        },
        // 6. Logout
        Rule(
            id: "v2.logout-support", title: "Implement logout and follow each profile's action",
            citation: mandatory("6", "Logout Support"), severity: .mandatory, families: [.restV2]
        ) { _ in
            .notApplicable(
                "whether the app offers logout, and what it does with the answer's url, does not show on the wire")
        },
        // 7. Parameters and headers
        Rule(
            id: "v2.authorization-header", title: "Send Authorization: Bearer on every REST API v2 call",
            citation: mandatory("7", "Send Authorization Header"), severity: .mandatory, families: [.restV2]
        ) { j in
            judge(j, over: { $0.isV2ClientCall }, needsStatus: false) { calls in
                Findings(
                    calls.lazy.filter { !($0.header("Authorization")?.hasPrefix("Bearer ") ?? false) }
                        .map { Violation("a call without Authorization: Bearer", [$0]) })
            }
        },
        Rule(
            id: "v2.device-identifier", title: "Send AP-Device-Identifier on every REST API v2 call",
            citation: mandatory("7", "Send AP-Device-Identifier Header"), severity: .mandatory, families: [.restV2]
        ) { j in
            judge(j, over: { $0.isV2ClientCall }, needsStatus: false) { calls in
                Findings(
                    calls.lazy.filter { !($0.header("AP-Device-Identifier")?.hasPrefix("fingerprint ") ?? false) }
                        .map { Violation("a call without AP-Device-Identifier: fingerprint …", [$0]) })
            }
        },
        Rule(
            id: "v2.device-info", title: "Send X-Device-Info on every REST API v2 call",
            citation: mandatory("7", "Send X-Device-Info Header"), severity: .mandatory, families: [.restV2]
        ) { j in
            judge(j, over: { $0.isV2ClientCall }, needsStatus: false) { calls in
                Findings(
                    calls.lazy.filter { ($0.header("X-Device-Info") ?? "").isEmpty }.map {
                        Violation("a call without X-Device-Info", [$0])
                    })
            }
        },
        Rule(
            id: "v2.stable-device-identifier", title: "Keep one device identifier",
            citation: mandatory("7", "Stable Device Identifier"), severity: .mandatory, families: [.restV2]
        ) { j in
            judge(j, over: { $0.isV2ClientCall && $0.header("AP-Device-Identifier") != nil }, needsStatus: false) {
                calls in
                // One client: the same access token (or forwarded address) must keep one device identifier.
                var first: [String: ClassifiedRequest] = [:]
                var found = Findings()
                for c in calls {
                    let client =
                        c.header("X-Forwarded-For").map { "ip " + $0 } ?? c.header("Authorization") ?? "anonymous"
                    guard let prev = first[client] else { first[client] = c; continue }
                    if prev.header("AP-Device-Identifier") != c.header("AP-Device-Identifier") {
                        found.append(Violation("the same client sent another AP-Device-Identifier", [prev, c]))
                        first[client] = c
                    }
                }
                return found
            }
        },
        Rule(
            id: "v2.follow-api-references", title: "Send only the parameters and headers REST API v2 expects",
            citation: mandatory("7", "Follow APIs References"), severity: .mandatory, families: [.restV2]
        ) { j in
            judge(j, over: { $0.isV2ClientCall }, needsStatus: false) { calls in
                var found = Findings()
                for c in calls {
                    guard let op = c.v2?.operation else { continue }
                    let expected = expectedParameters[op] ?? []
                    let unknown = c.parameters.map(\.name).filter { !expected.contains($0) }
                    if let name = unknown.first {
                        found.append(Violation("parameter \(name.prefix(64)) is not one \(op.rawValue) takes", [c]))
                    } else if let code = c.errorCode,
                        code.hasPrefix("invalid_header_") || code.hasPrefix("invalid_parameter_")
                    {
                        found.append(Violation("refused for what it sent: \(code)", [c]))
                    }
                }
                return found
            }
        },
        // 8. Error handling
        Rule(
            id: "v2.enhanced-error-handling",
            title: "Follow an enhanced error code's action: repeat a call only when it says retry",
            citation: mandatory("8", "Enhanced Error Code Handling Support"), severity: .mandatory, families: [.restV2]
        ) { j in
            judge(j, over: { $0.isV2ClientCall }, needsStatus: true) { calls in
                var found = Findings()
                var previous: [String: ClassifiedRequest] = [:]
                for c in calls {
                    // Unchanged: the same operation with the same parameters, resources and token. A client
                    // that fixes a parameter after action none, asks for another resource after a deny, or
                    // calls with a new token after application-registration, follows the action.
                    if let prev = previous[c.device], let action = prev.errorAction, action != "retry",
                        prev.call == c.call, prev.parameters == c.parameters,
                        prev.header("Authorization") == c.header("Authorization")
                    {
                        found.append(
                            Violation(
                                "repeated the call unchanged after an error whose action is \(action)", [prev, c]))
                    }
                    previous[c.device] = c
                }
                return found
            }
        },
        Rule(
            id: "live.refusal-loop", title: "No retry loop on a refusal (at most 3 repeats of a refused call)",
            citation: mandatory("8", "HTTP Error Handling Support") + "; passim liveness rule",
            severity: .mandatory, families: Family.allCases
        ) { j in
            judge(j, over: { !$0.families.isEmpty }, needsStatus: true, none: "the journal holds no client call") {
                calls in
                refusalLoops(calls)
            }
        },
        // 9. Testing
        Rule(
            id: "v2.lifecycle-testing", title: "Test in Adobe's non-production environments first",
            citation: mandatory("9", "Lifecycle Testing"), severity: .mandatory, families: [.restV2]
        ) { _ in
            .notApplicable("which Adobe environment a client was tested in does not show in passim's journal")
        },
        // Recommended practices
        Rule(
            id: "v2.access-token-validation", title: "On a 401, refresh the access token before retrying",
            citation: recommended("1", "Access Tokens Validation"), severity: .recommended, families: [.restV2]
        ) { j in
            guard j.hasV2Calls else { return .notApplicable(dcrWithoutV2) }
            return judge(j, over: { $0.isV2ClientCall || $0.isDCR }, needsStatus: true) { calls in
                var found = Findings()
                var refused: [String: ClassifiedRequest] = [:]
                for c in calls {
                    if c.route == .clientToken { refused = [:]; continue }
                    guard c.isV2ClientCall else { continue }
                    let key = c.method + " " + c.path
                    if let prev = refused[key] {
                        found.append(
                            Violation("retried a call refused with 401 without refreshing the access token", [prev, c]))
                        refused[key] = nil
                    }
                    if c.status == 401 { refused[key] = c }
                }
                return found
            }
        },
        Rule(
            id: "v2.configuration-caching", title: "Cache the configuration for a few minutes",
            citation: recommended("2", "Configuration Caching"), severity: .recommended, families: [.restV2]
        ) { j in
            judge(
                j, over: { $0.v2?.operation == .configuration }, needsStatus: false,
                none: "the client never fetched the configuration"
            ) { calls in
                var last: [String: ClassifiedRequest] = [:]
                var found = Findings()
                for c in calls {
                    if let prev = last[c.device + c.path], c.time - prev.time < 180_000 {
                        found.append(
                            Violation(
                                "fetched the configuration again \(Journal.seconds(c.time - prev.time)) later (cache it 3-5 min)",
                                [prev, c]))
                    }
                    last[c.device + c.path] = c
                }
                return found
            }
        },
        Rule(
            id: "v2.no-automatic-logout", title: "Never log out on a deny",
            citation: recommended("6", "User Experience")
                + "; rest-api-v2.md 1.7 \"Logout: only on user request, never on a deny\"",
            severity: .recommended, families: [.restV2]
        ) { j in
            judge(j, over: { $0.isV2ClientCall }, needsStatus: true) { calls in
                var found = Findings()
                var deny: [String: ClassifiedRequest] = [:]
                for c in calls {
                    guard let op = c.v2?.operation else { continue }
                    if op == .authorize || op == .preauthorize {
                        deny[c.device] = c.status == 403 || c.refusedInside || !c.deniedResources.isEmpty ? c : nil
                    }
                    if op == .logout, let d = deny[c.device], c.time - d.time < 10_000 {
                        found.append(
                            Violation(
                                "logged out \(Journal.seconds(c.time - d.time)) after a denied decision, with no call between",
                                [d, c]))
                    } else if op != .authorize && op != .preauthorize {
                        deny[c.device] = nil
                    }
                }
                return found
            }
        },
        // Throttling
        Rule(
            id: "throttle.wait-after-429", title: "Wait after a 429: at least 1 s, or as long as its Retry-After says",
            citation: throttling, severity: .mandatory, families: [.restV2, .restV1, .sdkWire]
        ) { j in
            judge(j, over: { $0.isThrottled }, needsStatus: true, none: "the journal holds no throttled call") {
                calls in
                var found = Findings()
                var throttled: [String: ClassifiedRequest] = [:]
                for c in calls {
                    // At least 1 s, longer when the 429's Retry-After says so.
                    if let t = throttled[c.device], c.sequence != t.sequence {
                        let wait = Int64(max(1, t.retryAfter ?? 1)) * 1000
                        if c.time - t.time < wait {
                            found.append(
                                Violation(
                                    "called again \(Journal.seconds(c.time - t.time)) after a 429 (wait at least \(wait / 1000) s\(t.retryAfter == nil ? "" : ", its Retry-After"))",
                                    [t, c]))
                        }
                    }
                    if c.status == 429 { throttled[c.device] = c }
                }
                return found
            }
        },
        Rule(
            id: "throttle.within-bucket", title: "Stay within the throttle (10 at once, then 1 a second)",
            citation: throttling, severity: .recommended, families: [.restV2, .restV1, .sdkWire]
        ) { j in
            judge(j, over: { $0.isThrottled }, needsStatus: true, none: "the journal holds no throttled call") {
                calls in
                Findings(calls.lazy.filter { $0.status == 429 }.map { Violation("throttled: answered 429", [$0]) })
            }
        },
        // Liveness
        Rule(
            id: "live.session-storm", title: "No storm of new authentication sessions (at most 3 a minute per device)",
            citation: mandatory("3", "Polling Mechanism Stopping")
                + " (\"New authentication code generated\"); passim liveness rule",
            severity: .mandatory, families: Family.allCases
        ) { j in
            judge(j, over: { $0.opensSession }, needsStatus: false, none: "the client opened no authentication session")
            { opens in
                sessionStorms(opens)
            }
        },
    ]

    /// The parameters (query and form) each REST v2 operation takes (rest-api-v2.md 1.3).
    static let expectedParameters: [V2Route.Operation: Set<String>] = [
        .createSession: ["mvpd", "domainName", "redirectUrl"],
        .resumeSession: ["mvpd", "domainName", "redirectUrl"],
        .logout: ["redirectUrl"],
        .partnerSession: ["domainName", "redirectUrl"],
        .partnerProfile: ["SAMLResponse"],
    ]

    public static func rule(_ id: String) -> Rule? { all.first { $0.id == id } }

    /// Runs `find` over the entries `select` keeps; not applicable when there are none, or when the
    /// rule needs answers and the journal does not record them.
    static func judge(
        _ j: Journal, over select: (ClassifiedRequest) -> Bool, needsStatus: Bool, none: String = noV2,
        _ find: ([ClassifiedRequest]) -> Findings
    ) -> Verdict {
        let selected = j.entries.filter(select)
        guard !selected.isEmpty else { return .notApplicable(none) }
        if needsStatus, !j.hasStatuses { return .notApplicable(noStatus) }
        let found = find(selected)
        return found.isEmpty ? .passed(checked: selected.count) : .broken(found.violations)
    }
}
