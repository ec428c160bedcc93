import PassModel

/// Why a request is refused: becomes a short `text/plain` answer. Handlers throw it so every
/// refusal takes one line and no path can forget to answer.
struct HandlerFailure: Error {
    var status: Int
    var message: String
    var headers: HTTPHeaders = []

    static func badRequest(_ message: String) -> HandlerFailure { HandlerFailure(status: 400, message: message) }
    static func notFound(_ message: String = "no such resource") -> HandlerFailure {
        HandlerFailure(status: 404, message: message)
    }
    static func methodNotAllowed(_ allowed: String) -> HandlerFailure {
        HandlerFailure(status: 405, message: "use \(allowed)", headers: [("Allow", allowed)])
    }

    var response: HTTPResponse {
        HTTPResponse(status: status, contentType: Reply.text,
                     text: "\(status) \(Reply.reason(status)): \(message)\n", headers: headers)
    }
}
