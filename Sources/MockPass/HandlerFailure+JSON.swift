import PassModel
import PassXML

/// JSON refusals: REST API v1's `{status, message, details}` and OAuth's `{error, error_description}`.
extension HandlerFailure {
    /// REST API v1's error object (facts §1: `{"status":400,"message":...}`).
    static func json(_ status: Int, _ message: String, details: String = "") -> HandlerFailure {
        HandlerFailure(status: status, message: message, jsonBody: restBody(status, message, details))
    }

    /// RFC 6749 error object, as the OAuth2 IdPs' token endpoint answers (DCR answers `{error}` alone: `dcr`).
    static func oauth(_ status: Int, _ code: String, _ description: String) -> HandlerFailure {
        HandlerFailure(
            status: status, message: description,
            jsonBody: .dict([
                Value.Entry("error", .string(code)), Value.Entry("error_description", .string(description)),
            ]))
    }

    /// A missing or bad access token or signature: `<error>` XML unless the endpoint is asked for JSON.
    static func unauthorized(_ message: String) -> HandlerFailure { .xml(401, message) }

    /// The same refusal in the format a REST API v1 client asked for (see `RestFormat`). Text and
    /// OAuth answers stay as they are only when they are already JSON and JSON was asked for.
    func rest(_ format: RestFormat) -> HandlerFailure {
        guard status != 405 else { return self }
        var copy = self
        let details = errorBody?.details ?? ""
        switch format {
        case .json:
            if jsonBody == nil { copy.jsonBody = HandlerFailure.restBody(status, message, details) }
        case .xml:
            copy.jsonBody = nil
            copy.errorBody = ErrorBody(status: status, message: message, details: details)
        }
        return copy
    }

    private static func restBody(_ status: Int, _ message: String, _ details: String) -> Value {
        .dict([
            Value.Entry("status", .int(status)), Value.Entry("message", .string(message)),
            Value.Entry("details", .string(details)),
        ])
    }
}
