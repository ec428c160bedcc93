import PassModel
import PassXML

/// The web family of an SP (JS AccessEnabler, yt-dlp `adobepass.py`; real-clients.md): the device
/// family's endpoints under their web names, sent without `device_id`. Both families share one
/// state: a browser login is one SP session whose token `session` and `sessionDevice` both hand out.
/// Refusals are `ErrorXML` bodies, as on the device family; a wrong method is 405 (text).
extension SDKFamily {
    /// `route`: one of `ServiceRoute`'s web cases (`MockPass.handleService` hands only those over).
    /// `preauthorize`, `usermetadata` and `logout` have one name in both families and are served
    /// as `Route`'s.
    mutating func handleWebEndpoint(
        _ route: ServiceRoute, _ sp: World.ServiceProvider, _ r: IncomingRequest, in context: inout MockContext,
        at now: Instant
    ) throws(HandlerFailure) -> HTTPResponse {
        guard route.methods.contains(r.method) else { throw .methodNotAllowed(route.methods.joined(separator: ", ")) }
        do throws(HandlerFailure) {
            switch route {
            case .webSession: return try webSession(sp, r, in: &context, at: now)
            case .webAuthorize:
                do {
                    return try authorizeDevice(sp, r, in: context, at: now)
                } catch  where error.status == 403 {
                    // yt-dlp reads `<error><details>` (the MVPD's message) only from a 2xx answer:
                    // the web family answers a refusal 200, its status inside the body (choice 30).
                    var answer = error.response
                    answer.status = 200
                    return answer
                }
            case .webShortAuthorize: return try deviceShortAuthorize(r, at: now)
            case .webGetMetadata:
                // The JS AccessEnabler asks for `text/plain` and hands the whole body to the app as the
                // DEVICEID value, so the web family answers the bare id (choice in CONFORMANCE.md).
                return HTTPResponse(
                    status: 200, contentType: Reply.plainToken, text: try metadataDeviceID(sp, r, in: context, at: now))
            case .assertionConsumer, .logoutResponse, .completePassiveAuthentication, .secondScreenLogin,
                .restCheckAuthentication, .restAuthorize, .restAuthzToken, .restMediaToken, .restMediaTokenOldName,
                .restPreauthorize, .restUserMetadata, .restFreePreview, .restConfig, .individualisation:
                throw .notFound(MockPass.spFamilies)  // not the web family's: not handed over
            }
        } catch {
            throw error.inXML
        }
    }

    /// `session`: as `sessionDevice`, but a client without a login gets 401 "Data not found" (yt-dlp
    /// reads a 401 as "log in first") rather than an empty `<result/>`.
    mutating func webSession(
        _ sp: World.ServiceProvider, _ r: IncomingRequest, in context: inout MockContext,
        at now: Instant
    ) throws(HandlerFailure) -> HTTPResponse {
        _ = try r.required("requestor_id")
        switch currentLogin(sp, r, in: &context, at: now) {
        case .token(let token, let subject): return tokenReply(token, subject: subject, in: context, at: now)
        case .pendingLogout:
            return Reply.xml(
                SessionDeviceXML.build(.pendingLogout), decoded: SessionDeviceXML.Answer(content: .pendingLogout))
        case .none, .codeNotFound: throw .xml(401, SDKFamily.dataNotFound)
        }
    }
}
