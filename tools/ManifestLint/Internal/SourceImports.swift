import Foundation

/// What a source file imports: the modules of a Swift file and the headers of a C file, each at the
/// first line it appears on.
enum SourceImports {
    /// One import: the module (or, for C, the header as written) and where it is.
    struct Site: Equatable {
        var name: String
        var line: Int
        var column: Int
    }

    /// The words that may stand before `import` on its line: access levels (attributes, written
    /// with `@`, are skipped separately).
    static let importModifiers: Set<String> = [
        "public", "package", "internal", "fileprivate", "private", "open",
    ]

    /// The declaration kinds of a scoped import (`import struct Foundation.Date`).
    static let importKinds: Set<String> = [
        "typealias", "struct", "class", "enum", "protocol", "let", "var", "func",
    ]

    /// The modules a Swift source imports, outside comments and string literals: every `import`
    /// declaration, whatever its attributes (`@testable`, `@_exported`, `@_spi(X)`,
    /// `@preconcurrency`), access level (`public import`) or kind (`import struct M.T`), and every
    /// `canImport(M)` condition. A submodule import (`import M.Sub`) imports `M`. Each site's column
    /// is where its line's code starts.
    static func swift(_ source: String) -> [Site] {
        // Only the text up to the last line holding `import` or `canImport` ("mport") is read:
        // tokenizing stops there, which keeps the lint fast (imports are near the top of most files).
        let bytes = Array(source.utf8)
        var last = bytes.count - 5
        while last >= 0
            && !(bytes[last] == UInt8(ascii: "m") && bytes[last + 1] == UInt8(ascii: "p")
                && bytes[last + 2] == UInt8(ascii: "o") && bytes[last + 3] == UInt8(ascii: "r")
                && bytes[last + 4] == UInt8(ascii: "t"))
        {
            last -= 1
        }
        guard last >= 0 else { return [] }
        let end = bytes[last...].firstIndex(of: 0x0A) ?? bytes.count
        let head = String(decoding: bytes[..<end], as: UTF8.self)
        let lines = head.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0.utf8) }
        let words = SwiftWords.words(in: head).filter { !$0.inString }
        var sites: [Site] = []
        for (index, word) in words.enumerated() where word.text == "import" || word.text == "canImport" {
            var next = index + 1
            guard next < words.count, word.line - 1 < lines.count else { continue }
            let line = lines[word.line - 1]
            if word.text == "import" {
                guard onlyAttributesAndModifiers(line.prefix(word.column - 1)) else { continue }
                if importKinds.contains(words[next].text) { next += 1 }
            }
            guard next < words.count, words[next].line == word.line else { continue }
            let start = line.firstIndex { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") } ?? 0
            sites.append(Site(name: words[next].text, line: word.line, column: start + 1))
        }
        return sites
    }

    /// Whether `bytes` (what precedes `import` on its line) holds only whitespace, attributes
    /// (`@name` with an optional parenthesized argument) and access levels.
    private static func onlyAttributesAndModifiers(_ bytes: ArraySlice<UInt8>) -> Bool {
        var rest = bytes[...]
        func isWordByte(_ b: UInt8) -> Bool {
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F
                || b >= 0x80
        }
        while true {
            while let first = rest.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
                rest = rest.dropFirst()
            }
            guard let first = rest.first else { return true }
            let isAttribute = first == UInt8(ascii: "@")
            if isAttribute { rest = rest.dropFirst() }
            let word = rest.prefix(while: isWordByte)
            guard !word.isEmpty else { return false }
            rest = rest.dropFirst(word.count)
            if isAttribute {
                if rest.first == UInt8(ascii: "(") {
                    guard let close = rest.firstIndex(of: UInt8(ascii: ")")) else { return false }
                    rest = rest[(close + 1)...]
                }
            } else if !importModifiers.contains(String(decoding: word, as: UTF8.self)) {
                return false
            }
        }
    }

    /// The headers a C source includes (`#include <h>` or `#include "h"`), as written, with their
    /// lines.
    static func cIncludes(_ source: String) -> [Site] {
        var sites: [Site] = []
        for (index, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var rest = line.drop { $0 == " " || $0 == "\t" }
            guard rest.first == "#" else { continue }
            rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" }
            guard rest.hasPrefix("include") else { continue }
            rest = rest.dropFirst("include".count).drop { $0 == " " || $0 == "\t" }
            guard let open = rest.first, open == "<" || open == "\"" else { continue }
            let close: Character = open == "<" ? ">" : "\""
            let header = rest.dropFirst().prefix { $0 != close }
            guard !header.isEmpty else { continue }
            sites.append(Site(name: String(header), line: index + 1, column: 1))
        }
        return sites
    }

    /// The C standard library's headers: a system library's shim includes some of them before its
    /// own, so including one says nothing about which library a C target uses.
    static let cStandardHeaders: Set<String> = [
        "assert.h", "complex.h", "ctype.h", "errno.h", "fenv.h", "float.h", "inttypes.h", "iso646.h",
        "limits.h", "locale.h", "math.h", "setjmp.h", "signal.h", "stdalign.h", "stdarg.h", "stdatomic.h",
        "stdbool.h", "stddef.h", "stdint.h", "stdio.h", "stdlib.h", "stdnoreturn.h", "string.h", "tgmath.h",
        "threads.h", "time.h", "uchar.h", "wchar.h", "wctype.h",
    ]
}
