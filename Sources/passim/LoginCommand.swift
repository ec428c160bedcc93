import ArgumentParser
import Foundation
import Harness

/// `passim login --server ADMIN_URL CODE as USER`: a running `passim serve` logs a user in for a REST
/// API v2 session's code (its `POST /admin/login`), the second screen of a TV client's test.
struct LoginCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Log a user in for a REST API v2 session's code on a running passim serve.",
        discussion: """
            CODE is the code of a session the client created (POST /api/v2/{serviceProvider}/sessions), or the \
            session answer's url (/api/v2/authenticate/{serviceProvider}/{code}). The server opens that page in \
            a browser of its own, follows it to the MVPD's login page (SAML, or OAuth2 with PKCE), types the \
            user's name and password and sends the form, as a scenario's `user authenticate $CODE as "NAME"` \
            does; the client's next poll of profiles/code/{code} finds the profile. On success the server's \
            answer is printed (JSON: user, mvpd, requestor, code, url, and at, where the browser ended). \
            docs/SERVE.md, "Log a user in for a code".
            Exit status: 0 logged in, 1 the server refused (an unknown code or user, a wrong password, a \
            session that cannot take a login: its reason is printed), 2 unusable input or no server.
            """)

    @Argument(help: ArgumentHelp("The session's code (or its authenticate url).", valueName: "CODE"))
    var code: String

    @Argument(help: ArgumentHelp("The word as.", valueName: "as"))
    var asWord: String

    @Argument(help: ArgumentHelp("A user of the served world.", valueName: "USER"))
    var user: String

    @Option(
        name: .customLong("server"),
        help: ArgumentHelp("The running passim serve's admin URL (its `admin` line).", valueName: "URL"))
    var adminURL: String

    @Option(
        help: ArgumentHelp(
            "The admin token that passim serve printed (default: $PASSIM_ADMIN_TOKEN).", valueName: "TOKEN"))
    var adminToken: String?

    @Option(
        help: ArgumentHelp(
            "The password to type (default: the user's own, as the world declares it).", valueName: "TEXT"))
    var password: String?

    @Option(
        help: ArgumentHelp(
            "The session's programmer, its {serviceProvider} (default: the world's only one, else the only one a session was created for).",
            valueName: "ID"))
    var requestor: String?

    @Option(
        help: ArgumentHelp(
            "The SP whose host serves the login (default: the first offering the user's MVPD).", valueName: "NAME"))
    var sp: String?

    func validate() throws {
        guard asWord == "as", !code.isEmpty, !user.isEmpty else {
            throw ValidationError("give CODE as USER (e.g. passim login --server URL ABC1234 as alice)")
        }
    }

    func run() throws {
        let token = adminToken ?? ProcessInfo.processInfo.environment["PASSIM_ADMIN_TOKEN"]
        guard let token, !token.isEmpty else {
            throw Terminal.fail(
                "passim login: no admin token: give --admin-token TOKEN or set PASSIM_ADMIN_TOKEN (passim serve prints it on its admin-token line)",
                status: 2)
        }
        var fields: [(String, String)] = [(code.contains("/") ? "url" : "code", code), ("user", user)]
        if let password { fields.append(("password", password)) }
        if let requestor { fields.append(("requestor", requestor)) }
        if let sp { fields.append(("sp", sp)) }
        let answer: RemoteLogin.Answer
        do {
            answer = try RemoteLogin.perform(adminURL: adminURL, token: token, fields: fields)
        } catch {
            throw Terminal.fail("passim login: \(error.message)", status: 2)
        }
        let text = answer.text.trimmingCharacters(in: .whitespacesAndNewlines)
        switch answer.status {
        case 200:
            Terminal.write(text + "\n", to: FileHandle.standardOutput)
        case 401:
            throw Terminal.fail("passim login: the server refused the admin token: \(text)", status: 2)
        case 403 where !text.contains("could not log in"):
            throw Terminal.fail("passim login: the server refused the admin call: \(text)", status: 2)
        case 404 where text.contains("admin paths are"), 404 where text.contains("without a login browser"):
            throw Terminal.fail("passim login: \(adminURL) has no login: \(text)", status: 2)
        default:
            throw Terminal.fail("passim login: \(text)", status: 1)
        }
    }
}
