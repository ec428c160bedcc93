internal import CLibXML2

/// The one door to libxml2: untrusted bytes in, a Swift tree out.
///
/// Defences, in the order they apply:
/// 1. the size limit, then `XMLPrescan`'s depth, attribute and element counts, before libxml2 sees a byte;
/// 2. a byte search for `<!DOCTYPE` / `<!ENTITY`: SAML, the configuration, tokens and our XHTML pages
///    never carry a DTD, so any DTD is hostile (XXE, entity bombs). This also rejects a harmless
///    document that merely mentions `<!DOCTYPE` in a comment; that is the price of a cheap check;
/// 3. libxml2 with `NONET`, without `NOENT` and `DTDLOAD`, and a process-wide external entity loader
///    that refuses everything, so nothing is ever fetched even if (2) were bypassed (e.g. UTF-16);
/// 4. after parsing, a document with an internal or external subset is rejected anyway;
/// 5. depth and attribute-length limits while the tree is copied into Swift values.
public enum SafeXML {
    /// Parses untrusted bytes into an immutable tree. No libxml2 pointer escapes.
    public static func parse(_ bytes: [UInt8], limits: XMLLimits = .standard) throws(PassXMLError) -> XMLElement {
        try withDocument(bytes, limits: limits) { (doc: xmlDocPtr) throws(PassXMLError) -> XMLElement in
            guard let root = xmlDocGetRootElement(doc) else { throw PassXMLError("document has no root element") }
            return try copy(root, depth: 1, limits: limits)
        }
    }

    /// `parse`, and `body` run on libxml2's document while it is still there (signature checks).
    static func parse<T>(
        _ bytes: [UInt8], limits: XMLLimits = .standard, _ body: (xmlDocPtr, xmlNodePtr) throws(PassXMLError) -> T
    ) throws(PassXMLError) -> (XMLElement, T) {
        try withDocument(bytes, limits: limits) { (doc: xmlDocPtr) throws(PassXMLError) -> (XMLElement, T) in
            guard let root = xmlDocGetRootElement(doc) else { throw PassXMLError("document has no root element") }
            let tree = try copy(root, depth: 1, limits: limits)
            return (tree, try body(doc, root))
        }
    }

    public static func parse(_ text: String, limits: XMLLimits = .standard) throws(PassXMLError) -> XMLElement {
        try parse(Array(text.utf8), limits: limits)
    }

    /// Evaluates an XPath 1.0 expression over untrusted bytes (parsed under the same defences as `parse`).
    /// Node-set results give each node's string value in document order; a string, number or boolean
    /// result gives one string.
    public static func xpath(
        _ expression: String, in bytes: [UInt8],
        namespaces: [(prefix: String, uri: String)]
    ) throws(PassXMLError) -> [String] {
        try xpath(expression, in: bytes, namespaces: namespaces, limits: .standard)
    }

    public static func xpath(
        _ expression: String, in bytes: [UInt8],
        namespaces: [(prefix: String, uri: String)],
        limits: XMLLimits
    ) throws(PassXMLError) -> [String] {
        try withDocument(bytes, limits: limits) { (doc: xmlDocPtr) throws(PassXMLError) -> [String] in
            // The limits must hold for XPath callers too, so the tree is walked even though it is not kept.
            guard let root = xmlDocGetRootElement(doc) else { throw PassXMLError("document has no root element") }
            _ = try copy(root, depth: 1, limits: limits)

            guard let context = xmlXPathNewContext(doc) else { throw PassXMLError("cannot create an XPath context") }
            defer { xmlXPathFreeContext(context) }
            // Without a handler libxml2 prints XPath errors to stderr.
            context.pointee.error = { _, _ in }
            for ns in namespaces where xmlXPathRegisterNs(context, ns.prefix, ns.uri) != 0 {
                throw PassXMLError("cannot register XPath namespace prefix '\(ns.prefix)'")
            }
            guard let object = xmlXPathEvalExpression(expression, context) else {
                throw PassXMLError("invalid XPath expression '\(expression)'")
            }
            defer { xmlXPathFreeObject(object) }
            if object.pointee.type == XPATH_NODESET {
                guard let set = object.pointee.nodesetval, set.pointee.nodeNr > 0,
                    let nodes = set.pointee.nodeTab
                else { return [] }
                var out: [String] = []
                for i in 0..<Int(set.pointee.nodeNr) {
                    guard let node = nodes[i] else { continue }
                    out.append(takeString(xmlXPathCastNodeToString(node)))
                }
                return out
            }
            return [takeString(xmlXPathCastToString(object))]
        }
    }

    /// Escapes `& < > " '` so the result is safe both as text and inside a quoted attribute.
    public static func escape(_ s: String) -> String {
        // On bytes: every XML document the mock writes goes through here (a visible share of a fuzz run).
        // Most values (ids, tokens, dates) hold none of the five: they are returned as they are,
        // shared rather than copied.
        guard
            let escaped = s.utf8.withContiguousStorageIfAvailable({ b -> String? in
                guard b.contains(where: needsEscape) else { return nil }
                var out: [UInt8] = []
                out.reserveCapacity(b.count + 16)
                appendEscaped(b, to: &out)
                return String(decoding: out, as: UTF8.self)
            })
        else { return escapeByteByByte(s) }  // a bridged text: no contiguous bytes to scan
        return escaped ?? s
    }

    /// Appends `b` escaped as `escape` escapes it: each of the five becomes its entity, every other
    /// byte is copied. The five are ASCII, so a byte of a multi-byte character is never one of them.
    static func appendEscaped(_ b: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        // Most values hold none of the five: copied in one piece.
        var extra = 0
        for c in b where needsEscape(c) { extra += entityBytes(c).utf8CodeUnitCount - 1 }
        guard extra > 0 else { return out.append(contentsOf: b) }
        // Written byte by byte into a buffer of the escaped length, then copied in one piece: a
        // document escaped inside another (the token in `sessionDevice`) has a run between every
        // two tags, and appending each run to `out` on its own cost more than the bytes.
        let escaped = [UInt8](unsafeUninitializedCapacity: b.count + extra) { buffer, count in
            for c in b {
                if needsEscape(c) {
                    let entity = entityBytes(c)
                    for k in 0..<entity.utf8CodeUnitCount {
                        buffer[count] = entity.utf8Start[k]
                        count += 1
                    }
                } else {
                    buffer[count] = c
                    count += 1
                }
            }
        }
        out.append(contentsOf: escaped)
    }

    /// Appends `s` escaped (`escape`'s bytes) without making a `String` of it first.
    static func appendEscaped(_ s: String, to out: inout [UInt8]) {
        let done: Void? = s.utf8.withContiguousStorageIfAvailable { appendEscaped($0, to: &out) }
        if done == nil { out.append(contentsOf: escapeByteByByte(s).utf8) }
    }

    /// `escape` one byte at a time, as it was written first: what a text without contiguous bytes
    /// (bridged) goes through, and what the tests compare the run-copying path against.
    static func escapeByteByByte(_ s: String) -> String {
        guard s.utf8.contains(where: needsEscape) else { return s }
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count + 16)
        for b in s.utf8 {
            // The five characters are ASCII: any byte of a multi-byte character is copied as it is.
            if b < 0x80, let entity = entity(for: Unicode.Scalar(b)) { out += entity.utf8 } else { out.append(b) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `entity(for:)` of one of the five bytes, as static text (no `String` to make or release).
    @inline(__always)
    private static func entityBytes(_ b: UInt8) -> StaticString {
        switch b {
        case UInt8(ascii: "&"): return "&amp;"
        case UInt8(ascii: "<"): return "&lt;"
        case UInt8(ascii: ">"): return "&gt;"
        case UInt8(ascii: "\""): return "&quot;"
        default: return "&apos;"  // `needsEscape` holds: the fifth, `'`
        }
    }

    /// Whether `b` is one of the five bytes `escape` replaces.
    @inline(__always)
    static func needsEscape(_ b: UInt8) -> Bool {
        b == UInt8(ascii: "&") || b == UInt8(ascii: "<") || b == UInt8(ascii: ">") || b == UInt8(ascii: "\"")
            || b == UInt8(ascii: "'")
    }

    /// The entity of one of `& < > " '`; nil for any other character. Every XML text passim writes
    /// (SAML, configuration, JUnit reports) escapes through this.
    public static func entity(for c: Unicode.Scalar) -> String? {
        switch c {
        case "&": return "&amp;"
        case "<": return "&lt;"
        case ">": return "&gt;"
        case "\"": return "&quot;"
        case "'": return "&apos;"
        default: return nil
        }
    }

    // MARK: - libxml2

    /// libxml2's entity loader is process-wide; installing it in a lazily initialised static makes
    /// it happen exactly once, thread-safely, before the first parse.
    private static let setUp: Void = {
        xmlInitParser()
        xmlSetExternalEntityLoader { _, _, _ in nil }
    }()

    private static let options = Int32(
        XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)

    /// Parses under every defence above and hands libxml2's document to `body` (PassXML only: C14N).
    static func withDocument<T>(
        _ bytes: [UInt8], limits: XMLLimits, _ body: (xmlDocPtr) throws(PassXMLError) -> T
    ) throws(PassXMLError) -> T {
        guard bytes.count <= limits.maxBytes else {
            throw PassXMLError(
                "document is \(bytes.count) bytes, over the limit of \(limits.maxBytes) bytes (limit: xml-bytes)")
        }
        guard bytes.contains(where: { !isXMLSpace($0) }) else { throw PassXMLError("document is empty") }
        // First: it stops at the first limit hit, where the searches below always read every byte.
        try XMLPrescan.check(bytes, limits: limits)
        switch declarations(in: bytes) {
        case .doctype: throw PassXMLError("DOCTYPE is not allowed")
        case .entity: throw PassXMLError("entity declarations are not allowed")
        case nil: break
        }

        _ = setUp
        guard let context = xmlNewParserCtxt() else { throw PassXMLError("cannot create an XML parser context") }
        defer { xmlFreeParserCtxt(context) }
        // libxml2 keeps only the last error, which after a tag mismatch is a vaguer "Premature end
        // of data"; a structured handler on this context records the first one instead.
        let firstError = FirstError()
        context.pointee._private = Unmanaged.passUnretained(firstError).toOpaque()
        context.pointee.sax.pointee.serror = { userData, error in
            guard let userData, let error else { return }
            let context = userData.assumingMemoryBound(to: xmlParserCtxt.self)
            guard let box = context.pointee._private else { return }
            Unmanaged<FirstError>.fromOpaque(box).takeUnretainedValue().record(error.pointee)
        }
        let parsed: xmlDocPtr? = withExtendedLifetime(firstError) {
            bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { chars in
                    xmlCtxtReadMemory(context, chars.baseAddress, Int32(chars.count), nil, nil, options)
                }
            }
        }
        context.pointee._private = nil
        guard let doc = parsed, context.pointee.wellFormed != 0 else {
            if let parsed { xmlFreeDoc(parsed) }
            throw parseError(firstError, context, limits: limits)
        }
        defer { xmlFreeDoc(doc) }
        if doc.pointee.intSubset != nil || doc.pointee.extSubset != nil {
            throw PassXMLError("DOCTYPE is not allowed")
        }
        return try body(doc)
    }

    /// Copies libxml2's error out while the parse is running (its storage is reused afterwards).
    private final class FirstError {
        var error: (code: Int, line: Int, message: String)?

        func record(_ e: xmlError) {
            guard error == nil, e.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
            error = (Int(e.code), Int(e.line), e.message.map { XMLText.trim(String(cString: $0)) } ?? "unknown error")
        }
    }

    private static func parseError(_ first: FirstError, _ context: xmlParserCtxtPtr, limits: XMLLimits) -> PassXMLError
    {
        if first.error == nil, let last = xmlCtxtGetLastError(context) { first.record(last.pointee) }
        guard let (code, line, message) = first.error else {
            return PassXMLError("document is not well-formed XML")
        }
        // libxml2 stops at 256 levels on its own; say it in terms of our limit.
        if message.hasPrefix("Excessive depth") {
            return PassXMLError("nesting deeper than \(limits.maxDepth) levels (limit: xml-depth) at line \(line)")
        }
        if code == Int(XML_ERR_ENTITY_LOOP.rawValue) {
            return PassXMLError("entity reference loop detected")
        }
        return PassXMLError("document is not well-formed XML (line \(line)): \(message)")
    }

    private static func copy(_ node: xmlNodePtr, depth: Int, limits: XMLLimits) throws(PassXMLError) -> XMLElement {
        guard depth <= limits.maxDepth else {
            throw PassXMLError(
                "nesting deeper than \(limits.maxDepth) levels (limit: xml-depth) at line \(node.pointee.line)")
        }
        let name = string(node.pointee.name)
        var element = XMLElement(name: name, namespace: node.pointee.ns.flatMap { $0.pointee.href.map(string) })

        var attribute = node.pointee.properties
        while let a = attribute {
            var value = ""
            var child = a.pointee.children
            while let c = child {
                if let content = c.pointee.content {
                    guard value.utf8.count + Int(xmlStrlen(content)) <= limits.maxAttributeLength else {
                        throw PassXMLError(
                            "attribute '\(string(a.pointee.name))' of <\(name)> is longer than \(limits.maxAttributeLength) bytes"
                                + " (limit: xml-attribute-bytes) at line \(node.pointee.line)")
                    }
                    value += string(content)
                }
                child = c.pointee.next
            }
            element.attributes.append(
                XMLAttribute(
                    name: string(a.pointee.name), namespace: a.pointee.ns.flatMap { $0.pointee.href.map(string) },
                    value: value))
            attribute = a.pointee.next
        }

        var child = node.pointee.children
        while let c = child {
            switch c.pointee.type {
            case XML_ELEMENT_NODE:
                element.children.append(try copy(c, depth: depth + 1, limits: limits))
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = c.pointee.content { element.text += string(content) }
            case XML_ENTITY_REF_NODE, XML_ENTITY_NODE:
                throw PassXMLError("entity references are not allowed")
            default:
                break  // comments and processing instructions carry nothing we read
            }
            child = c.pointee.next
        }
        return element
    }

    private static func string(_ p: UnsafePointer<xmlChar>) -> String { String(cString: p) }
    private static func string(_ p: UnsafeMutablePointer<xmlChar>) -> String { String(cString: p) }
    private static func string(_ p: UnsafePointer<xmlChar>?) -> String { p.map { String(cString: $0) } ?? "" }

    /// Copies a libxml2-allocated string and frees it.
    private static func takeString(_ p: UnsafeMutablePointer<xmlChar>?) -> String {
        guard let p else { return "" }
        defer { passim_xmlFree(p) }
        return String(cString: p)
    }

    private static func isXMLSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    enum Declaration { case doctype, entity }

    /// What the two searches `contains(bytes, "<!DOCTYPE")`, then `contains(bytes, "<!ENTITY")`
    /// find, in one pass: `.doctype` when the bytes hold `<!DOCTYPE` anywhere (even after an
    /// `<!ENTITY`), else `.entity` when they hold `<!ENTITY`. Every document read comes here, and
    /// the two searches read every byte twice.
    static func declarations(in bytes: [UInt8]) -> Declaration? {
        let doctype: StaticString = "DOCTYPE", entity: StaticString = "ENTITY"
        return bytes.withUnsafeBufferPointer { b -> Declaration? in
            func follows(_ word: StaticString, at i: Int) -> Bool {
                let w = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
                guard w.count <= b.count - i else { return false }
                for k in 0..<w.count where b[i + k] != w[k] { return false }
                return true
            }
            var sawEntity = false
            var i = 0
            while i + 1 < b.count {
                if b[i] == UInt8(ascii: "<"), b[i + 1] == UInt8(ascii: "!") {
                    if follows(doctype, at: i + 2) { return .doctype }
                    if follows(entity, at: i + 2) { sawEntity = true }
                }
                i += 1
            }
            return sawEntity ? .entity : nil
        }
    }

}
