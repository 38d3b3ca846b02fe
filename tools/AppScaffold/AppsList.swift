/// Package.swift's list of apps, read from its text:
///
/// ```swift
/// let apps = [
///     "Prism",
///     "Strand",
/// ]
/// ```
///
/// One app per line; blank lines and `//` comments may sit between them. ``inserting(_:)`` adds an
/// app's line in sorted position and leaves every other line as it was.
struct AppsList: Sendable {
    /// One app's line.
    struct Entry: Sendable, Equatable {
        /// The app's name, as written.
        var name: String
        /// The line's index in the file (0-based).
        var line: Int
        /// The whitespace before the name's quote.
        var indentation: String
        /// Whether the line ends with a comma.
        var hasComma: Bool
    }

    /// The file's lines, without their `\n`.
    private let lines: [Substring]
    /// The line index of `let apps = [`.
    private let opening: Int
    /// The apps, in the order written.
    let entries: [Entry]

    /// The apps' names, in the order written.
    var names: [String] { entries.map(\.name) }

    /// What the refusal says the list must look like.
    static let expectedShape =
        "`let apps = [` on a line of its own, one `\"Name\",` line per app, and `]` closing it"

    /// Reads the list from Package.swift's text.
    ///
    /// - Throws: a refusal when there is no such list, or a line in it is not one app.
    init(packageText text: String) throws(ScaffoldRefusal) {
        lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let opening = lines.firstIndex(where: { Self.trimmed($0) == "let apps = [" }) else {
            throw ScaffoldRefusal(
                "Package.swift has no list of apps: new-app adds the app's line to it, and expects "
                    + Self.expectedShape)
        }
        self.opening = opening
        var entries: [Entry] = []
        var index = opening + 1
        while true {
            guard index < lines.count else {
                throw ScaffoldRefusal(
                    "Package.swift:\(opening + 1): the list of apps is not closed; expected "
                        + Self.expectedShape
                )
            }
            let line = lines[index]
            let trimmed = Self.trimmed(line)
            if trimmed.hasPrefix("]") { break }
            if !trimmed.isEmpty && !trimmed.hasPrefix("//") {
                guard let entry = Self.entry(line, at: index) else {
                    throw ScaffoldRefusal(
                        "Package.swift:\(index + 1): '\(trimmed)' is not one app's line in the list of apps; "
                            + "expected \(Self.expectedShape)")
                }
                entries.append(entry)
            }
            index += 1
        }
        self.entries = entries
    }

    /// The app in the list spelled like `name` ignoring case, if any.
    func entry(matching name: String) -> Entry? {
        entries.first { $0.name.lowercased() == name.lowercased() }
    }

    /// Package.swift's text with `name`'s line added before the first app that sorts after it
    /// (ignoring case), indented as its neighbours. No other line changes, except in a list whose
    /// last line has no comma, where a line added after it gives it one.
    func inserting(_ name: String) -> String {
        var lines = self.lines
        let next = entries.first { $0.name.lowercased() > name.lowercased() }
        let neighbour = next ?? entries.last
        let indentation = neighbour?.indentation ?? "    "
        let newLine = Substring("\(indentation)\"\(name)\",")
        if let next {
            lines.insert(newLine, at: next.line)
        } else if let last = entries.last {
            if !last.hasComma { lines[last.line] = Self.addingComma(to: lines[last.line]) }
            lines.insert(newLine, at: last.line + 1)
        } else {
            lines.insert(newLine, at: opening + 1)
        }
        return lines.joined(separator: "\n")
    }

    /// `    "Prism",` (a trailing `// comment` allowed), or nil.
    private static func entry(_ line: Substring, at index: Int) -> Entry? {
        let indentation = line.prefix { $0 == " " || $0 == "\t" }
        var rest = trimmed(line)
        if let comment = rest.firstRange(of: "//") { rest = trimmed(rest[..<comment.lowerBound]) }
        let hasComma = rest.hasSuffix(",")
        if hasComma { rest = trimmed(rest.dropLast()) }
        guard rest.count >= 3, rest.hasPrefix("\""), rest.hasSuffix("\"") else { return nil }
        let name = rest.dropFirst().dropLast()
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            return nil
        }
        return Entry(name: String(name), line: index, indentation: String(indentation), hasComma: hasComma)
    }

    /// `line` with a comma after its name's closing quote.
    private static func addingComma(to line: Substring) -> Substring {
        guard let quote = line.lastIndex(of: "\"") else { return line }
        return line[...quote] + "," + line[line.index(after: quote)...]
    }

    private static func trimmed(_ text: Substring) -> Substring {
        let start = text.firstIndex { !$0.isWhitespace } ?? text.endIndex
        let end = text.lastIndex { !$0.isWhitespace }.map { text.index(after: $0) } ?? start
        return text[start..<end]
    }
}
