public struct FormField: Hashable, Sendable {
    public var name: String
    public var value: String
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

public struct HTMLForm: Hashable, Sendable {
    public var action: String
    /// "GET" or "POST", uppercased.
    public var method: String
    /// Every `<input name=...>`, in document order.
    public var fields: [FormField]
    /// The page submits this form on load.
    public var autoSubmit: Bool

    public init(action: String, method: String = "POST", fields: [FormField] = [], autoSubmit: Bool = false) {
        self.action = action
        self.method = method
        self.fields = fields
        self.autoSubmit = autoSubmit
    }
}

public struct HTMLPage: Hashable, Sendable {
    public var title: String
    public var message: String?
    public var forms: [HTMLForm]

    public init(title: String, message: String? = nil, forms: [HTMLForm] = []) {
        self.title = title
        self.message = message
        self.forms = forms
    }
}

/// The mock's login and hand-off pages. They are well-formed XHTML (no DOCTYPE, no named entities
/// beyond XML's five) so the simulated browser reads them with the same safe parser as SAML.
public enum HTMLPageXML {
    public static let xhtmlNamespace = "http://www.w3.org/1999/xhtml"

    /// `<html xmlns=XHTML><head><title/></head><body [onload]>[<p class="message">]<form…>…</form></body></html>`.
    /// The first auto-submitting form is named in `onload`, and every auto-submitting form carries
    /// `data-autosubmit="true"`. An empty `username` input is a text box, an empty `password` a
    /// password box; everything else is hidden.
    public static func build(_ page: HTMLPage) -> String {
        var w = XMLWriter()
        w.element("html", [("xmlns", xhtmlNamespace)]) { w in
            // `<title></title>`, never `<title/>`, even when empty: browsers mis-read a self-closed title.
            w.element("head") { w in w.element("title") { w in w.appendEscaped(page.title) } }
            var body: [(String, String)] = []
            if let first = page.forms.firstIndex(where: \.autoSubmit) {
                body.append(("onload", "document.forms[\(first)].submit()"))
            }
            w.element("body", body) { w in
                if let message = page.message { w.leaf("p", message, [("class", "message")]) }
                for form in page.forms {
                    var attributes = [("action", form.action), ("method", form.method.uppercased())]
                    if form.autoSubmit { attributes.append(("data-autosubmit", "true")) }
                    w.element("form", attributes) { w in
                        for field in form.fields {
                            w.leaf(
                                "input", "", [("type", inputType(field)), ("name", field.name), ("value", field.value)])
                        }
                    }
                }
            }
        }
        return w.text
    }

    private static func inputType(_ field: FormField) -> String {
        guard field.value.isEmpty else { return "hidden" }
        switch field.name {
        case "username": return "text"
        case "password": return "password"
        default: return "hidden"
        }
    }

    /// Reads elements by local name in any namespace, so plain (namespace-less) XHTML works too.
    /// A form auto-submits when it says `data-autosubmit="true"` or `<body onload>` calls
    /// `document.forms[N].submit()` for it (`submit()` without an index means form 0).
    public static func parse(_ bytes: [UInt8]) throws(PassXMLError) -> HTMLPage {
        let root = try SafeXML.parse(bytes)
        guard root.name == "html" else { throw PassXMLError("expected root element <html>, found <\(root.name)>") }
        let title = root.child("head")?.child("title")?.trimmedText ?? ""
        guard let body = root.child("body") else { throw PassXMLError.missing("body", in: "html") }
        let onloadIndex = body.attribute("onload").flatMap(submittedFormIndex)

        var page = HTMLPage(title: title)
        var forms: [XMLElement] = []
        var messages: [XMLElement] = []
        collect(body, forms: &forms, messages: &messages)
        page.message = messages.first.map(\.trimmedText)
        for (index, form) in forms.enumerated() {
            var inputs: [XMLElement] = []
            collectInputs(form, into: &inputs)
            page.forms.append(
                HTMLForm(
                    action: form.attribute("action") ?? "",
                    method: (form.attribute("method") ?? "GET").uppercased(),
                    fields: inputs.compactMap { input in
                        input.attribute("name").map { FormField(name: $0, value: input.attribute("value") ?? "") }
                    },
                    autoSubmit: form.attribute("data-autosubmit") == "true" || onloadIndex == index))
        }
        return page
    }

    /// Forms and `<p class="message">` anywhere under `<body>`, in document order (forms do not nest).
    private static func collect(_ e: XMLElement, forms: inout [XMLElement], messages: inout [XMLElement]) {
        for c in e.children {
            if c.name == "form" {
                forms.append(c)
            } else {
                if c.name == "p", (c.attribute("class") ?? "").split(separator: " ").contains("message") {
                    messages.append(c)
                }
                collect(c, forms: &forms, messages: &messages)
            }
        }
    }

    private static func collectInputs(_ e: XMLElement, into inputs: inout [XMLElement]) {
        for c in e.children {
            if c.name == "input" { inputs.append(c) } else { collectInputs(c, into: &inputs) }
        }
    }

    /// `document.forms[2].submit()` → 2; `...submit()` with no index → 0; no `submit(` → nil.
    private static func submittedFormIndex(_ script: String) -> Int? {
        let chars = Array(script)
        func find(_ needle: String, from start: Int = 0) -> Int? {
            let n = Array(needle)
            guard chars.count >= n.count, start <= chars.count - n.count else { return nil }
            return (start...(chars.count - n.count)).first { i in chars[i..<i + n.count].elementsEqual(n) }
        }
        guard find("submit(") != nil else { return nil }
        guard let open = find("forms["), let close = chars[(open + 6)...].firstIndex(of: "]") else { return 0 }
        return Int(String(chars[(open + 6)..<close]))
    }
}
