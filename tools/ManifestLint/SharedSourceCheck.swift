import Composition
import Foundation

/// Finds shared code (Swift sources under Modules/ and Sockets/) that names an app: its id,
/// display name or app type, in code or strings. Comments may mention apps.
///
/// Identifiers are split at case changes, so `isPhotoApp` is read as `is`, `Photo`, `App`, and a
/// name is matched as a whole word, case-insensitively.
public struct SharedSourceCheck: Sendable {
    /// The words that name an app, lowercased, with the app each names.
    public let forbidden: [String: String]

    /// Makes a check for apps' ids, display names and type names.
    public init(appNames: [(app: String, names: [String])]) {
        var forbidden: [String: String] = [:]
        for (app, names) in appNames {
            for name in names { forbidden[name.lowercased()] = app }
        }
        self.forbidden = forbidden
    }

    /// The names of an app: its id, display name, its type and its library's name.
    public static func names(of definition: AppDefinition, displayName: String) -> [String] {
        [definition.id, displayName, "\(displayName)App"]
    }

    /// Every naming in the `.swift` files under `directories` (relative to `root`).
    public func run(root: String, directories: [String]) -> [Diagnostic] {
        SwiftSources.read(root: root, directories: directories).flatMap {
            check(source: $0.text, file: $0.file)
        }
    }

    /// Every naming in one source text.
    public func check(source: String, file: String) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for token in SwiftWords.words(in: source) {
            let parts = [token.text] + SwiftWords.camelCaseParts(token.text)
            guard let hit = parts.first(where: { forbidden[$0.lowercased()] != nil }),
                let app = forbidden[hit.lowercased()]
            else { continue }
            diagnostics.append(
                Diagnostic(
                    at: SourceLocation(file: file, line: token.line, column: token.column), code: "names-app",
                    "shared code names app '\(app)' ('\(token.text)'); ask a socket instead of checking which app is running"
                ))
        }
        return diagnostics
    }
}

/// Words of Swift source outside comments: identifiers, keywords and the words inside string
/// literals, each with its line and column, and whether it is inside a string literal.
enum SwiftWords {
    struct Word: Equatable {
        var text: String
        var line: Int
        var column: Int
        var inString = false
    }

    static func words(in source: String) -> [Word] {
        let bytes = Array(source.utf8)
        var words: [Word] = []
        var i = 0
        var line = 1
        var lineStart = 0
        var blockDepth = 0
        var inLineComment = false
        // Inside a string literal: the number of quotes that close it (1 or 3) and its '#' count.
        var stringQuotes = 0
        var stringHashes = 0

        func isWordByte(_ b: UInt8) -> Bool {
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F
                || b >= 0x80
        }
        func count(_ byte: UInt8, from start: Int) -> Int {
            var n = 0
            while start + n < bytes.count && bytes[start + n] == byte { n += 1 }
            return n
        }

        while i < bytes.count {
            let b = bytes[i]
            if b == 0x0A {
                line += 1
                lineStart = i + 1
                inLineComment = false
                i += 1
                continue
            }
            if inLineComment {
                i += 1
                continue
            }
            let next = i + 1 < bytes.count ? bytes[i + 1] : 0
            if blockDepth > 0 {
                if b == UInt8(ascii: "*") && next == UInt8(ascii: "/") {
                    blockDepth -= 1
                    i += 2
                } else if b == UInt8(ascii: "/") && next == UInt8(ascii: "*") {
                    blockDepth += 1
                    i += 2
                } else {
                    i += 1
                }
                continue
            }
            if stringQuotes > 0 {
                if b == UInt8(ascii: "\\") && stringHashes == 0 {
                    i += 2
                    continue
                }
                if b == UInt8(ascii: "\"") && count(UInt8(ascii: "\""), from: i) >= stringQuotes
                    && count(UInt8(ascii: "#"), from: i + stringQuotes) >= stringHashes
                {
                    i += stringQuotes + stringHashes
                    stringQuotes = 0
                    stringHashes = 0
                    continue
                }
            } else {
                if b == UInt8(ascii: "/") && next == UInt8(ascii: "/") {
                    inLineComment = true
                    i += 2
                    continue
                }
                if b == UInt8(ascii: "/") && next == UInt8(ascii: "*") {
                    blockDepth = 1
                    i += 2
                    continue
                }
                let hashes = b == UInt8(ascii: "#") ? count(UInt8(ascii: "#"), from: i) : 0
                if b == UInt8(ascii: "\"")
                    || (hashes > 0 && i + hashes < bytes.count && bytes[i + hashes] == UInt8(ascii: "\""))
                {
                    let quotes = count(UInt8(ascii: "\""), from: i + hashes)
                    stringQuotes = quotes >= 3 ? 3 : 1
                    stringHashes = hashes
                    i += hashes + stringQuotes
                    continue
                }
            }
            if isWordByte(b) {
                let start = i
                while i < bytes.count && isWordByte(bytes[i]) { i += 1 }
                let text = String(decoding: bytes[start..<i], as: UTF8.self)
                words.append(
                    Word(text: text, line: line, column: start - lineStart + 1, inString: stringQuotes > 0))
                continue
            }
            i += 1
        }
        return words
    }

    /// `isPhotoApp` → `is`, `Photo`, `App`; `URLSession` → `URL`, `Session`.
    static func camelCaseParts(_ word: String) -> [String] {
        var parts: [String] = []
        var current = ""
        let characters = Array(word)
        for (index, character) in characters.enumerated() {
            let nextIsLower = index + 1 < characters.count && characters[index + 1].isLowercase
            let previousIsLower =
                index > 0 && (characters[index - 1].isLowercase || characters[index - 1].isNumber)
            if character == "_" {
                if !current.isEmpty { parts.append(current) }
                current = ""
                continue
            }
            if character.isUppercase && !current.isEmpty && (previousIsLower || nextIsLower) {
                parts.append(current)
                current = ""
            }
            current.append(character)
        }
        if !current.isEmpty { parts.append(current) }
        return parts.count > 1 ? parts : []
    }
}
