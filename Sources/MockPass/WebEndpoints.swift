import PassModel
import PassXML

/// The web family of an SP (JS AccessEnabler, yt-dlp `adobepass.py`; real-clients.md): the device
/// family's endpoints under their web names, sent without `device_id`. Both families share one
/// state: a browser login is one SP session whose token `session` and `sessionDevice` both hand out.
/// Refusals are `ErrorXML` bodies, as on the device family; a wrong method is 405 (text).
extension MockPass {
    private enum WebRoute {
        case session, authorize, shortAuthorize, getMetadata

        /// `session` is read by GET (the JS SDK) or by POST with `_method=GET` (yt-dlp, AND-1.8).
        var methods: [String] {
            switch self {
            case .session: return ["POST", "GET"]
            default: return ["POST"]
            }
        }
    }

    /// nil when the path is not a web endpoint. `preauthorize`, `usermetadata` and `logout` have one
    /// name in both families and are routed with the device family or the browser's pages.
    private static func webRoute(_ path: String) -> WebRoute? {
        switch path {
        case "/session": return .session
        case "/authorize": return .authorize
        case "/shortAuthorize": return .shortAuthorize
        case "/getMetadata": return .getMetadata
        default: return nil
        }
    }

    mutating func handleWebEndpoint(
        _ sp: World.ServiceProvider, _ r: IncomingRequest,
        at now: Instant
    ) throws(HandlerFailure) -> HTTPResponse? {
        guard let route = MockPass.webRoute(r.path) else { return nil }
        guard route.methods.contains(r.method) else { throw .methodNotAllowed(route.methods.joined(separator: ", ")) }
        do throws(HandlerFailure) {
            switch route {
            case .session: return try webSession(sp, r, at: now)
            case .authorize:
                do {
                    return try authorizeDevice(sp, r, at: now)
                } catch  where error.status == 403 {
                    // yt-dlp reads `<error><details>` (the MVPD's message) only from a 2xx answer:
                    // the web family answers a refusal 200, its status inside the body (choice 30).
                    var answer = error.response
                    answer.status = 200
                    return answer
                }
            case .shortAuthorize: return try deviceShortAuthorize(r, at: now)
            case .getMetadata:
                // The JS AccessEnabler asks for `text/plain` and hands the whole body to the app as the
                // DEVICEID value, so the web family answers the bare id (choice in CONFORMANCE.md).
                return HTTPResponse(
                    status: 200, contentType: Reply.plainToken, text: try metadataDeviceID(sp, r, at: now))
            }
        } catch {
            throw error.inXML
        }
    }

    /// `session`: as `sessionDevice`, but a client without a login gets 401 "Data not found" (yt-dlp
    /// reads a 401 as "log in first") rather than an empty `<result/>`.
    mutating func webSession(
        _ sp: World.ServiceProvider, _ r: IncomingRequest,
        at now: Instant
    ) throws(HandlerFailure) -> HTTPResponse {
        _ = try r.required("requestor_id")
        switch currentLogin(sp, r, at: now) {
        case .token(let token, let subject): return tokenReply(token, subject: subject, at: now)
        case .pendingLogout:
            return Reply.xml(
                SessionDeviceXML.build(.pendingLogout), decoded: SessionDeviceXML.Answer(content: .pendingLogout))
        case .none, .codeNotFound: throw .xml(401, MockPass.dataNotFound)
        }
    }
}
