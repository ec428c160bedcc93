import PassModel

/// A signed `Authorization` header split into what `RequestSignature.verify` checks:
/// `METHOD f=v, f=v, …, public_key=PK, signature=SIG`. Every signed call of a gated requestor is
/// split here, so an ASCII header (every real one) is split over its bytes in one pass, keeping
/// only the five fields the check reads; any other text is split by characters, as before. Both
/// give the same pieces and the same refusals, in the same order: a field without `=` anywhere is
/// refused before any field is read, and a field named twice reads as its last value.
struct SignedHeader {
    /// The text before `, public_key=`, which the HMAC covers.
    var signed: String
    var publicKey: String
    var signature: String
    var method: String
    var fields = Fields()

    /// The fields the check reads (nil when the header does not name them).
    struct Fields {
        var requestorID: String?
        var signatureMethod: String?
        var nonce: String?
        var requestURI: String?
        var requestTime: String?

        mutating func set(_ name: some StringProtocol, _ value: @autoclosure () -> String) {
            switch name {
            case "requestor_id": requestorID = value()
            case "signature_method": signatureMethod = value()
            case "nonce": nonce = value()
            case "request_uri": requestURI = value()
            case "request_time": requestTime = value()
            default: break
            }
        }

        /// `set` for an ASCII name, compared by bytes (an ASCII name equals one of these exactly
        /// when its bytes do).
        mutating func set(ascii name: Slice<UnsafeBufferPointer<UInt8>>, _ value: @autoclosure () -> String) {
            func named(_ text: StaticString) -> Bool {
                text.utf8CodeUnitCount == name.count
                    && name.elementsEqual(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
            }
            if named("requestor_id") {
                requestorID = value()
            } else if named("signature_method") {
                signatureMethod = value()
            } else if named("nonce") {
                nonce = value()
            } else if named("request_uri") {
                requestURI = value()
            } else if named("request_time") {
                requestTime = value()
            }
        }
    }

    init(_ header: String) throws(HandlerFailure) {
        var header = header
        // Native strings are contiguous UTF-8 already; only a bridged one is copied here.
        if let split = header.withUTF8({ SignedHeader.splitASCII($0) }) {
            self = try split.get()
        } else {
            try self.init(splittingCharacters: header)
        }
    }

    private init(signed: String, publicKey: String, signature: String, method: String) {
        self.signed = signed
        self.publicKey = publicKey
        self.signature = signature
        self.method = method
    }

    /// The split by characters (what `verify` did for every header), for a header that is not ASCII.
    private init(splittingCharacters header: String) throws(HandlerFailure) {
        guard let cut = header.literalRange(of: ", public_key=") else {
            throw .unauthorized("Authorization header has no public_key")
        }
        signed = String(header[..<cut.lowerBound])
        let tail = header[cut.upperBound...]
        guard let sigCut = tail.literalRange(of: ", signature=") else {
            throw .unauthorized("Authorization header has no signature")
        }
        publicKey = String(tail[..<sigCut.lowerBound])
        signature = String(tail[sigCut.upperBound...])
        let head = signed.literalSplit(separator: " ", maxSplits: 1)
        guard head.count == 2 else { throw .unauthorized("malformed Authorization header") }
        method = String(head[0])
        for part in head[1].literalSplit(separator: ",") {
            let trimmed = part.drop { $0 == " " }
            guard let eq = trimmed.firstIndex(of: "=") else {
                throw .unauthorized("malformed Authorization field '\(trimmed)'")
            }
            fields.set(trimmed[..<eq], String(trimmed[trimmed.index(after: eq)...]))
        }
    }

    /// The same split over ASCII bytes, where a byte is a character (no character of ASCII text
    /// combines with another); nil when the header is not ASCII.
    private static func splitASCII(_ b: UnsafeBufferPointer<UInt8>) -> Result<SignedHeader, HandlerFailure>? {
        guard !b.contains(where: { $0 >= 0x80 }) else { return nil }
        func text(_ from: Int, _ to: Int) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: b[from..<to]), as: UTF8.self)
        }
        guard let cut = find(", public_key=", in: b, from: 0) else {
            return .failure(.unauthorized("Authorization header has no public_key"))
        }
        guard let sigCut = find(", signature=", in: b, from: cut.upperBound) else {
            return .failure(.unauthorized("Authorization header has no signature"))
        }
        let space = UInt8(ascii: " "), comma = UInt8(ascii: ","), equals = UInt8(ascii: "=")
        // `split(separator: " ", maxSplits: 1)` of the signed text must give two pieces: the method
        // (after any leading spaces) and a non-empty rest after the one space that ends it.
        let end = cut.lowerBound
        var i = 0
        while i < end, b[i] == space { i += 1 }
        let methodStart = i
        while i < end, b[i] != space { i += 1 }
        guard methodStart < end, i + 1 < end else { return .failure(.unauthorized("malformed Authorization header")) }
        var header = SignedHeader(
            signed: text(0, end), publicKey: text(cut.upperBound, sigCut.lowerBound),
            signature: text(sigCut.upperBound, b.count), method: text(methodStart, i))
        // The rest split at commas (empty pieces omitted), each piece's leading spaces dropped.
        i += 1
        while i < end {
            var stop = i
            while stop < end, b[stop] != comma { stop += 1 }
            if stop > i {
                var start = i
                while start < stop, b[start] == space { start += 1 }
                guard let eq = b[start..<stop].firstIndex(of: equals) else {
                    return .failure(.unauthorized("malformed Authorization field '\(text(start, stop))'"))
                }
                header.fields.set(ascii: b[start..<eq], text(eq + 1, stop))
            }
            i = stop + 1
        }
        return .success(header)
    }

    /// The first occurrence of ASCII `needle` in `b` at or after `from`.
    private static func find(_ needle: StaticString, in b: UnsafeBufferPointer<UInt8>, from: Int) -> Range<Int>? {
        let n = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
        guard b.count >= n.count, from <= b.count - n.count else { return nil }
        for i in from...(b.count - n.count) where b[i] == n[0] {
            var k = 1
            while k < n.count, b[i + k] == n[k] { k += 1 }
            if k == n.count { return i..<(i + n.count) }
        }
        return nil
    }
}
