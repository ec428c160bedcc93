/// `--shard i/n`: the files, sorted by path, dealt round-robin to n shards; this run takes the i-th
/// (1-based). Every file lands in exactly one shard and the shards differ in size by at most one.
public struct Shard: Hashable, Sendable, CustomStringConvertible {
    public var index: Int
    public var count: Int

    public struct ParseError: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    public init(index: Int, count: Int) throws(ParseError) {
        guard count >= 1 else {
            throw ParseError(description: "--shard \(index)/\(count): the shard count must be at least 1")
        }
        guard (1...count).contains(index) else {
            throw ParseError(
                description:
                    "--shard \(index)/\(count): the shard number must be between 1 and \(count) (shards are numbered from 1)"
            )
        }
        self.index = index
        self.count = count
    }

    /// Parses `i/n`.
    public init(parsing text: String) throws(ParseError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]) else {
            throw ParseError(description: "--shard '\(text)': expected i/n, e.g. --shard 1/4")
        }
        try self.init(index: i, count: n)
    }

    /// The files of this shard, in the order given.
    public func select(_ files: [String]) -> [String] {
        let mine = Set(Array(Set(files)).sorted().enumerated().filter { $0.offset % count == index - 1 }.map(\.element))
        return files.filter { mine.contains($0) }
    }

    public var description: String { "\(index)/\(count)" }
}
