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
    ///
    /// What the file holds goes to a terminal: control characters (ESC, BEL, NUL, CR...) and bidi
    /// overrides are written as `\u{1B}` so a file cannot drive the terminal or hide text, and a long
    /// line is shown as a window around the column.
    public var description: String {
        let echo = self.echo
        return Diagnostic.escaped("\(location): \(message)") + "\n" + echo.line + "\n" + echo.caret
    }

    /// Spaces up to the column and a `^`; tabs of the line are kept so the caret lines up in a terminal.
    public var caretLine: String { echo.caret }

    /// Scalars of a long line shown around the column (about a terminal's width either side).
    private static let echoWindow = 100

    /// The line as shown and the caret line under it, both with the same escapes and window.
    private var echo: (line: String, caret: String) {
        let scalars = Array(lineText.unicodeScalars)
        let index = max(location.column - 1, 0)
        var from = 0, to = scalars.count
        if scalars.count > 2 * Diagnostic.echoWindow {
            from = max(0, min(index, scalars.count) - Diagnostic.echoWindow)
            to = min(scalars.count, from + 2 * Diagnostic.echoWindow)
        }
        var line = from > 0 ? "…" : ""
        var caret = from > 0 ? " " : ""
        for (offset, scalar) in scalars[from..<to].enumerated() {
            let shown = Diagnostic.shown(scalar)
            line += shown
            if from + offset < index {
                caret += scalar == "\t" ? "\t" : String(repeating: " ", count: shown.unicodeScalars.count)
            }
        }
        if to < scalars.count { line += "…" }
        // A column past the end of the line (an unterminated construct): one space per missing column.
        if index > to { caret += String(repeating: " ", count: index - max(to, from)) }
        return (line, caret + "^")
    }

    /// `text` with every control or bidi-formatting scalar written as `\u{HEX}`.
    public static func escaped(_ text: String) -> String {
        text.unicodeScalars.map(shown).joined()
    }

    private static func shown(_ scalar: Unicode.Scalar) -> String {
        guard needsEscape(scalar) else { return String(scalar) }
        return "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09: return false  // a tab is shown as a tab: the caret line keeps it too
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
