import PassModel

/// REST API v1 answers XML or JSON, chosen by a `.xml`/`.json` path suffix, else a `format=`
/// parameter, else the `Accept` header; XML when none asks (pass.en `rest-api-v1/rest-api-reference.md`).
enum RestFormat: Sendable, Equatable {
    case xml, json

    /// The format and the path without its suffix.
    static func of(_ r: IncomingRequest) -> (format: RestFormat, path: String) {
        if r.path.hasSuffix(".json") { return (.json, String(r.path.dropLast(5))) }
        if r.path.hasSuffix(".xml") { return (.xml, String(r.path.dropLast(4))) }
        switch r.parameter("format")?.lowercased() {
        case "json": return (.json, r.path)
        case "xml": return (.xml, r.path)
        default: break
        }
        let accept = r.request.headers.first(lowercased: "accept")?.lowercased() ?? ""
        // `literalRange`: what Foundation's `contains` finds, without bridging the text per request.
        let json = accept.literalRange(of: "application/json") != nil && accept.literalRange(of: "xml") == nil
        return (json ? .json : .xml, r.path)
    }
}
