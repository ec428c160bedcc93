extension UnsafeBufferPointer<UInt8> {
    /// The first index from `start` on whose byte is `a` or `b`, `count` if none. Eight bytes are
    /// tested at a time (the zero-byte trick on the word XORed with each byte repeated): a form
    /// carrying an authN token is some 5 KB, and splitting and unescaping it byte by byte was a
    /// visible share of a fuzz run. PassModel imports no C library, so this stands in for `memchr`.
    func firstIndex(of a: UInt8, or b: UInt8, from start: Int) -> Int {
        guard let base = baseAddress else { return count }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let wordA = UInt64(a) &* ones, wordB = UInt64(b) &* ones
        var i = start
        while i &+ 8 <= count {
            // Little-endian order whatever the machine's: byte k of the buffer is byte k of `word`.
            let word = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
            let xa = word ^ wordA, xb = word ^ wordB
            // A high bit is set for each zero byte of xa or xb (and perhaps for bytes above a zero
            // one, from the borrow): the lowest set bit is the first match exactly.
            let found = ((xa &- ones) & ~xa | (xb &- ones) & ~xb) & highs
            if found != 0 { return i &+ found.trailingZeroBitCount / 8 }
            i &+= 8
        }
        while i < count {
            let c = base[i]
            if c == a || c == b { return i }
            i &+= 1
        }
        return count
    }
}
