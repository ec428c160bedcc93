import ScenarioSyntax

/// The seeds' elements (every selector and overload of the API reference, the platform and device
/// variants, the status codes and the cookbook's flows), each with the scenarios that exercise it:
/// `passim doc` writes the table, so what no scenario covers shows as a gap that cannot go stale.
///
/// An element is recognised from what a scenario writes: its `>` calls and `<` callbacks (labels,
/// keys and values as the DSL spells them) and its header. The anchors are the seed pages' own
/// (`{#setReq_tvos}` in the API reference, `{#authz_flow}` in the cookbook).
public enum SeedElements {
    public struct Element: Sendable {
        /// The seed page and anchor: `api#setReq_tvos`, `cookbook#authz_flow`; `BEHAVIOR.md` for what
        /// the seeds do not name (the SDK's status codes other than VSA203).
        public var anchor: String
        /// The selector or section as the seed names it, and the variant this row is about.
        public var element: String
        public var variant: String
        let matches: @Sendable (ScenarioFile) -> Bool
    }

    /// A scenario's `>` steps (or `<` steps), as written, without the app's prefix and arrow.
    static func steps(_ file: ScenarioFile, calls: Bool) -> [String] {
        file.steps.compactMap { step in
            switch step.value {
            case .call where calls, .expect where !calls:
                guard let arrow = step.text.firstIndex(where: { $0 == ">" || $0 == "<" }) else { return nil }
                return String(step.text[step.text.index(after: arrow)...]).trimmingPrefixSpaces
            default: return nil
            }
        }
    }

    /// Some `>` step matches `pattern` whole (a pattern that does not compile matches nothing, and the
    /// test of every element's pattern fails).
    static func call(_ pattern: String) -> @Sendable (ScenarioFile) -> Bool {
        { file in anyStep(file, calls: true, pattern) }
    }

    static func callback(_ pattern: String) -> @Sendable (ScenarioFile) -> Bool {
        { file in anyStep(file, calls: false, pattern) }
    }

    static func anyStep(_ file: ScenarioFile, calls: Bool, _ pattern: String) -> Bool {
        guard let regex = try? Regex(pattern) else { return false }
        return steps(file, calls: calls).contains { $0.wholeMatch(of: regex) != nil }
    }

    static func e(
        _ anchor: String, _ element: String, _ variant: String, _ matches: @escaping @Sendable (ScenarioFile) -> Bool
    ) -> Element {
        Element(anchor: anchor, element: element, variant: variant, matches: matches)
    }

    static func all(_ predicates: (@Sendable (ScenarioFile) -> Bool)...) -> @Sendable (ScenarioFile) -> Bool {
        let list = predicates
        return { file in list.allSatisfy { $0(file) } }
    }

    static func tvos(_ file: ScenarioFile) -> Bool { file.platform == .tvos }
    static func ios(_ file: ScenarioFile) -> Bool { file.platform == .ios }
    static func device(_ name: String) -> @Sendable (ScenarioFile) -> Bool {
        { file in file.device.rawValue == name }
    }
    /// A cookbook flow: a scenario named after the cookbook's section (`cookbook-c-…`).
    static func cookbook(_ letter: String) -> @Sendable (ScenarioFile) -> Bool {
        { file in (file.path.split(separator: "/").last ?? "").hasPrefix("cookbook-\(letter)-") }
    }

    public static let elements: [Element] = [
        e("api#initWithSoftwareStatement", "init:softwareStatement", "", call(#"init\(softwareStatement: .+\)"#)),
        e("api#init", "init (deprecated)", "", call(#"init\(\)"#)),
        e("api#setOptions", "setOptions:", "any option", call(#"setOptions\(.+\)"#)),
        e("api#setOptions", "setOptions:", "device_info", call(#"setOptions\(.*device_info.*\)"#)),
        e("api#setOptions", "setOptions:", "handleSVC: true", call(#"setOptions\(.*handleSVC: true.*\)"#)),
        e("api#setOptions", "setOptions:", "handleSVC: false", call(#"setOptions\(.*handleSVC: false.*\)"#)),
        e("api#setReqV3", "setRequestor:", "", call(#"setRequestor\("[^"]*"\)"#)),
        e(
            "api#setReqV3", "setRequestor:serviceProviders:", "",
            call(#"setRequestor\("[^"]*", serviceProviders: .+\)"#)),
        e("api#setReq", "setRequestor:setSignedRequestorId:", "", call(#"setRequestor\(.*signedRequestorID: [^,]+\)"#)),
        e(
            "api#setReq", "setRequestor:setSignedRequestorId:serviceProviders:", "",
            call(#"setRequestor\(.*signedRequestorID: .*, serviceProviders: [^:]+\)"#)),
        e(
            "api#setReq_tvos", "setRequestor:setSignedRequestorId:secret:publicKey:", "",
            all(call(#"setRequestor\(.*secret: .*publicKey: .+\)"#), { !call(#".*serviceProviders.*"#)($0) })),
        e(
            "api#setReq_tvos", "setRequestor:setSignedRequestorId:serviceProviders:secret:publicKey:", "",
            call(#"setRequestor\(.*serviceProviders: .*secret: .*publicKey: .+\)"#)),
        e("api#setReqComplete", "setRequestorComplete:", "success", callback(#"setRequestorComplete\(1\).*"#)),
        e("api#setReqComplete", "setRequestorComplete:", "failure", callback(#"setRequestorComplete\(0\).*"#)),
        e("api#checkAuthN", "checkAuthentication", "", call(#"checkAuthentication\(\)"#)),
        e("api#getAuthN", "getAuthentication", "", call(#"getAuthentication\(\)"#)),
        e("api#getAuthN", "getAuthentication:withData:", "", call(#"getAuthentication\(.*withData: .+\)"#)),
        e(
            "api#getAuthN", "getAuthentication:withData:", "forceAuthn: true",
            call(#"getAuthentication\(forceAuthn: true.*\)"#)),
        e("api#getAuthN_filter", "getAuthentication:filter:", "", call(#"getAuthentication\(filter: .+\)"#)),
        e(
            "api#getAuthN_filter", "getAuthentication:withData:andFilter:", "",
            call(#"getAuthentication\(.*withData: .*filter: .+\)"#)),
        e(
            "api#getAuthN_filter", "getAuthentication:filter:", "FEATURED_TV_PROVIDERS",
            call(#"getAuthentication\(.*FEATURED_TV_PROVIDERS.*\)"#)),
        e("api#dispProvDialog", "displayProviderDialog:", "", callback(#"displayProviderDialog\(.*\).*"#)),
        e("api#setSelProv", "setSelectedProvider:", "an MVPD", call(#"setSelectedProvider\([A-Za-z_$"].*\)"#)),
        e("api#setSelProv", "setSelectedProvider:", "nil (cancel)", call(#"setSelectedProvider\(nil\)"#)),
        e("api#nav2url", "navigateToUrl:", "", callback(#"navigateToUrl\([^,]*\).*"#)),
        e("api#nav2urlSVC", "navigateToUrl:useSVC:", "", callback(#"navigateToUrl\(.*, true\).*"#)),
        e("api#handleExternalURL", "handleExternalURL:", "", call(#"handleExternalURL\(.+\)"#)),
        e("api#getAuthNToken", "getAuthenticationToken (deprecated)", "", call(#"getAuthenticationToken\(\)"#)),
        e(
            "api#setAuthNStatus", "setAuthenticationStatus:errorCode:", "authenticated",
            callback(#"setAuthenticationStatus\(1, .*"#)),
        e(
            "api#setAuthNStatus", "setAuthenticationStatus:errorCode:", "not authenticated",
            callback(#"setAuthenticationStatus\(0, .*"#)),
        e("api#checkPreauth", "checkPreauthorizedResources:", "", call(#"checkPreauthorizedResources\(\[[^\]]*\]\)"#)),
        e(
            "api#checkPreauthCache", "checkPreauthorizedResources:cache:", "",
            call(#"checkPreauthorizedResources\(.*cache: .+\)"#)),
        e("api#preauthResources", "preauthorizedResources:", "", callback(#"preauthorizedResources\(.*\).*"#)),
        e("api#checkAuthZ", "checkAuthorization:", "", call(#"checkAuthorization\("[^"]*"\)"#)),
        e("api#checkAuthZ", "checkAuthorization:withData:", "", call(#"checkAuthorization\(.*withData: .+\)"#)),
        e("api#getAuthZ", "getAuthorization:", "", call(#"getAuthorization\("[^"]*"\)"#)),
        e("api#getAuthZ", "getAuthorization:withData:", "", call(#"getAuthorization\(.*withData: .+\)"#)),
        e("api#setToken", "setToken:forResource:", "", callback(#"setToken\(.*\).*"#)),
        e(
            "api#tokenReqFailed", "tokenRequestFailed:errorCode:errorDescription:", "",
            callback(#"tokenRequestFailed\(.*\).*"#)),
        e("api#logout", "logout", "iOS", all(ios, call(#"logout\(\)"#))),
        e("api#logout", "logout", "tvOS", all(tvos, call(#"logout\(\)"#))),
        e("api#getSelProv", "getSelectedProvider", "", call(#"getSelectedProvider\(\)"#)),
        e("api#selProv", "selectedProvider:", "", callback(#"selectedProvider\(.*\).*"#)),
        e("api#getMeta", "getMetadata:", "iOS", all(ios, call(#"getMetadata\(.+\)"#))),
        e("api#getMeta", "getMetadata:", "tvOS", all(tvos, call(#"getMetadata\(.+\)"#))),
        e("api#getMeta", "getMetadata:", "user metadata", call(#"getMetadata\(.*METADATA_USER_META.*\)"#)),
        e(
            "api#getMeta", "getMetadata:", "user metadata userID",
            call(#"getMetadata\(.*METADATA_USER_META_KEY: "userID".*\)"#)),
        e("api#presentTvDialog", "presentTvProviderDialog:", "", callback(#"presentTvProviderDialog\(.*\).*"#)),
        e("api#dismissTvDialog", "dismissTvProviderDialog:", "", callback(#"dismissTvProviderDialog\(.*\).*"#)),
        e(
            "api#setMetaStatus", "setMetadataStatus:encrypted:forKey:andArguments:", "",
            callback(#"setMetadataStatus\(.*\).*"#)),
        e(
            "api#setMetaStatus", "setMetadataStatus:encrypted:forKey:andArguments:", "encrypted, user metadata",
            callback(#"setMetadataStatus\(.*, true, METADATA_USER_META, .*\).*"#)),
        // Seeds (setMetaStatus): `encrypted` matters for user metadata only; static metadata (TTLs,
        // device id) always comes unencrypted, so that is the variant to pin for the other opcodes.
        e(
            "api#setMetaStatus", "setMetadataStatus:encrypted:forKey:andArguments:", "static metadata unencrypted",
            callback(#"setMetadataStatus\(.*, false, METADATA_(AUTHENTICATION|AUTHORIZATION|DEVICE_ID), .*\).*"#)),
        e("api#mvpd", "MVPD", "logoURL asserted", callback(#".*logoURL: .*"#)),
        e("api#mvpd", "MVPD", "boardingStatus PICKER asserted", callback(#".*boardingStatus: "?PICKER.*"#)),
        e("api#mvpd", "MVPD", "boardingStatus SUPPORTED asserted", callback(#".*boardingStatus: "?SUPPORTED.*"#)),
        e("api#mvpd", "MVPD", "enablePlatformServices true asserted", callback(#".*enablePlatformServices: true.*"#)),
        e(
            "api#sendTracking", "sendTrackingData:forEventType:", "authentication",
            callback(#"sendTrackingData\(TRACKING_AUTHENTICATION, .*"#)),
        e(
            "api#sendTracking", "sendTrackingData:forEventType:", "authorization",
            callback(#"sendTrackingData\(TRACKING_AUTHORIZATION, .*"#)),
        e(
            "api#sendTracking", "sendTrackingData:forEventType:", "selected provider",
            callback(#"sendTrackingData\(TRACKING_GET_SELECTED_PROVIDER, .*"#)),
        e("api#sendTracking", "device type", "mobile", device("mobile")),
        e("api#sendTracking", "device type", "tablet", device("tablet")),
        e("api#sendTracking", "device type", "computer", device("computer")),
        e("api#sendTracking", "device type", "gameconsole", device("gameconsole")),
        e("api#sendTracking", "device type", "unknown", device("unknown")),
        e("api#logout", "status:", "VSA203", callback(#"status\(VSA203.*"#)),
        e("BEHAVIOR.md", "status:", "N003", callback(#"status\(N003.*"#)),
        e("BEHAVIOR.md", "status:", "N005", callback(#"status\(N005.*"#)),
        e("BEHAVIOR.md", "status:", "REGCODE", callback(#"status\(REGCODE.*"#)),
        e("BEHAVIOR.md", "status:", "R400", callback(#"status\(R400.*"#)),
        e("BEHAVIOR.md", "status:", "REG500", callback(#"status\(REG500.*"#)),
        e("BEHAVIOR.md", "status:", "CFG429", callback(#"status\(CFG429.*"#)),
        e("BEHAVIOR.md", "status:", "Z100", callback(#"status\(Z100.*"#)),
        e("BEHAVIOR.md", "status:", "P100", callback(#"status\(P100.*"#)),
        e("cookbook#startup_flow", "B. Startup flow", "", cookbook("b")),
        e("cookbook#authn_flow_wo_applesso", "C. Authentication without Apple SSO", "", cookbook("c")),
        e("cookbook#authn_flow_with_applesso", "D. Authentication with Apple SSO on iOS", "", cookbook("d")),
        e("cookbook#authn_flow_with_applesso_tvOS", "E. Authentication with Apple SSO on tvOS", "", cookbook("e")),
        e("cookbook#authz_flow", "F. Authorization flow", "", cookbook("f")),
        e("cookbook#logout_flow_wo_AppleSSO", "H. Logout without Apple SSO", "", cookbook("h")),
        e("cookbook#logout_flow_with_AppleSSO", "I. Logout with Apple SSO", "", cookbook("i")),
    ]

    /// The generated page: one row per element, with links to the scenarios' pages.
    /// `specLink`: the seeds' description (docs/spec/README.md) from the page's folder, when it is
    /// there; pages written elsewhere name the file without a link that would not resolve.
    static func page(_ entries: [CallbackDocs.Entry], specLink: String? = "../spec/README.md") -> CallbackDocs.Page {
        let spec =
            specLink.map { "[spec/README.md](\($0)#adobes-pages)" } ?? "docs/spec/README.md in passim's repository"
        var out = CallbackDocs.header + "# Seed elements and the scenarios that exercise them\n\n"
        out +=
            "Every selector, overload and variant of Adobe's iOS/tvOS API reference (`api#…`: its sections' "
            + "anchors), the status codes, device types and the cookbook's flows (`cookbook#…`), each with the "
            + "scenarios whose calls, callbacks or header exercise it. The two pages, their URLs and the "
            + "translations the project first received them in (\"the seeds\"): "
            + spec + ". "
            + "Generated by `passim doc` from the scenarios, so it cannot go stale; `docs/CONFORMANCE.md` "
            + "explains it. Back to the [index](index.md).\n\n"
        var uncovered = 0
        var rows = ""
        for element in elements {
            let hits = entries.filter { element.matches($0.file) }
            if hits.isEmpty { uncovered += 1 }
            let links = hits.map { "[\($0.stem)](\($0.area).md#\($0.stem))" }
            let list =
                links.count > 6
                ? links.prefix(6).joined(separator: ", ") + " and \(links.count - 6) more"
                : links.joined(separator: ", ")
            rows +=
                "| `\(element.anchor)` | `\(element.element)` | \(element.variant) | \(hits.count) | \(hits.isEmpty ? "**none**" : list) |\n"
        }
        out +=
            "\(elements.count) elements, \(elements.count - uncovered) exercised by at least one scenario, \(uncovered) by none.\n\n"
        out += "| seed anchor | element | variant | scenarios | which |\n| --- | --- | --- | --- | --- |\n" + rows
        return CallbackDocs.Page(name: "seed-elements.md", text: out)
    }
}

private extension String {
    var trimmingPrefixSpaces: String { String(drop { $0 == " " }) }
}
