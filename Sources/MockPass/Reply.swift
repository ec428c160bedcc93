import PassModel
import PassXML

/// The shapes of the mock's successful answers.
enum Reply {
    static let text = "text/plain; charset=utf-8"
    static let html = "text/html"
    static let xml = "application/xml"
    static let json = "application/json"
    /// The short media token's body type: exactly `text/plain`, as the wire contract names it.
    static let plainToken = "text/plain"

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 201: return "Created"
        case 204: return "No Content"
        case 302: return "Found"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 410: return "Gone"
        default: return "Status"
        }
    }

    /// The page also as a value (`decoded`): the simulated browser of a typed run reads that.
    /// `bodyless`: the value only, the body left empty (`MockPass.typedRun`).
    static func page(_ page: HTMLPage, headers: HTTPHeaders = [], bodyless: Bool = false) -> HTTPResponse {
        var response = HTTPResponse(
            status: 200, contentType: html, text: bodyless ? "" : HTMLPageXML.build(page),
            headers: headers)
        response.decoded = page
        return response
    }

    /// A page whose one form the browser posts as soon as it loads (SAML HTTP-POST binding).
    static func autoPost(
        title: String, to action: String, fields: [FormField], headers: HTTPHeaders = [],
        bodyless: Bool = false
    ) -> HTTPResponse {
        page(
            HTMLPage(title: title, forms: [HTMLForm(action: action, method: "POST", fields: fields, autoSubmit: true)]),
            headers: headers, bodyless: bodyless)
    }

    /// `decoded`: what `body` parses to, for a typed run's reader (`HTTPResponse.decoded`).
    static func xml(_ body: String, decoded: (any Sendable)? = nil) -> HTTPResponse {
        var response = HTTPResponse(status: 200, contentType: xml, text: body)
        response.decoded = decoded
        return response
    }

    static let noContent = HTTPResponse(status: 204)
}
