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

    static func page(_ page: HTMLPage, headers: HTTPHeaders = []) -> HTTPResponse {
        HTTPResponse(status: 200, contentType: html, text: HTMLPageXML.build(page), headers: headers)
    }

    /// A page whose one form the browser posts as soon as it loads (SAML HTTP-POST binding).
    static func autoPost(title: String, to action: String, fields: [FormField], headers: HTTPHeaders = []) -> HTTPResponse {
        page(HTMLPage(title: title, forms: [HTMLForm(action: action, method: "POST", fields: fields, autoSubmit: true)]),
             headers: headers)
    }

    static func xml(_ body: String) -> HTTPResponse {
        HTTPResponse(status: 200, contentType: xml, text: body)
    }

    static let noContent = HTTPResponse(status: 204)
}
