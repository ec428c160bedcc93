/// A place in a scenario file. Lines and columns are 1-based; a column counts Unicode scalars.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`, the prefix compilers use, so editors can jump to it.
    public var description: String { "\(file):\(line):\(column)" }
}

/// A statement of a scenario file with where it was written.
public struct Located<T: Sendable>: Sendable {
    public var value: T
    /// Where the statement starts (its first non-blank character).
    public var location: SourceLocation
    /// The statement's source text, without leading blanks, comment and trailing blanks.
    public var text: String

    public init(_ value: T, location: SourceLocation, text: String) {
        self.value = value
        self.location = location
        self.text = text
    }
}

extension Located: Equatable where T: Equatable {}
extension Located: Hashable where T: Hashable {}
