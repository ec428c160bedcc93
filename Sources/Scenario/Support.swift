import ScenarioSyntax

/// Features the grammar has but the engine does not yet: a scenario using one fails at run time
/// with "not supported yet" and the line (issue 2's rule), instead of running something wrong.
enum Support {
    static func unsupported(in file: ScenarioFile) -> (message: String, location: SourceLocation)? {
        func fail(_ what: String, _ at: SourceLocation) -> (String, SourceLocation) {
            ("not supported yet: \(what)", at)
        }
        let header = SourceLocation(file: file.path, line: 1, column: 1)
        if file.platform == .tvos { return fail("platform tvos", header) }
        if let app = file.apps.first { return fail("a second app (passive SSO)", app.location) }
        for statement in file.world {
            if case .mvpd(let m) = statement.value {
                if m.sso != nil { return fail("Apple SSO MVPDs (sso ...)", statement.location) }
                if m.tempPass != nil || m.promoTempPass != nil { return fail("TempPass MVPDs", statement.location) }
            }
        }
        let later: Set<String> = ["checkAuthorization", "getAuthorization", "checkPreauthorizedResources", "getMetadata", "getAuthenticationToken"]
        for step in file.steps {
            if case .call(_, let call) = step.value, later.contains(call.name) {
                return fail(call.name, step.location)
            }
        }
        return nil
    }
}
