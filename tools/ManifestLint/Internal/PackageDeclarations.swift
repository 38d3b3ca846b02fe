/// Where Package.swift declares each target and its dependencies, read from the text of
/// `Package(... targets: [...])`, so a diagnostic about a dependency can name its line.
///
/// The elements of the `targets:` array are matched to the targets `swift package dump-package`
/// lists, which keeps their order: element *i* is target *i* when the counts agree (so a target
/// declared through a helper, `tests("Wire", ["Wire"])` for `WireTests`, is found); otherwise an
/// element is matched by its first string literal, the target's name. A dependency is the first
/// string literal inside square brackets in its target's element that equals its name; when the
/// helper adds it (no literal), the element's first line stands for it.
struct PackageDeclarations {
    /// A line and column in Package.swift.
    struct Position: Equatable {
        var line: Int
        var column: Int
    }

    private struct Token {
        enum Kind { case word, string, punctuation }
        var kind: Kind
        var text: String
        var position: Position
    }

    /// Each target's element of the `targets:` array, by target name.
    private var elements: [String: [Token]] = [:]

    init(text: String, targetNames: [String]) {
        let tokens = Self.tokens(in: text)
        let list = Self.targetElements(tokens)
        if list.count == targetNames.count {
            for (name, element) in zip(targetNames, list) { elements[name] = element }
        } else {
            for element in list {
                if let name = element.first(where: { $0.kind == .string })?.text, elements[name] == nil {
                    elements[name] = element
                }
            }
        }
    }

    /// Where `target` declares its dependency on `dependency`, or where the target is declared, or
    /// `nil` when Package.swift's text does not show the target.
    func position(ofDependency dependency: String, of target: String) -> Position? {
        guard let element = elements[target], let first = element.first else { return nil }
        var open: [String] = []
        for token in element {
            if token.kind == .punctuation {
                if "([{".contains(token.text) {
                    open.append(token.text)
                } else if ")]}".contains(token.text), !open.isEmpty {
                    open.removeLast()
                }
            } else if token.kind == .string, token.text == dependency, open.contains("[") {
                return token.position
            }
        }
        return first.position
    }

    /// The elements of the `targets:` argument of `Package(...)`.
    private static func targetElements(_ tokens: [Token]) -> [[Token]] {
        guard
            let package = tokens.indices.first(where: {
                tokens[$0].kind == .word && tokens[$0].text == "Package" && $0 + 1 < tokens.count
                    && tokens[$0 + 1].text == "("
            })
        else { return [] }
        var depth = 0
        var index = package + 1
        var start: Int?
        while index < tokens.count {
            let token = tokens[index]
            if token.kind == .punctuation && "([{".contains(token.text) {
                depth += 1
            } else if token.kind == .punctuation && ")]}".contains(token.text) {
                depth -= 1
                if depth == 0 { return [] }
            } else if depth == 1, token.kind == .word, token.text == "targets", index + 2 < tokens.count,
                tokens[index + 1].text == ":", tokens[index + 2].text == "["
            {
                start = index + 3
                break
            }
            index += 1
        }
        guard var index = start else { return [] }
        var elements: [[Token]] = []
        var current: [Token] = []
        depth = 0
        while index < tokens.count {
            let token = tokens[index]
            index += 1
            if token.kind == .punctuation {
                if "([{".contains(token.text) {
                    depth += 1
                } else if ")]}".contains(token.text) {
                    if depth == 0 { break }
                    depth -= 1
                } else if token.text == ",", depth == 0 {
                    if !current.isEmpty { elements.append(current) }
                    current = []
                    continue
                }
            }
            current.append(token)
        }
        if !current.isEmpty { elements.append(current) }
        return elements
    }

    /// Words, string literals (their text, with any interpolation left as written) and the
    /// punctuation `( ) [ ] { } , :` of Swift source, outside comments.
    private static func tokens(in text: String) -> [Token] {
        let bytes = Array(text.utf8)
        var tokens: [Token] = []
        var i = 0
        var line = 1
        var lineStart = 0
        func isWordByte(_ b: UInt8) -> Bool {
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F
                || b >= 0x80
        }
        while i < bytes.count {
            let b = bytes[i]
            let next = i + 1 < bytes.count ? bytes[i + 1] : 0
            let position = Position(line: line, column: i - lineStart + 1)
            if b == 0x0A {
                line += 1
                lineStart = i + 1
                i += 1
            } else if b == UInt8(ascii: "/") && next == UInt8(ascii: "/") {
                while i < bytes.count && bytes[i] != 0x0A { i += 1 }
            } else if b == UInt8(ascii: "/") && next == UInt8(ascii: "*") {
                i += 2
                while i < bytes.count
                    && !(bytes[i] == UInt8(ascii: "*") && i + 1 < bytes.count
                        && bytes[i + 1] == UInt8(ascii: "/"))
                {
                    if bytes[i] == 0x0A {
                        line += 1
                        lineStart = i + 1
                    }
                    i += 1
                }
                i += 2
            } else if b == UInt8(ascii: "\"") {
                // A one-line literal; `\(...)` may hold quotes and parentheses of its own.
                var end = i + 1
                var interpolation = 0
                while end < bytes.count && bytes[end] != 0x0A {
                    if bytes[end] == UInt8(ascii: "\\") {
                        if end + 1 < bytes.count && bytes[end + 1] == UInt8(ascii: "(") { interpolation += 1 }
                        end += 2
                        continue
                    }
                    if interpolation > 0 {
                        if bytes[end] == UInt8(ascii: "(") { interpolation += 1 }
                        if bytes[end] == UInt8(ascii: ")") { interpolation -= 1 }
                    } else if bytes[end] == UInt8(ascii: "\"") {
                        break
                    }
                    end += 1
                }
                let contents = bytes[(i + 1)..<min(end, bytes.count)]
                tokens.append(
                    Token(kind: .string, text: String(decoding: contents, as: UTF8.self), position: position))
                i = end + 1
            } else if isWordByte(b) {
                let start = i
                while i < bytes.count && isWordByte(bytes[i]) { i += 1 }
                tokens.append(
                    Token(
                        kind: .word, text: String(decoding: bytes[start..<i], as: UTF8.self),
                        position: position))
            } else {
                if "()[]{},:".utf8.contains(b) {
                    tokens.append(
                        Token(kind: .punctuation, text: String(UnicodeScalar(b)), position: position))
                }
                i += 1
            }
        }
        return tokens
    }
}
