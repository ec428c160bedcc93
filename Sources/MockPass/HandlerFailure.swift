import PassModel
import PassXML

/// Why a request is refused: becomes a short `text/plain` answer, or an `ErrorXML` body for the
/// endpoints the engine calls (which read `<error><details>`). Handlers throw it so every refusal
/// takes one line and no path can forget to answer.
struct HandlerFailure: Error, Sendable {
    var status: Int
    var message: String
    var headers: HTTPHeaders = []
    /// When set, the answer is this `<error>` body (`application/xml`) instead of text.
    var errorBody: ErrorBody? = nil
    /// When set, the answer is this JSON (`application/json`); wins over `errorBody`.
    var jsonBody: Value? = nil

    static func badRequest(_ message: String) -> HandlerFailure { HandlerFailure(status: 400, message: message) }
    static func notFound(_ message: String = "no such resource") -> HandlerFailure {
        HandlerFailure(status: 404, message: message)
    }
    static func methodNotAllowed(_ allowed: String) -> HandlerFailure {
        HandlerFailure(status: 405, message: "use \(allowed)", headers: [("Allow", allowed)])
    }

    /// An `ErrorXML` answer: `<error><status>status</status><message/><details/></error>`.
    static func xml(_ status: Int, _ message: String, details: String = "") -> HandlerFailure {
        HandlerFailure(
            status: status, message: message,
            errorBody: ErrorBody(status: status, message: message, details: details))
    }

    /// The same refusal as an `ErrorXML` body (the text becomes `<message>`); 405 stays text, as
    /// it is about the request line, not the endpoint's protocol.
    var inXML: HandlerFailure {
        guard errorBody == nil, status != 405 else { return self }
        var copy = self
        copy.errorBody = ErrorBody(status: status, message: message, details: "")
        return copy
    }

    var response: HTTPResponse {
        if let jsonBody {
            // A JSON refusal has the shape Adobe documents, so the mock's reason, if the body holds
            // none, goes in a header (as REST v2's do: `V2Failure`).
            var all = headers
            if !message.isEmpty, jsonBody["error_description"] == nil, jsonBody["message"] == nil {
                all.add("X-Passim-Explanation", message.headerSafe())
            }
            return HTTPResponse(status: status, contentType: Reply.json, text: jsonBody.jsonText, headers: all)
        }
        if let errorBody {
            // What `HTTPResponse(status:contentType:text:headers:)` makes of `ErrorXML.build`, from
            // the written bytes without a String between.
            var all = headers
            all.add("Content-Type", Reply.xml)
            return HTTPResponse(status: status, headers: all, body: ErrorXML.buildBytes(errorBody))
        }
        return HTTPResponse(
            status: status, contentType: Reply.text,
            text: "\(status) \(Reply.reason(status)): \(message)\n", headers: headers)
    }
}
