#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A crash (a trap in the engine, say) ends the process, so the fuzzer cannot report it as a value:
/// instead, a signal handler prints the seeds of the runs in flight and the command that replays
/// each, then exits with status 3. It only reads fixed slots and calls `write`, as a handler must.
enum CrashReport {
    static let slots = 64
    // One slot per worker (0: idle), each written by its worker only and read by the handler. Raw
    // memory, not an array: workers write their slots at the same time.
    nonisolated(unsafe) static let inFlight: UnsafeMutablePointer<UInt64> = {
        let p = UnsafeMutablePointer<UInt64>.allocate(capacity: slots)
        p.initialize(repeating: 0, count: slots)
        return p
    }()
    nonisolated(unsafe) static var installed = false

    static func running(_ seed: UInt64, worker: Int) {
        guard worker < slots else { return }
        inFlight[worker] = seed
    }

    static func install() {
        guard !installed else { return }
        installed = true
        for sig in [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGABRT, SIGFPE] {
            signal(sig) { _ in
                CrashReport.say("passim fuzz: crashed; runs in flight:\n")
                for slot in 0..<CrashReport.slots where CrashReport.inFlight[slot] != 0 {
                    let seed = CrashReport.inFlight[slot]
                    CrashReport.say("  replay: passim fuzz --seed ")
                    CrashReport.say(seed)
                    CrashReport.say(" --runs 1\n")
                }
                _exit(3)
            }
        }
    }

    private static func say(_ text: StaticString) {
        _ = write(2, text.utf8Start, text.utf8CodeUnitCount)
    }

    /// Decimal digits without allocating.
    private static func say(_ n: UInt64) {
        var digits:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
            ) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var v = n
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[19 - count] = UInt8(48 + v % 10)
                v /= 10
                count += 1
            } while v > 0 && count < 20
            if let base = buffer.baseAddress { _ = write(2, base + (20 - count), count) }
        }
    }
}
