/// Declared names of one kind (SPs, users, requestors, apps), for "undeclared" and "duplicate" errors.
struct NameTable {
    /// "SP", "user", ...: how messages name the kind.
    let kind: String
    /// In declaration order, so suggestions never depend on hashing.
    private(set) var names: [String] = []
    private var lines: [String: Int] = [:]

    init(kind: String) { self.kind = kind }

    func contains(_ name: String) -> Bool { lines[name] != nil }

    mutating func declare(_ name: LineCursor.Token, in c: LineCursor) throws(Diagnostic) {
        if let line = lines[name.text] {
            throw c.diagnostic("duplicate \(kind) '\(name.text)' (first declared at line \(line))", at: name.start)
        }
        lines[name.text] = c.lineNumber
        names.append(name.text)
    }

    func check(_ name: LineCursor.Token, in c: LineCursor) throws(Diagnostic) {
        guard lines[name.text] == nil else { return }
        throw c.diagnostic(
            "undeclared \(kind) '\(name.text)'" + Suggestion.hint(for: name.text, among: names), at: name.start)
    }
}

/// MVPDs: one `mvpd` line per SP, so an id is declared once per SP.
struct MVPDTable {
    private(set) var ids = NameTable(kind: "MVPD")
    /// "id sp" -> line of the declaration.
    private var declaredAt: [String: Int] = [:]

    mutating func declare(_ id: LineCursor.Token, at sp: String, in c: LineCursor) throws(Diagnostic) {
        let key = id.text + " " + sp
        if let line = declaredAt[key] {
            throw c.diagnostic("MVPD '\(id.text)' is already declared at SP '\(sp)' (line \(line))", at: id.start)
        }
        declaredAt[key] = c.lineNumber
        if !ids.contains(id.text) { try ids.declare(id, in: c) }
    }

    func check(_ id: LineCursor.Token, in c: LineCursor) throws(Diagnostic) {
        try ids.check(id, in: c)
    }
}
