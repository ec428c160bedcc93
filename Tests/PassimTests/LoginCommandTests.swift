import Foundation
import Testing

/// `passim login --server ADMIN_URL CODE as USER`: a running `passim serve` logs the user in for a
/// REST API v2 session's code (its `POST /admin/login`), run as a TV client's test runs it.
extension CommandLineOptionsTests {
    /// curl's answer body to a request (curl ships with the machine's set-up, `make setup`).
    func curl(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["curl", "-s"] + arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// Word `word` (0-based, split on spaces) of the line of `printed` that starts with `prefix`.
    func printedWord(_ printed: String, line prefix: String, word: Int) -> String? {
        printed.split(separator: "\n").first { $0.hasPrefix(prefix) }.map { $0.split(separator: " ") }
            .flatMap { word < $0.count ? String($0[word]) : nil }
    }

    @Test func loginLogsTheUserInForTheSessionsCodeAndSaysWhyNot() throws {
        _ = try serve(["--adobe", "--listen-port", "0", "--admin-port", "0"]) { printed in
            let admin = try #require(printedWord(printed, line: "admin http", word: 1))
            let token = try #require(printedWord(printed, line: "admin-token ", word: 1))
            // "sp api https://api.auth.adobe.com -> http://127.0.0.1:P"
            let sp = try #require(printedWord(printed, line: "sp api ", word: 4))
            let info = Data(
                #"{"model":"Box","version":"1.0","osName":"Linux","osVersion":"6.1","connectionType":"LAN","primaryHardwareType":"SetTopBox"}"#
                    .utf8
            ).base64EncodedString()
            let device = ["-H", "AP-Device-Identifier: fingerprint ZGV2aWNlLTE=", "-H", "X-Device-Info: " + info]
            let session = try curl(
                device + [
                    "--data", "mvpd=PassimCable&domainName=tv.test&redirectUrl=https%3A%2F%2Ftv.test%2Fdone",
                    sp + "/api/v2/passimtv/sessions",
                ])
            let code = try #require(
                (try JSONSerialization.jsonObject(with: Data(session.utf8)) as? [String: Any])?["code"] as? String,
                "\(session)")
            let poll = device + [sp + "/api/v2/passimtv/profiles/code/" + code]
            #expect(try curl(poll).contains(#""profiles":{}"#))

            let login = try passim(["login", "--server", admin, "--admin-token", token, code, "as", "viewer"])
            #expect(login.status == 0, "\(login.stderr)")
            #expect(login.stdout.contains(#""user":"viewer","mvpd":"PassimCable","requestor":"passimtv""#))
            #expect(login.stdout.contains(#""at":"https://tv.test/done""#))
            #expect(try curl(poll).contains(#""PassimCable":{"#))

            // Refusals: exit 1 and the server's reason; the session's login is done, the user unknown.
            let again = try passim(["login", "--server", admin, "--admin-token", token, code, "as", "viewer"])
            #expect(again.status == 1)
            #expect(again.stderr.contains("409 Conflict: viewer could not log in for code \(code)"), "\(again.stderr)")
            let nobody = try passim(["login", "--server", admin, "--admin-token", token, code, "as", "bob"])
            #expect(nobody.status == 1)
            #expect(nobody.stderr.contains("404 Not Found: no user bob in this world (its users: viewer)"))
            // Unusable input and a refused token: exit 2.
            let form = try passim(["login", "--server", admin, "--admin-token", token, code, "bob", "x"])
            #expect(form.status == 2)
            #expect(form.stderr.contains("give CODE as USER"))
            let wrong = try passim(["login", "--server", admin, "--admin-token", "wrong", code, "as", "viewer"])
            #expect(wrong.status == 2)
            #expect(wrong.stderr.contains("refused the admin token"))
        }
    }
}
