import PassModel

/// Header and world statements.
extension FileParser {
    mutating func header(_ keyword: String, _ c: inout LineCursor, head: LineCursor.Token) throws(Diagnostic) {
        if keyword != "tags" {
            if let line = headerLines[keyword] {
                throw c.diagnostic("duplicate '\(keyword)' statement (first at line \(line))", at: head.start)
            }
            headerLines[keyword] = c.lineNumber
        }
        switch keyword {
        case "scenario":
            let title = try c.requireString("the scenario's title in quotes")
            guard !title.text.isEmpty else { throw c.diagnostic("the scenario's title is empty", at: title.start) }
            file.title = title.text
            scenarioLine = c.lineNumber
        case "tags":
            guard let first = c.word() else { throw c.diagnostic("expected at least one tag", at: c.pos) }
            var tags = [first]
            while !c.atEnd() { tags.append(try c.requireWord("a tag")) }
            // A tag may be repeated (SCENARIO-FORMAT.md); the first occurrence fixes its place.
            for tag in tags where tagSet.insert(tag.text).inserted {
                guard file.tags.count < ScenarioLimits.tags else {
                    throw c.diagnostic(
                        ScenarioLimits.exceeded("more than \(ScenarioLimits.tags) tags", limit: "tags"), at: tag.start)
                }
                file.tags.append(tag.text)
            }
        case "platform":
            let w = try c.requireWord("a platform (ios or tvos)")
            guard let platform = Platform(rawValue: w.text) else {
                throw c.diagnostic("unknown platform '\(w.text)' (expected ios or tvos)", at: w.start)
            }
            file.platform = platform
        case "wire":
            file.wire = try wire(&c)
        case "second-screen":
            let keyword = try c.requireWord("'wire' and a wire (sdk or v2)")
            guard keyword.text == "wire" else {
                throw c.diagnostic("expected 'wire sdk' or 'wire v2' after second-screen", at: keyword.start)
            }
            file.secondScreenWire = try wire(&c)
        case "device":
            let w = try c.requireWord("a device type")
            guard let device = DeviceType(rawValue: w.text) else {
                let all = OptionReader.english(DeviceType.allCases.map(\.rawValue))
                throw c.diagnostic("unknown device '\(w.text)' (expected \(all))", at: w.start)
            }
            file.device = device
        case "format":
            let w = try c.requireWord("the scenario format's version (\(ScenarioFormat.version))")
            if let problem = ScenarioFormat.check(w.text) { throw c.diagnostic(problem, at: w.start) }
        case "seed":
            let w = try c.requireWord("a seed (a non-negative integer)")
            guard let seed = UInt64(w.text) else {
                throw c.diagnostic(
                    "invalid seed '\(w.text)' (expected an integer from 0 to \(UInt64.max))", at: w.start)
            }
            file.seed = seed
        default:  // svc-scheme
            file.svcScheme = try c.requireString("the app's custom scheme URL in quotes").text
        }
    }

    /// `sdk` or `v2`, after `wire`.
    func wire(_ c: inout LineCursor) throws(Diagnostic) -> EngineWire {
        let w = try c.requireWord("a wire (sdk or v2)")
        guard let wire = EngineWire(rawValue: w.text) else {
            throw c.diagnostic("unknown wire '\(w.text)' (expected sdk or v2)", at: w.start)
        }
        return wire
    }

    mutating func appStatement(_ c: inout LineCursor) throws(Diagnostic) -> ParsedStatement {
        let name = try c.name("an app name")
        if name.text == ScenarioFile.firstAppName {
            throw c.diagnostic("duplicate app 'app' (the first app is implicitly named 'app')", at: name.start)
        }
        try apps.declare(name, in: c)
        guard !c.atEnd() else { return .app(name.text, wire: nil) }
        let keyword = try c.requireWord("'wire' and a wire (sdk or v2), or nothing")
        guard keyword.text == "wire" else {
            throw c.diagnostic(
                "unexpected '\(keyword.text)' after the app's name (expected 'wire sdk' or 'wire v2')",
                at: keyword.start)
        }
        return .app(name.text, wire: try wire(&c))
    }

    mutating func spStatement(_ c: inout LineCursor) throws(Diagnostic) -> WorldStatement {
        let name = try c.name("an SP name")
        try sps.declare(name, in: c)
        let url = try c.requireString("the SP's URL in quotes")
        if let problem = BaseURL.problem(url.text) {
            throw c.diagnostic("invalid SP URL \(Value.quote(url.text)): \(problem)", at: url.start)
        }
        var decl = SPDecl(name: name.text, url: url.text)
        var options = OptionReader(["latency", "unreachable", "silent"])
        while let option = try options.next(&c) {
            switch option {
            case "latency": decl.latency = try c.duration()
            case "unreachable": decl.unreachable = true
            default: decl.silent = true
            }
        }
        return .sp(decl)
    }

    mutating func mvpdStatement(_ c: inout LineCursor) throws(Diagnostic) -> WorldStatement {
        let id = try c.name("an MVPD id")
        let displayName = try c.requireString("the MVPD's display name in quotes")
        guard c.keyword("at") else { throw c.diagnostic("expected 'at' and the SPs that offer the MVPD", at: c.pos) }
        var decl = MVPDDecl(id: id.text, displayName: displayName.text, sps: [])
        for sp in try c.list("an SP name") {
            try sps.check(sp, in: c)
            try mvpds.declare(id, at: sp.text, in: c)
            decl.sps.append(sp.text)
        }
        var options = OptionReader([
            "logo", "sso", "temppass", "promo-temppass", "svc", "idp-latency", "idp-down", "saml",
        ])
        while let option = try options.next(&c) {
            switch option {
            case "logo": decl.logo = try c.requireString("the logo URL in quotes").text
            case "sso":
                let w = try c.requireWord("picker or supported")
                switch w.text {
                case "picker": decl.sso = .picker
                case "supported": decl.sso = .supported
                default: throw c.diagnostic("unknown sso mode '\(w.text)' (expected picker or supported)", at: w.start)
                }
            case "temppass": decl.tempPass = try c.duration()
            case "promo-temppass": decl.promoTempPass = try c.duration()
            case "svc": decl.svc = true
            case "idp-latency": decl.idpLatency = try c.duration()
            case "saml":
                let w = try c.requireWord("a SAML mode")
                guard let mode = MVPDDecl.SAMLMode(rawValue: w.text) else {
                    let modes = MVPDDecl.SAMLMode.allCases.map(\.rawValue).joined(separator: ", ")
                    throw c.diagnostic("unknown saml mode '\(w.text)' (expected one of \(modes))", at: w.start)
                }
                decl.saml = mode
            default: decl.idpDown = true
            }
        }
        return .mvpd(decl)
    }

    mutating func userStatement(_ c: inout LineCursor) throws(Diagnostic) -> WorldStatement {
        let name = try c.name("a user name")
        try users.declare(name, in: c)
        let password = try c.requireString("the user's password in quotes")
        guard c.keyword("at") else { throw c.diagnostic("expected 'at' and the user's MVPD", at: c.pos) }
        let mvpd = try c.requireWord("an MVPD id")
        try mvpds.check(mvpd, in: c)
        var decl = UserDecl(name: name.text, password: password.text, mvpd: mvpd.text)
        var options = OptionReader(["allow", "deny", "meta", "encrypted"])
        while let option = try options.next(&c) {
            switch option {
            case "allow": decl.allow = try c.list("a resource", strings: true).map(\.text)
            case "deny":
                decl.deny = try c.list("a resource", strings: true).map(\.text)
                decl.denyMessage = try c.string()?.text
            case "meta": decl.meta = try metaEntries(&c)
            default: decl.encrypted = try c.list("a metadata key").map(\.text)
            }
        }
        return .user(decl)
    }

    /// `KEY=JSON ...`: as many as follow, at least one.
    mutating func metaEntries(_ c: inout LineCursor) throws(Diagnostic) -> [MetaEntry] {
        guard c.wordFollowed(by: "=") else { throw c.diagnostic("expected KEY=JSON after 'meta'", at: c.pos) }
        var entries: [MetaEntry] = []
        while c.wordFollowed(by: "=") {
            let key = try c.requireWord("a metadata key")
            if entries.contains(where: { $0.key == key.text }) {
                throw c.diagnostic("duplicate metadata key '\(key.text)'", at: key.start)
            }
            try c.expect("=", "expected '='")
            entries.append(MetaEntry(key: key.text, value: try value(&c, .json)))
        }
        return entries
    }

    mutating func requestorStatement(_ c: inout LineCursor) throws(Diagnostic) -> WorldStatement {
        let id = try c.name("a requestor id")
        try requestors.declare(id, in: c)
        var decl = RequestorDecl(id: id.text)
        var options = OptionReader([
            "at", "mvpds", "authn-ttl", "authz-ttl", "device-id", "regcode-ttl",
            "software-statement", "key",
        ])
        while let option = try options.next(&c) {
            switch option {
            case "at":
                let list = try c.list("an SP name")
                for sp in list { try sps.check(sp, in: c) }
                decl.sps = list.map(\.text)
            case "mvpds":
                let list = try c.list("an MVPD id")
                for mvpd in list { try mvpds.check(mvpd, in: c) }
                decl.mvpds = list.map(\.text)
            case "authn-ttl": decl.authnTTL = try c.duration()
            case "authz-ttl": decl.authzTTL = try c.duration()
            case "device-id": decl.deviceID = true
            case "regcode-ttl": decl.regcodeTTL = try c.duration()
            case "software-statement":
                decl.softwareStatement = try c.requireString("the software statement in quotes").text
                // `token-ttl` belongs to the statement: it is only valid right after it.
                if c.keyword("token-ttl") { decl.tokenTTL = try c.duration() }
            default:
                let publicKey = try c.requireString("the public key in quotes").text
                guard c.keyword("secret") else {
                    throw c.diagnostic("expected 'secret' and the private key after the public key", at: c.pos)
                }
                decl.key = Requestor.KeyPair(
                    publicKey: publicKey, secret: try c.requireString("the secret in quotes").text)
            }
        }
        return .requestor(decl)
    }

    mutating func defaultSPStatement(_ c: inout LineCursor, head: LineCursor.Token) throws(Diagnostic) -> WorldStatement
    {
        if let line = headerLines["default-sp"] {
            throw c.diagnostic("duplicate 'default-sp' statement (first at line \(line))", at: head.start)
        }
        headerLines["default-sp"] = c.lineNumber
        let sp = try c.requireWord("an SP name")
        try sps.check(sp, in: c)
        return .defaultSP(sp.text)
    }
}
