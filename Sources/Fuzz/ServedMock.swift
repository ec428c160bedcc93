import Foundation

/// Another build's mock, served: `BIN serve --adobe --listen-port 0` started on loopback for the mock
/// comparison of `passim fuzz --against BIN --compare mock`, each program's world loaded through its
/// admin endpoint (`passim run --live --server`'s machinery). Started once; started again when it has
/// exited (a mock that crashes on a request is a finding, not the end of the campaign); stopped at the end.
public final class ServedMock: @unchecked Sendable {
    /// What went wrong setting it up: said once, exit status 2.
    public struct SetupError: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    public let binary: String
    public private(set) var adminURL = ""
    public private(set) var adminToken = ""
    /// How many times it had exited and was started again.
    public private(set) var restarts = 0
    /// How the other build spells serve's listening port: `--listen-port`, else (a build older than that
    /// name, which answers it with "Unknown option") `--port`, the old name a newer build warns about.
    public private(set) var listenPortFlag = "--listen-port"
    /// Whether the other build is told to believe loopback's `X-Forwarded-For`: the runs' harness plays
    /// Adobe's edge there (it names the device and the second screen), as `passim run --live` trusts
    /// it in-process. A build older than `--trusted-proxy` believes every peer's and is not told.
    public private(set) var trustsLoopback = true
    private var process: Process?
    /// The write end of the server's standard input, held only here (see `start`).
    private var lifeline: FileHandle?
    private let folder: URL

    /// How long `serve` is given to print its admin line.
    static let startWait: Duration = .seconds(30)

    public init(binary: String) throws(SetupError) {
        self.binary = binary
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw SetupError(
                message: "--against \(binary): no executable file there (give the path of another build of passim)")
        }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "passim-served-mock-\(getpid())-\(ServedMock.serial.claim())")
        try start()
    }

    /// Whether the server is still running.
    public var isRunning: Bool { process?.isRunning ?? false }

    /// Starts it again if it has exited since the last run; false when it will not start.
    public func ensureRunning() -> Bool {
        if isRunning { return true }
        restarts += 1
        do { try start() } catch { return false }
        return true
    }

    private func start() throws(SetupError) {
        try? lifeline?.close()  // a server that exited: its input goes with it
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let out = folder.appendingPathComponent("serve.out"), err = folder.appendingPathComponent("serve.err")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: binary)
        p.arguments =
            ["serve", "--adobe", listenPortFlag, "0", "--host", "127.0.0.1", "--admin-host", "127.0.0.1"]
            + (trustsLoopback ? ["--trusted-proxy", "127.0.0.1"] : [])
        // The token is the server's own (printed on its admin-token line), never on a command line.
        var environment = ProcessInfo.processInfo.environment
        environment["PASSIM_ADMIN_TOKEN"] = nil
        // Its standard input is a pipe whose write end only this process holds (close-on-exec: no other
        // child inherits it). However this process ends, even by a signal no handler sees (SIGPIPE
        // from `| head`, SIGKILL), the kernel closes it, and `serve` stops at end of file. A build of
        // passim older than that variable ignores it and its input.
        environment["PASSIM_SERVE_UNTIL_STDIN_CLOSES"] = "1"
        p.environment = environment
        let input = Pipe()
        _ = fcntl(input.fileHandleForWriting.fileDescriptor, F_SETFD, FD_CLOEXEC)
        do {
            p.standardOutput = try FileHandle(forWritingTo: out)
            p.standardError = try FileHandle(forWritingTo: err)
            p.standardInput = input.fileHandleForReading
            try p.run()
        } catch {
            throw SetupError(message: "--against \(binary): could not start `serve`: \(error)")
        }
        try? input.fileHandleForReading.close()
        process = p
        lifeline = input.fileHandleForWriting
        let deadline = ContinuousClock.now + ServedMock.startWait
        while ContinuousClock.now < deadline {
            let text = (try? String(contentsOf: out, encoding: .utf8)) ?? ""
            let lines = text.split(separator: "\n")
            if let admin = lines.first(where: { $0.hasPrefix("admin http") }),
                let token = lines.first(where: { $0.hasPrefix("admin-token ") })
            {
                adminURL = String(admin.dropFirst("admin ".count))
                adminToken = String(token.dropFirst("admin-token ".count))
                return
            }
            if !p.isRunning { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        let said = ((try? String(contentsOf: err, encoding: .utf8)) ?? "").trimmingCharacters(
            in: .whitespacesAndNewlines)
        let exited = p.isRunning ? nil : p.terminationStatus
        stop()
        if exited != nil, listenPortFlag == "--listen-port", said.contains("Unknown option '--listen-port'") {
            listenPortFlag = "--port"
            return try start()
        }
        if exited != nil, trustsLoopback, said.contains("Unknown option '--trusted-proxy'") {
            trustsLoopback = false
            return try start()
        }
        let what =
            exited.map { "exited with status \($0) without printing its admin URL" }
            ?? "did not print its admin URL within \(ServedMock.startWait)"
        throw SetupError(
            message: "--against \(binary): `\(binary) serve --adobe \(listenPortFlag) 0` \(what)"
                + (said.isEmpty ? "" : ": \(said)"))
    }

    /// Writes a program's scenario text into the server's folder (the served runtimes read a
    /// world from its file); the path, or nil when it cannot be written. One file, rewritten per program.
    func write(_ text: String) -> String? {
        let url = folder.appendingPathComponent("differential.scenario")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        } catch {
            return nil
        }
        return url.path
    }

    /// Numbers the servers of one process (each its own folder).
    private static let serial = CampaignTally(())

    /// Kept for the life of the process: a signal source released stops watching.
    nonisolated(unsafe) private static var signalSources: [any DispatchSourceSignal] = []

    /// On SIGINT, SIGTERM or SIGHUP to this process, every server of `mocks` is ended too (by its id)
    /// and this process exits 128 + the signal: a campaign stopped from outside, or whose terminal
    /// closed, leaves no `serve` behind. Called once, from the main thread, before the campaign starts.
    public static func stopOnSignals(_ mocks: [ServedMock]) {
        for number in [SIGINT, SIGTERM, SIGHUP] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                for mock in mocks {
                    if let p = mock.process, p.isRunning { kill(p.processIdentifier, SIGTERM) }
                    try? FileManager.default.removeItem(at: mock.folder)
                }
                exit(128 + number)
            }
            source.resume()
            signalSources.append(source)
        }
    }

    /// Stops the server (SIGTERM, then SIGKILL after a second) and removes its files.
    public func stop() {
        if let p = process, p.isRunning {
            p.terminate()
            let deadline = ContinuousClock.now + .seconds(1)
            while p.isRunning, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.02) }
            if p.isRunning { kill(p.processIdentifier, SIGKILL) }
            // Bounded: Foundation learns of the exit late when a grandchild holds its descriptors
            // (a BIN that is a script), and stopping must not hang on that.
            let killed = ContinuousClock.now + .seconds(2)
            while p.isRunning, ContinuousClock.now < killed { Thread.sleep(forTimeInterval: 0.02) }
        }
        process = nil
        try? lifeline?.close()
        lifeline = nil
        try? FileManager.default.removeItem(at: folder)
    }

    deinit { stop() }
}
