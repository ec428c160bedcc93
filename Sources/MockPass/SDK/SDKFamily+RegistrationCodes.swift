import PassModel
import PassXML

/// tvOS registration codes (facts §1 "REST API v1", KB-REGCODE): the device asks for a code, polls
/// `checkauthn`, and a second screen logs in through `/api/v1/authenticate` with that code.
extension SDKFamily {
    static let regCodeLength = 7

    /// `POST /reggie/v1/{requestor}/regcode` → 201 with `id`, `code`, `requestor`, `mvpd` (null when
    /// none), `generated`, `expires` (ms) and `info` (facts §1 "REST API v1"). JSON unless the client
    /// asks for XML (`format=xml`): the engine sends neither and reads JSON. `ttl` (seconds,
    /// at most 36000) overrides the requestor's `regcode-ttl`. Codes never repeat within one run (even
    /// expired ones), so an old code stays "expired" rather than becoming someone else's.
    mutating func createRegistrationCode(
        _ sp: World.ServiceProvider, _ r: IncomingRequest, requestorID: String, in context: inout MockContext,
        at now: Instant
    ) throws(HandlerFailure) -> HTTPResponse {
        let deviceID = try r.required("deviceId")
        let mvpdID = r.parameter("mvpd") ?? ""
        let requestor = try context.knownRequestor(requestorID, at: sp)
        if !mvpdID.isEmpty, !context.world.mvpds(offeredBy: sp, to: requestor).contains(where: { $0.id == mvpdID }) {
            throw .badRequest("MVPD \(mvpdID) is not offered to \(requestorID)")
        }
        var ttl = requestor.regcodeTTL
        if let text = r.parameter("ttl") {
            guard let seconds = Int64(text), seconds > 0, seconds <= MockLimits.regcodeMaxTTLSeconds else {
                throw .badRequest(
                    "ttl must be a number of seconds from 1 to \(MockLimits.regcodeMaxTTLSeconds) (limit: mock-regcode-max-ttl)"
                )
            }
            ttl = .seconds(seconds)
        }
        var code = context.random.code(SDKFamily.regCodeLength)
        while registrationCodes.value(code, at: now) != nil { code = context.random.code(SDKFamily.regCodeLength) }
        let rc = RegistrationCode(
            id: context.random.guid(), code: code, requestorID: requestorID, mvpdID: mvpdID,
            deviceID: deviceID, generated: now, expires: now + ttl)
        registrationCodes.set(code, rc, until: rc.expires + context.limits.expiredMemory)
        let headers = r.request.headers
        let deviceInfo = r.parameter("device_info") ?? headers.first(lowercased: "x-device-info")
        let optional: (String?) -> Value = { $0.map(Value.string) ?? .null }
        let record = RestRecord(
            root: "regcode",
            fields: [
                ("id", .string(rc.id)),
                ("code", .string(rc.code)),
                ("requestor", .string(rc.requestorID)),
                ("mvpd", rc.mvpdID.isEmpty ? .null : .string(rc.mvpdID)),
                ("generated", .int(Int(rc.generated.milliseconds))),
                ("expires", .int(Int(rc.expires.milliseconds))),
                (
                    "info",
                    .dict([
                        Value.Entry("deviceId", .string(deviceID)),
                        Value.Entry("deviceType", optional(r.parameter("deviceType"))),
                        Value.Entry("deviceInfo", optional(deviceInfo)),
                        Value.Entry("userAgent", optional(headers.first(lowercased: "user-agent"))),
                        Value.Entry("appId", optional(r.parameter("appId"))),
                        Value.Entry("appVersion", optional(r.parameter("appVersion"))),
                        Value.Entry("registrationURL", optional(r.parameter("registrationURL"))),
                    ])
                ),
            ])
        return record.response(r.parameter("format")?.lowercased() == "xml" ? .xml : .json, status: 201)
    }

    /// `GET /api/v1/checkauthn/{code}?requestor&deviceId`: 200 once a login used the code, 404 while
    /// it waits, 410 when it expired or is not this device's and requestor's code.
    func checkAuthentication(_ r: IncomingRequest, code: String, at now: Instant) throws(HandlerFailure) -> HTTPResponse
    {
        let requestorID = try r.required("requestor")
        let deviceID = try r.required("deviceId")
        guard let rc = registrationCodes.value(code, at: now), rc.requestorID == requestorID,
            rc.deviceID == deviceID
        else {
            throw .xml(410, "Unknown registration code")
        }
        if let mvpdID = rc.usedWithMVPD {
            let body =
                "<authentication><requestor>\(SafeXML.escape(rc.requestorID))</requestor>"
                + "<mvpd>\(SafeXML.escape(mvpdID))</mvpd></authentication>"
            return Reply.xml(body)
        }
        guard now < rc.expires else { throw .xml(410, "Registration code expired") }
        throw .xml(404, "Not authenticated yet")
    }

    /// The second screen's login: as `authenticate/saml`, for a code that is live, unused and the
    /// requestor's. Refusals are text pages (a browser shows them).
    mutating func authenticateWithCode(
        _ sp: World.ServiceProvider, _ r: IncomingRequest, in context: inout MockContext,
        at now: Instant
    ) throws(HandlerFailure) -> HTTPResponse {
        let requestorID = try r.required("requestor_id")
        let mvpdID = try r.required("mso_id")
        let code = try r.required("reg_code")
        let redirectURL = try r.required("redirect_url")
        try requireLiveCode(code, requestorID: requestorID, at: now)
        return try startLogin(
            sp, r, requestorID: requestorID, mvpdID: mvpdID, redirectURL: redirectURL,
            regCode: code, in: &context, at: now)
    }

    /// Called by the assertion consumer once a second-screen login succeeded: uses up the code and
    /// binds the user to the code's device and requestor.
    mutating func completeCodeLogin(
        _ code: String, user: IdPFamily.UserKey, assertion: Assertion, mvpdID: String, in context: inout MockContext,
        at now: Instant
    ) throws(HandlerFailure) {
        guard var rc = registrationCodes.value(code, at: now) else {
            throw .badRequest("unknown registration code \(code)")
        }
        try requireLiveCode(code, requestorID: rc.requestorID, at: now)
        rc.usedWithMVPD = mvpdID
        // The device polls `checkauthn` after the login: a used code answers for another TTL.
        let ttl = context.world.requestor(rc.requestorID)?.regcodeTTL ?? .minutes(30)
        registrationCodes.set(code, rc, until: max(rc.expires, now + ttl) + context.limits.expiredMemory)
        bindUser(
            user, deviceID: rc.deviceID, requestorID: rc.requestorID, nameID: assertion.nameID,
            sessionIndex: assertion.sessionIndex, in: &context, at: now)
    }

    func requireLiveCode(_ code: String, requestorID: String, at now: Instant) throws(HandlerFailure) {
        guard let rc = registrationCodes.value(code, at: now), rc.requestorID == requestorID else {
            throw .badRequest("unknown registration code \(code)")
        }
        guard rc.usedWithMVPD == nil else { throw .badRequest("registration code \(code) was already used") }
        guard now < rc.expires else { throw .badRequest("registration code \(code) has expired") }
    }
}
