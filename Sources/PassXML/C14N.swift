internal import CLibXML2

/// Exclusive XML Canonicalization 1.0 without comments (the form XML-DSig signs), done by libxml2's
/// own c14n so that what we sign is what xmlsec1 and pysaml2 compute. A document subset is chosen
/// with libxml2's visibility callback: one element and its descendants, less one excluded subtree
/// (the enveloped-signature transform drops the `<ds:Signature>` it sits in).
enum C14N {
    /// What the visibility callback reads through its `user_data` pointer.
    private struct Subset {
        let apex: UnsafeRawPointer
        let excluded: UnsafeRawPointer?
    }

    // libxml2 hands the callback xmlNode, xmlAttr, xmlNs and xmlDoc pointers through one type. Their
    // layouts share a prefix (xmlNs only up to `type`), so fields are read by offset, never by copying
    // a whole `xmlNode` out of memory that may be a smaller struct.
    private static let typeOffset =
        MemoryLayout<xmlNode>.offset(of: \xmlNode.type) ?? MemoryLayout<UnsafeRawPointer>.stride
    private static let parentOffset =
        MemoryLayout<xmlNode>.offset(of: \xmlNode.parent) ?? 5 * MemoryLayout<UnsafeRawPointer>.stride

    /// The canonical bytes of `apex` and its subtree, without `excluding`'s subtree.
    static func canonicalize(_ doc: xmlDocPtr, apex: xmlNodePtr, excluding: xmlNodePtr?) throws(PassXMLError) -> [UInt8]
    {
        guard let buffer = xmlAllocOutputBuffer(nil) else {
            throw PassXMLError("cannot allocate a canonicalization buffer")
        }
        var subset = Subset(apex: UnsafeRawPointer(apex), excluded: excluding.map { UnsafeRawPointer($0) })
        let status = withUnsafeMutablePointer(to: &subset) { p in
            xmlC14NExecute(
                doc,
                { userData, node, parent in
                    guard let userData, let node else { return 0 }
                    let subset = userData.assumingMemoryBound(to: Subset.self).pointee
                    let raw = UnsafeRawPointer(node)
                    let type = raw.load(fromByteOffset: C14N.typeOffset, as: xmlElementType.self)
                    // A namespace node has no parent field; libxml2 passes its element as `parent`.
                    var current: UnsafeRawPointer? =
                        type == XML_NAMESPACE_DECL ? parent.map { UnsafeRawPointer($0) } : raw
                    while let c = current {
                        if c == subset.excluded { return 0 }
                        if c == subset.apex { return 1 }
                        current = c.load(fromByteOffset: C14N.parentOffset, as: UnsafeRawPointer?.self)
                    }
                    return 0
                }, p, Int32(XML_C14N_EXCLUSIVE_1_0.rawValue), nil, 0, buffer)
        }
        var bytes: [UInt8] = []
        if status >= 0, let content = xmlOutputBufferGetContent(buffer) {
            bytes = Array(UnsafeBufferPointer(start: content, count: Int(xmlOutputBufferGetSize(buffer))))
        }
        xmlOutputBufferClose(buffer)
        guard status >= 0 else { throw PassXMLError("canonicalization failed") }
        return bytes
    }
}
