import PassModel

/// Invariant 4 (BEHAVIOR.md): every answer belongs to a call of its own. A preauthorization answer
/// is a subsequence of a distinct request (answers need not come in call order: one from the cache
/// comes at once), `setMetadataStatus` echoes the dictionary of a `getMetadata`, `selectedProvider`
/// answers a `getSelectedProvider`. Judged from calls and callbacks alone.
struct AnswerLedger: Sendable {
    private var selectedProviderQueries = 0
    /// Every `checkPreauthorizedResources` request, and every answer delivered.
    private var preauthorizations: [[String]] = []
    private var preauthorizationAnswers: [[String]] = []
    private var metadata: [Value] = []

    mutating func called(_ call: Call) {
        switch call {
        case .getSelectedProvider: selectedProviderQueries += 1
        case .checkPreauthorizedResources(let rs, _): preauthorizations.append(rs)
        case .getMetadata(let d): metadata.append(d)
        case .initialize, .setOptions, .setRequestor, .checkAuthentication, .getAuthentication, .setSelectedProvider,
            .handleExternalURL, .checkAuthorization, .getAuthorization, .logout, .getAuthenticationToken, .getVersion:
            break
        }
    }

    /// What is wrong with `callback`, if anything.
    mutating func delivered(_ callback: Callback) -> String? {
        switch callback {
        case .preauthorizedResources(let allowed):
            // Each answer must belong to a distinct request it is a subset of, in request order:
            // a matching of all answers so far to requests must exist.
            preauthorizationAnswers.append(allowed)
            if !AnswerLedger.canMatch(preauthorizationAnswers, to: preauthorizations) {
                preauthorizationAnswers.removeLast()
                return
                    "preauthorizedResources(\(allowed)) answers no request: asked \(preauthorizations), answered \(preauthorizationAnswers)"
            }
        case .selectedProvider:
            if selectedProviderQueries == 0 { return "selectedProvider with no getSelectedProvider waiting" }
            selectedProviderQueries -= 1
        case .setMetadataStatus(_, _, _, let args):
            guard let i = metadata.firstIndex(of: args) else {
                return "setMetadataStatus echoes \(args), which no getMetadata asked for"
            }
            metadata.remove(at: i)
        case .setRequestorComplete, .setAuthenticationStatus, .displayProviderDialog, .navigateToUrl, .setToken,
            .tokenRequestFailed, .presentTvProviderDialog, .dismissTvProviderDialog, .status, .sendTrackingData:
            break
        }
        return nil
    }

    /// Bipartite matching (augmenting paths): can every answer be given its own request?
    static func canMatch(_ answers: [[String]], to requests: [[String]]) -> Bool {
        guard answers.count <= requests.count else { return false }
        var owner = [Int?](repeating: nil, count: requests.count)
        func assign(_ a: Int, _ seen: inout [Bool]) -> Bool {
            for r in requests.indices where !seen[r] && isSubsequence(answers[a], of: requests[r]) {
                seen[r] = true
                if owner[r] == nil || assign(owner[r]!, &seen) {
                    owner[r] = a
                    return true
                }
            }
            return false
        }
        for a in answers.indices {
            var seen = [Bool](repeating: false, count: requests.count)
            if !assign(a, &seen) { return false }
        }
        return true
    }

    static func isSubsequence(_ xs: [String], of ys: [String]) -> Bool {
        var i = ys.startIndex
        for x in xs {
            guard let j = ys[i...].firstIndex(of: x) else { return false }
            i = ys.index(after: j)
        }
        return true
    }
}
