/// One token of Swift source: where it is and what kind of text it holds.
public struct SwiftToken: Sendable, Equatable {
    /// What a token is.
    public enum Kind: Sendable, Equatable {
        /// A name or keyword (`let`, `count`, `$0`, or a name in backticks).
        case identifier
        /// A number literal (`42`, `0x7F`, `1.5`).
        case number
        /// A string literal, interpolations included (`"a\(b)c"`, `#"raw"#`, `"""…"""`).
        case string
        /// An operator (`<`, `&&`, `..<`, `!`, `=`, `->`).
        case `operator`
        /// Punctuation: `( ) [ ] { } , ; : @ .` and a lone `#`.
        case punctuation
        /// A `#` keyword: a compiler directive (`#if`, `#endif`) or a macro (`#filePath`).
        case pound
        /// A comment, line or block (nested ones included), doc comments too.
        case comment
    }

    /// What the token is.
    public var kind: Kind
    /// Its UTF-8 bytes in the source, as offsets.
    public var range: Range<Int>
    /// The 1-based line it starts on.
    public var line: Int
    /// The 1-based column (in UTF-8 bytes) it starts at.
    public var column: Int
    /// Its text.
    public var text: String
    /// Whether a space, tab, newline or comment comes right before it (or it starts the file).
    public var spacedBefore: Bool
    /// Whether a space, tab, newline or comment comes right after it (or it ends the file).
    public var spacedAfter: Bool
}

/// A Swift lexer good enough to find the code a mutation may touch: it keeps comments
/// (line, block and nested block comments) and string literals (with interpolations, multi-line
/// and raw strings) whole, so nothing inside them is ever taken for code.
///
/// It does not check the source; text it does not understand becomes punctuation.
///
/// ```swift
/// let tokens = SwiftLexer.tokens(of: "let a = b < 2 // compare")
/// tokens.map(\.text)  // ["let", "a", "=", "b", "<", "2", "// compare"]
/// ```
///
/// Complexity: O(n) in the source's length.
public enum SwiftLexer {
    /// The tokens of `source`, in order; whitespace is not a token.
    public static func tokens(of source: String) -> [SwiftToken] {
        var scanner = Scanner(bytes: Array(source.utf8))
        var tokens = scanner.scanAll()
        for index in tokens.indices {
            let token = tokens[index]
            tokens[index].spacedBefore =
                index == 0
                ? true : scanner.isSpaceOrComment(before: token.range.lowerBound, tokens[index - 1])
            tokens[index].spacedAfter =
                index == tokens.count - 1
                ? true : scanner.isSpaceOrComment(after: token.range.upperBound, tokens[index + 1])
        }
        return tokens
    }
}

private let operatorBytes: Set<UInt8> = Set("/=-+!*%<>&|^~?.".utf8)
private let punctuationBytes: Set<UInt8> = Set("()[]{},;:@".utf8)

private func isIdentifierByte(_ byte: UInt8) -> Bool {
    (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
        || byte == 0x5F || byte == 0x24 || byte >= 0x80
}

private func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

private func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

private struct Scanner {
    let bytes: [UInt8]
    var position = 0
    var line = 1
    var lineStart = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    func peek(_ offset: Int = 0) -> UInt8? {
        position + offset < bytes.count ? bytes[position + offset] : nil
    }

    func isSpaceOrComment(before offset: Int, _ previous: SwiftToken) -> Bool {
        offset == 0 || isSpace(bytes[offset - 1]) || previous.kind == .comment
    }

    func isSpaceOrComment(after offset: Int, _ next: SwiftToken) -> Bool {
        offset >= bytes.count || isSpace(bytes[offset]) || next.kind == .comment
    }

    mutating func advance(_ count: Int = 1) {
        for _ in 0..<count where position < bytes.count {
            if bytes[position] == 0x0A {
                line += 1
                lineStart = position + 1
            }
            position += 1
        }
    }

    mutating func scanAll() -> [SwiftToken] {
        var tokens: [SwiftToken] = []
        while let token = next(closingParenthesisEnds: false) { tokens.append(token) }
        return tokens
    }

    /// The next token, or nil at the end (or, inside an interpolation, at its closing `)`).
    mutating func next(closingParenthesisEnds: Bool) -> SwiftToken? {
        while let byte = peek(), isSpace(byte) { advance() }
        guard let byte = peek() else { return nil }
        let start = position
        let startLine = line
        let startColumn = position - lineStart + 1
        let kind: SwiftToken.Kind
        switch byte {
        case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "/"):
            while let next = peek(), next != 0x0A { advance() }
            kind = .comment
        case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "*"):
            scanBlockComment()
            kind = .comment
        case UInt8(ascii: "\""):
            scanString(hashes: 0)
            kind = .string
        case UInt8(ascii: "#"):
            var hashes = 0
            while peek(hashes) == UInt8(ascii: "#") { hashes += 1 }
            if peek(hashes) == UInt8(ascii: "\"") {
                advance(hashes)
                scanString(hashes: hashes)
                kind = .string
            } else if let after = peek(1), isIdentifierByte(after), !isDigit(after) {
                advance()
                while let next = peek(), isIdentifierByte(next) { advance() }
                kind = .pound
            } else {
                advance()
                kind = .punctuation
            }
        case UInt8(ascii: "`"):
            advance()
            while let next = peek(), next != UInt8(ascii: "`"), next != 0x0A { advance() }
            if peek() == UInt8(ascii: "`") { advance() }
            kind = .identifier
        case _ where isDigit(byte):
            scanNumber()
            kind = .number
        case _ where isIdentifierByte(byte):
            while let next = peek(), isIdentifierByte(next) { advance() }
            kind = .identifier
        case UInt8(ascii: ")") where closingParenthesisEnds:
            return nil
        case _ where punctuationBytes.contains(byte):
            advance()
            kind = .punctuation
        case UInt8(ascii: ".") where peek(1) != UInt8(ascii: "."):
            advance()
            kind = .punctuation
        case _ where operatorBytes.contains(byte):
            scanOperator(dotted: byte == UInt8(ascii: "."))
            kind = .operator
        default:
            advance()
            kind = .punctuation
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        return SwiftToken(
            kind: kind, range: start..<position, line: startLine, column: startColumn, text: text,
            spacedBefore: false, spacedAfter: false)
    }

    /// `/* … */`, nested comments included; an unterminated one runs to the end.
    mutating func scanBlockComment() {
        var depth = 0
        while position < bytes.count {
            if peek() == UInt8(ascii: "/") && peek(1) == UInt8(ascii: "*") {
                depth += 1
                advance(2)
            } else if peek() == UInt8(ascii: "*") && peek(1) == UInt8(ascii: "/") {
                depth -= 1
                advance(2)
                if depth == 0 { return }
            } else {
                advance()
            }
        }
    }

    /// A string literal from its opening quote (raw-string `#`s already consumed): single-line or
    /// multi-line, escapes and interpolations (`\(…)`, or `\#(…)` in a raw string) included.
    mutating func scanString(hashes: Int) {
        let multiline = peek(1) == UInt8(ascii: "\"") && peek(2) == UInt8(ascii: "\"")
        let quotes = multiline ? 3 : 1
        advance(quotes)
        while let byte = peek() {
            if byte == 0x0A && !multiline { return }
            if byte == UInt8(ascii: "\\") && hashesFollow(hashes, at: position + 1) {
                advance(1 + hashes)
                if peek() == UInt8(ascii: "(") {
                    advance()
                    scanInterpolation()
                } else {
                    advance()
                }
                continue
            }
            if byte == UInt8(ascii: "\"") && closesString(quotes: quotes, hashes: hashes) {
                advance(quotes + hashes)
                return
            }
            advance()
        }
    }

    func hashesFollow(_ count: Int, at offset: Int) -> Bool {
        (0..<count).allSatisfy { offset + $0 < bytes.count && bytes[offset + $0] == UInt8(ascii: "#") }
    }

    func closesString(quotes: Int, hashes: Int) -> Bool {
        (0..<quotes).allSatisfy { peek($0) == UInt8(ascii: "\"") }
            && hashesFollow(hashes, at: position + quotes)
    }

    /// The code of an interpolation, to its closing `)`, nested parentheses, strings and comments
    /// included.
    mutating func scanInterpolation() {
        var depth = 0
        while position < bytes.count {
            if peek() == UInt8(ascii: ")") && depth == 0 {
                advance()
                return
            }
            guard let token = next(closingParenthesisEnds: depth == 0) else { continue }
            if token.text == "(" { depth += 1 }
            if token.text == ")" { depth -= 1 }
        }
    }

    /// A number: digits, `_`, letters (hex digits, exponents, `0x` prefixes), a `.` followed by a
    /// digit (not the start of `..<` or `...`), and a sign right after an exponent.
    mutating func scanNumber() {
        let hex =
            peek() == UInt8(ascii: "0") && (peek(1) == UInt8(ascii: "x") || peek(1) == UInt8(ascii: "X"))
        var seenDot = false
        while let byte = peek() {
            if isIdentifierByte(byte) && byte != UInt8(ascii: "$") {
                let exponent =
                    hex
                    ? (byte == UInt8(ascii: "p") || byte == UInt8(ascii: "P"))
                    : (byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E"))
                advance()
                if exponent, let sign = peek(), sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
                    advance()
                }
            } else if byte == UInt8(ascii: "."), !seenDot, let after = peek(1), isDigit(after) {
                seenDot = true
                advance()
            } else {
                return
            }
        }
    }

    /// An operator: a run of operator characters (dots only when it starts with one), stopping
    /// before a comment.
    mutating func scanOperator(dotted: Bool) {
        advance()
        while let byte = peek(), operatorBytes.contains(byte) {
            if byte == UInt8(ascii: "/") && (peek(1) == UInt8(ascii: "/") || peek(1) == UInt8(ascii: "*")) {
                return
            }
            if byte == UInt8(ascii: ".") && !dotted { return }
            advance()
        }
    }
}
