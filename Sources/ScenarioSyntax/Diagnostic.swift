/// An error of a scenario file: where, what, and the line it is on.
public struct Diagnostic: Error, Hashable, Sendable, CustomStringConvertible {
    public var location: SourceLocation
    public var message: String
    /// The source line the location is on (empty when there is none, e.g. an unreadable file).
    public var lineText: String

    public init(location: SourceLocation, message: String, lineText: String) {
        self.location = location
        self.message = message
        self.lineText = lineText
    }

    /// `file:line:column: message`, then the source line, then a caret under the column.
    public var description: String {
        "\(location): \(message)\n\(lineText)\n\(caretLine)"
    }

    /// Spaces up to the column and a `^`; tabs of the line are kept so the caret lines up in a terminal.
    public var caretLine: String {
        var prefix = ""
        var column = 1
        for scalar in lineText.unicodeScalars where column < location.column {
            prefix.unicodeScalars.append(scalar == "\t" ? "\t" : " ")
            column += 1
        }
        while column < location.column {
            prefix += " "
            column += 1
        }
        return prefix + "^"
    }
}
