import PassModel
import PassXML

/// What the engine reads in REST API v2 answers (rest-api-v2.md 1.3, Adobe's contract): only the
/// fields the SDK's callbacks need, each checked; an answer without them is unusable, and its flow
/// fails as the SDK wire's does on an unusable body. Written from Adobe's
/// pages, not from the mock's encoder, so that one can catch the other.
enum V2Answer {
    /// The JSON object of a response with a status in `statuses`; nil for anything else.
    static func object(_ result: HTTPResult, statuses: ClosedRange<Int> = 200...299) -> Value? {
        guard case .response(let r) = result, statuses.contains(r.status),
            let json = try? Value(jsonBytes: r.body), case .dict = json
        else { return nil }
        return json
    }

    /// An instant in milliseconds, which the contract types as an integer in profiles and decisions
    /// and as a string in sessions (rest-api-v2.md 1.2).
    static func instant(_ v: Value?) -> Instant? {
        if let ms = v?.intValue { return Instant(milliseconds: Int64(ms)) }
        if let text = v?.stringValue, let ms = Int64(text) { return Instant(milliseconds: ms) }
        return nil
    }

    // MARK: Configuration

    /// `GET configuration`: `requestor.id` and `requestor.mvpds`, each with its `id` and `displayName`;
    /// a TempPass among `promotional` (the app's own set-up, choice 79) is a promotional one.
    static func configuration(_ result: HTTPResult, promotional: Set<String>) -> SPConfiguration? {
        guard let requestor = object(result, statuses: 200...200)?["requestor"],
            let id = requestor["id"]?.stringValue, let list = requestor["mvpds"]?.listValue
        else { return nil }
        var mvpds: [MVPD] = []
        for item in list {
            guard let mvpdID = item["id"]?.stringValue, !mvpdID.isEmpty else { return nil }
            mvpds.append(
                MVPD(
                    id: mvpdID, displayName: item["displayName"]?.stringValue ?? mvpdID,
                    logoURL: item["logoUrl"]?.stringValue,
                    enablePlatformServices: item["enablePlatformServices"]?.boolValue ?? false,
                    boardingStatus: item["boardingStatus"]?.stringValue.flatMap(BoardingStatus.init(rawValue:)),
                    tempPass: item["isTempPass"]?.boolValue == true && !promotional.contains(mvpdID),
                    promoTempPass: item["isTempPass"]?.boolValue == true && promotional.contains(mvpdID)))
        }
        return SPConfiguration(requestorID: id, requestorName: requestor["name"]?.stringValue ?? id, mvpds: mvpds)
    }

    // MARK: Sessions

    /// A session answer (`POST sessions`): what to do next.
    struct Session: Hashable, Sendable {
        enum Action: Hashable, Sendable {
            /// A login in a user agent, at `url` (relative to the SP's origin, as Adobe writes it).
            case authenticate(url: String)
            /// No login needed (a live profile, a TempPass, a degraded MVPD): read the profile.
            case authorize
        }
        var action: Action
        var code: String?
        var sessionID: String
        var notAfter: Instant?
    }

    static func session(_ result: HTTPResult) -> Session? {
        guard let json = object(result, statuses: 200...200), let name = json["actionName"]?.stringValue,
            let sessionID = json["sessionId"]?.stringValue
        else { return nil }
        let action: Session.Action
        switch name {
        case "authenticate":
            guard let url = json["url"]?.stringValue, !url.isEmpty, json["code"]?.stringValue != nil else { return nil }
            action = .authenticate(url: url)
        case "authorize":
            action = .authorize
        default:
            return nil  // resume/retry: a parameter is missing, which the engine always sends
        }
        return Session(
            action: action, code: json["code"]?.stringValue, sessionID: sessionID,
            notAfter: instant(json["notAfter"]))
    }

    // MARK: Profiles

    /// One MVPD's profile: how long it lives, its type and its attributes (the user metadata).
    struct Profile: Hashable, Sendable {
        var mvpd: String
        var notBefore: Instant
        var notAfter: Instant
        var type: String
        /// `{updated, encrypted, data}` as the SDK wire's `userMeta`: every attribute's value under
        /// `data`, the keys whose `state` is `enc` under `encrypted`.
        var userMeta: Value

        /// The GUID of a token made from a profile no session of this app named (Apple's partner
        /// profile, a profile `checkAuthentication` finds): the same profile gives the same GUID.
        var impliedSessionID: String { mvpd + "-" + String(notBefore.milliseconds) }
    }

    /// `GET profiles…` (200) or `POST profiles/sso/{partner}` (201): `{profiles: {mvpd: profile}}`,
    /// in the answer's order; nil when the answer is not such a map (an empty map is no profile).
    static func profiles(_ result: HTTPResult) -> [Profile]? {
        guard case .dict(let entries)? = object(result)?["profiles"] else { return nil }
        var profiles: [Profile] = []
        for entry in entries {
            guard let notAfter = instant(entry.value["notAfter"]) else { return nil }
            let notBefore = instant(entry.value["notBefore"]) ?? notAfter
            var data: [Value.Entry] = []
            var encrypted: [Value] = []
            if case .dict(let attributes)? = entry.value["attributes"] {
                for attribute in attributes {
                    data.append(Value.Entry(attribute.key, attribute.value["value"] ?? .null))
                    if attribute.value["state"]?.stringValue == "enc" { encrypted.append(.string(attribute.key)) }
                }
            }
            let meta = Value.dict([
                Value.Entry("updated", .int(0)), Value.Entry("encrypted", .list(encrypted)),
                Value.Entry("data", .dict(data)),
            ])
            profiles.append(
                Profile(
                    mvpd: entry.key, notBefore: notBefore, notAfter: notAfter,
                    type: entry.value["type"]?.stringValue ?? "regular",
                    userMeta: meta))
        }
        return profiles
    }

    /// The authN token the SDK wire would hold for a profile: its MVPD and expiry, and the GUID of the
    /// session it came from (tracking hashes it).
    static func token(_ profile: Profile, sessionID: String, requestorID: String, deviceID: String) -> AuthnToken {
        AuthnToken(
            guid: sessionID, requestorID: requestorID, domainName: "adobe.com", expires: profile.notAfter,
            mvpdID: profile.mvpd, deviceID: deviceID, nameID: "", sessionIndex: "")
    }

    // MARK: Decisions

    /// One decision of `POST decisions/…`.
    struct Decision: Hashable, Sendable {
        var resource: String
        var authorized: Bool
        /// The media token (authorize only): `token.serializedToken`.
        var mediaToken: String?
        /// The decision's own `notAfter` ("after which the decision is not valid"), which Adobe's example
        /// puts past its media token's (about 7 minutes): what the SDK's authZ token expiry maps to.
        var notAfter: Instant?
        /// Why not: the enhanced error's `details`, else its `message`.
        var details: String
    }

    static func decisions(_ result: HTTPResult) -> [Decision]? {
        guard let list = object(result, statuses: 200...200)?["decisions"]?.listValue else { return nil }
        var decisions: [Decision] = []
        for item in list {
            guard let resource = item["resource"]?.stringValue, let authorized = item["authorized"]?.boolValue else {
                return nil
            }
            let error = item["error"]
            decisions.append(
                Decision(
                    resource: resource, authorized: authorized,
                    mediaToken: item["token"]?["serializedToken"]?.stringValue,
                    notAfter: instant(item["notAfter"] ?? item["token"]?["notAfter"]),
                    details: error?["details"]?.stringValue ?? error?["message"]?.stringValue ?? ""))
        }
        return decisions
    }

    // MARK: Logout

    /// `GET logout/{mvpd}`: the user agent's page to open, if the logout is interactive.
    struct Logout: Hashable, Sendable {
        var url: String?
    }

    static func logout(_ result: HTTPResult, mvpd: String) -> Logout? {
        guard let action = object(result, statuses: 200...200)?["logouts"]?[mvpd] else { return nil }
        let interactive = action["actionType"]?.stringValue?.hasSuffix("interactive") ?? false
        return Logout(url: interactive ? action["url"]?.stringValue : nil)
    }
}
