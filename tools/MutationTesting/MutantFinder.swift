/// Finds every mutant the operators can make in one Swift file.
///
/// Only code is touched: comments (doc comments included) and string literals never are, nor
/// compiler directive lines, attributes, imports, or code in a `#if DEBUG` block (or a branch
/// this platform does not compile, such as `#if canImport(Darwin)`).
///
/// ```swift
/// let mutants = MutantFinder.mutants(in: source, file: "Modules/ListEngine/ListDiff.swift")
/// ```
///
/// Complexity: O(n) in the file's length.
public enum MutantFinder {
    /// Every mutant of `source`, in the order of their positions; `file` names it in each mutant.
    public static func mutants(in source: String, file: String) -> [Mutant] {
        let tokens = SwiftLexer.tokens(of: source)
        let skipped = skippedLines(tokens)
        let code = tokens.enumerated().filter {
            $0.element.kind != .comment && !skipped.contains($0.element.line)
        }
        .map(\.offset)
        var found: [Mutant] = []
        var seen: Set<String> = []
        func add(_ token: SwiftToken, _ mutationOperator: MutationOperator, _ replacement: String) {
            let key = "\(token.range.lowerBound):\(token.range.upperBound):\(replacement)"
            guard seen.insert(key).inserted else { return }
            found.append(
                Mutant(
                    file: file, line: token.line, column: token.column, mutationOperator: mutationOperator,
                    range: token.range, original: token.text, replacement: replacement))
        }
        for (position, index) in code.enumerated() {
            let token = tokens[index]
            let previous = position > 0 ? tokens[code[position - 1]] : nil
            let next = position + 1 < code.count ? tokens[code[position + 1]] : nil
            switch token.kind {
            case .operator:
                let binary = token.spacedBefore && token.spacedAfter
                if binary, let flips = comparisonFlips[token.text] {
                    for flip in flips { add(token, .comparison, flip) }
                }
                if binary, token.text == "&&" { add(token, .boolean, "||") }
                if binary, token.text == "||" { add(token, .boolean, "&&") }
                if binary, token.text == "+" || token.text == "-", next?.text == "1", next?.kind == .number {
                    add(token, .offByOne, token.text == "+" ? "-" : "+")
                }
                if token.text == "!", !token.spacedAfter, token.spacedBefore || previous?.text == "(" {
                    add(token, .boolean, "")
                }
            case .identifier where token.text == "true":
                add(token, .boolean, "false")
            case .identifier where token.text == "false":
                add(token, .boolean, "true")
            case .number:
                guard previous?.text != ".", previous?.text != "#", let value = integerValue(token.text)
                else { break }
                add(token, .offByOne, String(value + 1))
                if value > 0 { add(token, .offByOne, String(value - 1)) }
                add(token, .constant, value == 0 ? "1" : "0")
            default:
                break
            }
        }
        found += droppedStatements(source: Array(source.utf8), tokens: tokens, code: code, file: file)
        return found.sorted { ($0.start, $0.end, $0.replacement) < ($1.start, $1.end, $1.replacement) }
    }

    static let comparisonFlips: [String: [String]] = [
        "<": ["<=", ">"], "<=": ["<"], ">": [">=", "<"], ">=": [">"], "==": ["!="], "!=": ["=="],
    ]

    /// A decimal integer literal's value (`1_000` included); nil for floats, hex and the like.
    static func integerValue(_ text: String) -> Int? {
        let digits = text.filter { $0 != "_" }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return nil }
        return Int(digits)
    }

    /// Lines not to mutate: compiler directives, attributes, imports, and every line of a `#if`
    /// branch that a debug build on this platform does not compile or that only a debug build
    /// does.
    static func skippedLines(_ tokens: [SwiftToken]) -> Set<Int> {
        var skipped: Set<Int> = []
        // Per open `#if`: whether the current branch is skipped, and whether any earlier branch was
        // one this platform compiles (so `#else` is not).
        var branches: [(skipping: Bool, earlierTaken: Bool, debug: Bool)] = []
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            let lineTokens = tokens[index...].prefix { $0.line == token.line }
            let lineEnd = lineTokens.last.map { $0.line + $0.text.filter { $0 == "\n" }.count } ?? token.line
            let condition = lineTokens.dropFirst().map(\.text).joined()
            switch token.kind == .pound ? token.text : "" {
            case "#if":
                let debug = condition.contains("DEBUG")
                branches.append((debug || compiledElsewhere(condition), compiledHere(condition), debug))
            case "#elseif":
                if let last = branches.popLast() {
                    branches.append(
                        (
                            last.debug || last.earlierTaken || compiledElsewhere(condition),
                            last.earlierTaken || compiledHere(condition), last.debug
                        ))
                }
            case "#else":
                if let last = branches.popLast() {
                    branches.append((last.debug || last.earlierTaken, true, last.debug))
                }
            case "#endif":
                _ = branches.popLast()
            default:
                break
            }
            let directive =
                token.kind == .pound && ["#if", "#elseif", "#else", "#endif"].contains(token.text)
            let declarationOnly = token.text == "@" || token.text == "import"
            if directive || declarationOnly || branches.contains(where: \.skipping) {
                for line in token.line...lineEnd { skipped.insert(line) }
            }
            index += lineTokens.count
        }
        return skipped
    }

    private static func compiledElsewhere(_ condition: String) -> Bool {
        ["Darwin", "os(macOS)", "os(iOS)", "os(Windows)", "canImport(UIKit)", "canImport(AppKit)"].contains {
            condition.contains($0)
        } && !condition.contains("!")
    }

    private static func compiledHere(_ condition: String) -> Bool {
        ["Glibc", "os(Linux)", "FoundationNetworking"].contains { condition.contains($0) }
            && !condition.contains("!")
    }

    private static let statementKeywords: Set<String> = [
        "let", "var", "return", "guard", "if", "else", "for", "while", "repeat", "switch", "case", "default",
        "break", "continue", "fallthrough", "throw", "defer", "do", "catch", "func", "init", "deinit",
        "struct", "class", "enum", "protocol", "extension", "import", "typealias", "private", "public",
        "internal", "fileprivate", "package", "static", "override", "final", "mutating", "nonmutating",
        "lazy", "weak", "unowned", "subscript", "get", "set", "willSet", "didSet", "actor", "nonisolated",
        "indirect", "associatedtype", "some", "any", "in", "where", "consume", "borrowing", "consuming",
        "yield", "super", "Self", "true", "false", "nil",
    ]

    private static let assignmentOperators: Set<String> = [
        "=", "+=", "-=", "*=", "/=", "%=", "|=", "&=", "^=",
    ]

    /// Lines holding one whole simple statement (a call, or an assignment to something already
    /// declared) whose removal should still compile: not the only statement of a block, a closure
    /// or a `case`, not part of a longer expression spanning lines.
    static func droppedStatements(
        source: [UInt8], tokens: [SwiftToken], code: [Int], file: String
    ) -> [Mutant] {
        var lines: [[SwiftToken]] = []
        for index in code {
            let token = tokens[index]
            if let last = lines.last?.last, last.line == token.line {
                lines[lines.count - 1].append(token)
            } else {
                lines.append([token])
            }
        }
        var found: [Mutant] = []
        // Whether each open brace's body is an initializer's (control flow inside one included):
        // there an assignment may be what initializes a stored property, and without it the
        // initializer does not compile.
        var initializerBodies: [Bool] = []
        for (number, line) in lines.enumerated() {
            let inInitializer = initializerBodies.last ?? false
            defer { track(line, in: &initializerBodies) }
            guard let first = line.first, let last = line.last else { continue }
            let before = number > 0 ? lines[number - 1] : []
            let after = number + 1 < lines.count ? lines[number + 1] : []
            // One line, balanced, and the lines around it complete statements of their own.
            guard isBalanced(line), before.last.map(endsStatement) ?? true,
                let nextFirst = after.first, startsStatement(nextFirst), endsStatement(last)
            else { continue }
            // The only statement of a block, closure or case: removing it leaves an empty body
            // (or a closure without its result).
            let opensBody = before.last.map { ["{", "in", ":"].contains($0.text) } ?? false
            let closesBody = ["}", "case", "default"].contains(nextFirst.text)
            guard !(opensBody && closesBody) else { continue }
            guard let statement = simpleStatement(line), !(statement == .assignment && inInitializer) else {
                continue
            }
            // Keep line numbers: the statement's text goes, its line stays (empty).
            let range = first.range.lowerBound..<last.range.upperBound
            found.append(
                Mutant(
                    file: file, line: first.line, column: first.column, mutationOperator: .droppedStatement,
                    range: range,
                    original: String(decoding: source[range], as: UTF8.self), replacement: ""))
        }
        return found
    }

    private static let controlFlowKeywords: Set<String> = [
        "if", "guard", "else", "for", "while", "repeat", "switch", "do", "catch", "defer", "case", "default",
    ]

    /// Updates the stack of open braces (whether each is an initializer's body) past `line`.
    private static func track(_ line: [SwiftToken], in stack: inout [Bool]) {
        for (index, token) in line.enumerated() where token.kind == .punctuation {
            if token.text == "}" {
                _ = stack.popLast()
            } else if token.text == "{" {
                let head = line[..<index].drop { $0.text == "}" }
                let declaresInitializer = head.enumerated().contains { offset, token in
                    token.text == "init" && (offset == 0 || head[head.startIndex + offset - 1].text != ".")
                }
                if declaresInitializer {
                    stack.append(true)
                } else if let first = head.first, controlFlowKeywords.contains(first.text) {
                    stack.append(stack.last ?? false)
                } else {
                    stack.append(false)
                }
            }
        }
    }

    private static func isBalanced(_ line: [SwiftToken]) -> Bool {
        var depth = 0
        for token in line where token.kind == .punctuation {
            if ["(", "[", "{"].contains(token.text) { depth += 1 }
            if [")", "]", "}"].contains(token.text) { depth -= 1 }
            if depth < 0 { return false }
        }
        return depth == 0
    }

    private static func endsStatement(_ token: SwiftToken) -> Bool {
        switch token.kind {
        case .operator: return ["!", "?"].contains(token.text) && !token.spacedBefore
        case .punctuation: return [")", "]", "}", "{"].contains(token.text)
        case .identifier: return !["in", "return", "try", "await", "else"].contains(token.text)
        default: return true
        }
    }

    private static func startsStatement(_ token: SwiftToken) -> Bool {
        switch token.kind {
        case .operator: return false
        case .punctuation: return !["(", ".", ",", ":", ")", "]"].contains(token.text)
        default: return true
        }
    }

    enum Statement { case call, assignment }

    /// Whether a line is a call (`x.append(y)`, `try await store.save()`) or an assignment
    /// (`count += 1`, `self.state = .idle`) standing alone; nil when it is neither.
    private static func simpleStatement(_ line: [SwiftToken]) -> Statement? {
        var tokens = line[...]
        while let first = tokens.first, first.text == "try" || first.text == "await" {
            tokens = tokens.dropFirst()
        }
        guard let first = tokens.first, first.kind == .identifier, !statementKeywords.contains(first.text),
            !tokens.contains(where: { $0.text == "{" || $0.text == "}" })
        else { return nil }
        // The head is a name path (`a.b.c`, `self.x`, `_`, `a[i]`) up to a call or an assignment.
        var depth = 0
        var called = false
        for token in tokens.dropFirst() {
            if depth == 0 && token.kind == .operator && assignmentOperators.contains(token.text) {
                return .assignment
            }
            if token.text == "(" || token.text == "[" { depth += 1 }
            if token.text == ")" || token.text == "]" { depth -= 1 }
            if token.text == "(" && depth == 1 { called = true }
            if depth == 0, token.kind == .operator, !["!", "?"].contains(token.text) { return nil }
        }
        return called && tokens.last?.text == ")" ? .call : nil
    }
}
