/// The kinds of change a mutant makes, each a small slip a person could make.
public enum MutationOperator: String, Sendable, CaseIterable, Codable {
    /// A comparison flipped: `<` ↔ `<=`, `>` ↔ `>=`, `==` ↔ `!=`, `<` ↔ `>`.
    case comparison
    /// An integer literal one more or one less, or `+ 1` ↔ `- 1`.
    case offByOne = "off-by-one"
    /// A simple statement (a call or an assignment on a line of its own) removed.
    case droppedStatement = "dropped-statement"
    /// A boolean flipped: `&&` ↔ `||`, `true` ↔ `false`, a prefix `!` dropped.
    case boolean
    /// An integer constant replaced: 0 by 1, any other by 0.
    case constant
}

/// One planted change: a range of a file's bytes replaced by other text.
public struct Mutant: Sendable, Equatable, Codable {
    /// The file's path, relative to the package root (`Modules/ListEngine/ListDiff.swift`).
    public var file: String
    /// The 1-based line of the change.
    public var line: Int
    /// The 1-based column (in UTF-8 bytes) where the change starts.
    public var column: Int
    /// The kind of change.
    public var mutationOperator: MutationOperator
    /// The UTF-8 byte offsets replaced.
    public var start: Int
    /// The end of the replaced bytes (exclusive).
    public var end: Int
    /// The text replaced.
    public var original: String
    /// The text put in its place (empty when a statement is dropped).
    public var replacement: String

    /// Makes a mutant replacing `range` of `file` (whose text there is `original`).
    public init(
        file: String, line: Int, column: Int, mutationOperator: MutationOperator, range: Range<Int>,
        original: String, replacement: String
    ) {
        self.file = file
        self.line = line
        self.column = column
        self.mutationOperator = mutationOperator
        self.start = range.lowerBound
        self.end = range.upperBound
        self.original = original
        self.replacement = replacement
    }

    /// `Modules/ListEngine/ListDiff.swift:42:17`.
    public var location: String { "\(file):\(line):\(column)" }

    /// The change in one line: `comparison: '<' -> '<='`, or `dropped-statement: 'x.append(y)'`.
    public var summary: String {
        let before = original.count > 80 ? String(original.prefix(77)) + "..." : original
        if replacement.isEmpty { return "\(mutationOperator.rawValue): '\(before)' removed" }
        return "\(mutationOperator.rawValue): '\(before)' -> '\(replacement)'"
    }

    /// `source` with this mutant's change made.
    ///
    /// - Throws: ``MutationError`` when the text at the mutant's range is not what it replaced
    ///   (the file changed since the mutant was found).
    public func applied(to source: String) throws(MutationError) -> String {
        var bytes = Array(source.utf8)
        guard end <= bytes.count, String(decoding: bytes[start..<end], as: UTF8.self) == original else {
            throw MutationError(
                "\(location): the source changed since the mutant was found; expected '\(original)'")
        }
        bytes.replaceSubrange(start..<end, with: Array(replacement.utf8))
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Why mutation testing could not go on: a message saying what went wrong and where.
public struct MutationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, quoting the offending value.
    public let description: String

    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
