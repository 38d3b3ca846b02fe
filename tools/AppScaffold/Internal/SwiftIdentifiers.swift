/// The identifiers a Swift source uses in its code: comments and string literals are skipped, so
/// a tab titled "Home" or a doc comment's words are not identifiers.
///
/// A light scan, not a parser: it knows `//` and nested `/* */` comments, string literals with
/// escapes, multi-line `"""` and raw `#"…"#` strings; the code inside an interpolation is skipped
/// with its string.
///
/// Complexity: O(n) for n bytes.
enum SwiftIdentifiers {
    /// Every identifier (letters, digits and `_`, not starting with a digit) in `source`'s code.
    static func inCode(of source: String) -> Set<String> {
        let bytes = Array(source.utf8)
        var names: Set<String> = []
        var index = 0
        func at(_ offset: Int) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == .slash, at(1) == .slash {
                while index < bytes.count, bytes[index] != .newline { index += 1 }
            } else if byte == .slash, at(1) == .star {
                var depth = 0
                repeat {
                    if at(0) == .slash, at(1) == .star {
                        depth += 1
                        index += 2
                    } else if at(0) == .star, at(1) == .slash {
                        depth -= 1
                        index += 2
                    } else {
                        index += 1
                    }
                } while depth > 0 && index < bytes.count
            } else if byte == .quote || (byte == .hash && (at(1) == .quote || at(1) == .hash)) {
                index = endOfString(bytes, from: index)
            } else if isIdentifierStart(byte) {
                let start = index
                while index < bytes.count, isIdentifierStart(bytes[index]) || isDigit(bytes[index]) {
                    index += 1
                }
                names.insert(String(decoding: bytes[start..<index], as: UTF8.self))
            } else if isDigit(byte) {
                while index < bytes.count, isIdentifierStart(bytes[index]) || isDigit(bytes[index]) {
                    index += 1
                }
            } else {
                index += 1
            }
        }
        return names
    }

    /// The index after the string literal starting at `start` (at its first `#` or quote).
    private static func endOfString(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        var hashes = 0
        while index < bytes.count, bytes[index] == .hash {
            hashes += 1
            index += 1
        }
        guard index < bytes.count, bytes[index] == .quote else { return index }
        let quotes =
            index + 2 < bytes.count && bytes[index + 1] == .quote && bytes[index + 2] == .quote ? 3 : 1
        index += quotes
        while index < bytes.count {
            if bytes[index] == .backslash, hashes == 0 {
                index += 2
                continue
            }
            if bytes[index] == .newline, quotes == 1 { return index }
            if isClosing(bytes, at: index, quotes: quotes, hashes: hashes) { return index + quotes + hashes }
            index += 1
        }
        return index
    }

    private static func isClosing(_ bytes: [UInt8], at index: Int, quotes: Int, hashes: Int) -> Bool {
        guard index + quotes + hashes <= bytes.count else { return false }
        return bytes[index..<index + quotes].allSatisfy { $0 == .quote }
            && bytes[index + quotes..<index + quotes + hashes].allSatisfy { $0 == .hash }
    }

    private static func isIdentifierStart(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || byte == 0x5F || byte >= 0x80
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
}

extension UInt8 {
    fileprivate static let slash = UInt8(ascii: "/")
    fileprivate static let star = UInt8(ascii: "*")
    fileprivate static let quote = UInt8(ascii: "\"")
    fileprivate static let hash = UInt8(ascii: "#")
    fileprivate static let backslash = UInt8(ascii: "\\")
    fileprivate static let newline = UInt8(ascii: "\n")
}
