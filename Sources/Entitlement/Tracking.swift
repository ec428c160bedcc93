import Crypto
import PassModel

/// The tracking arrays of BEHAVIOR.md ("Tracking data"): fixed length, strings or nil.
struct Tracking {
    let configuration: EngineConfiguration

    private var tail: [String?] {
        [configuration.deviceType.rawValue, configuration.platform.clientType, configuration.platform.osName]
    }

    func authenticationSuccess(mvpdID: String, sessionGUID: String, fromStore: Bool) -> Callback {
        .sendTrackingData(
            event: Constants.trackingAuthentication,
            data: ["true", mvpdID, Tracking.guidHash(sessionGUID), fromStore ? "true" : "false"] + tail)
    }

    /// On a failure fields 1–3 are nil (other SDKs).
    func authenticationFailure() -> Callback {
        .sendTrackingData(event: Constants.trackingAuthentication, data: ["false", nil, nil, nil] + tail)
    }

    func authorizationSuccess(mvpdID: String, sessionGUID: String, cached: Bool) -> Callback {
        .sendTrackingData(
            event: Constants.trackingAuthorization,
            data: ["true", mvpdID, Tracking.guidHash(sessionGUID), cached ? "true" : "false", nil, nil] + tail)
    }

    /// The error and details fields copy the failure callback's code and description verbatim.
    func authorizationFailure(code: String, details: String) -> Callback {
        .sendTrackingData(event: Constants.trackingAuthorization, data: ["false", nil, nil, nil, code, details] + tail)
    }

    func selection(mvpdID: String) -> Callback {
        .sendTrackingData(event: Constants.trackingGetSelectedProvider, data: [mvpdID] + tail)
    }

    /// The GUID depends only on the authN token: lowercase md5 hex of its session GUID, unsalted.
    static func guidHash(_ sessionGUID: String) -> String {
        Insecure.MD5.hash(data: Array(sessionGUID.utf8)).map { byte in
            let s = String(byte, radix: 16)
            return s.count == 1 ? "0" + s : s
        }.joined()
    }
}
