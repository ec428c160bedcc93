/// `passim run -k EXPRESSION`: pytest's `-k`. A word selects the scenarios whose path or title holds it
/// (case-insensitive); words combine with `and`, `or`, `not` and parentheses: `-k 'tvos and not cancel'`.
/// Several `-k` options select what any of them selects.
public struct NameFilter: Sendable, Equatable {
    indirect enum Node: Sendable, Equatable {
        case word(String)
        case not(Node)
        case and(Node, Node)
        case or(Node, Node)
    }

    let root: Node
    public let text: String

    public struct ParseError: Error, CustomStringConvertible {
        public let description: String
    }

    public init(parsing text: String) throws(ParseError) {
        var parser = Parser(tokens: NameFilter.tokens(text), text: text)
        guard !parser.tokens.isEmpty else {
            throw ParseError(description: "-k takes a word or an expression, got nothing")
        }
        let node = try parser.expression()
        if parser.position < parser.tokens.count {
            throw ParseError(description: "-k '\(text)': unexpected '\(parser.tokens[parser.position])'")
        }
        root = node
        self.text = text
    }

    /// Whether a scenario with this path and title is selected.
    public func selects(path: String, title: String) -> Bool {
        let haystack = (path + "\n" + title).lowercased()
        return NameFilter.evaluate(root, haystack)
    }

    private static func evaluate(_ node: Node, _ haystack: String) -> Bool {
        switch node {
        case .word(let w): return haystack.contains(w)
        case .not(let n): return !evaluate(n, haystack)
        case .and(let a, let b): return evaluate(a, haystack) && evaluate(b, haystack)
        case .or(let a, let b): return evaluate(a, haystack) || evaluate(b, haystack)
        }
    }

    static func tokens(_ text: String) -> [String] {
        var tokens: [String] = []
        var word = ""
        for c in text {
            if c == "(" || c == ")" || c.isWhitespace {
                if !word.isEmpty { tokens.append(word); word = "" }
                if !c.isWhitespace { tokens.append(String(c)) }
            } else {
                word.append(c)
            }
        }
        if !word.isEmpty { tokens.append(word) }
        return tokens
    }

    /// expression := term ("or" term)* ; term := factor ("and" factor)* ; factor := "not" factor | "(" expression ")" | word
    private struct Parser {
        let tokens: [String]
        let text: String
        var position = 0

        mutating func expression() throws(ParseError) -> Node {
            var node = try term()
            while peek == "or" {
                position += 1
                node = .or(node, try term())
            }
            return node
        }

        mutating func term() throws(ParseError) -> Node {
            var node = try factor()
            while peek == "and" {
                position += 1
                node = .and(node, try factor())
            }
            return node
        }

        mutating func factor() throws(ParseError) -> Node {
            guard let token = peek else { throw ParseError(description: "-k '\(text)': the expression ends too soon") }
            position += 1
            switch token {
            case "not": return .not(try factor())
            case "(":
                let node = try expression()
                guard peek == ")" else { throw ParseError(description: "-k '\(text)': a '(' is not closed") }
                position += 1
                return node
            case ")", "and", "or":
                throw ParseError(description: "-k '\(text)': unexpected '\(token)'")
            default:
                return .word(token.lowercased())
            }
        }

        var peek: String? { position < tokens.count ? tokens[position].lowercased() : nil }
    }
}
