import PassModel
import PassXML

/// The shapes of the mock's successful answers.
enum Reply {
    static let text = "text/plain; charset=utf-8"
    static let html = "text/html"
    static let xml = "application/xml"

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 302: return "Found"
        case 400: return "Bad Request"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
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
}
