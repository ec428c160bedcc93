import PassModel

/// A client registered through Adobe's DCR with a software statement (facts §1 "Registration").
struct RegisteredClient: Sendable {
    var secret: String
    var softwareStatement: String
}

/// A Bearer access token of a registered client.
struct AccessToken: Sendable {
    var softwareStatement: String
    var expires: Instant
}
