/// A place in a source file: a path, a 1-based line and a 1-based column (in UTF-8 bytes,
/// as compilers count them).
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The file's path as it should be printed (relative to the package root where possible).
    public var file: String
    /// The 1-based line.
    public var line: Int
    /// The 1-based column, counted in UTF-8 bytes from the start of the line.
    public var column: Int

    /// Makes a location.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// The location of a declaration in Swift source, from `#filePath`, `#line` and `#column`,
    /// printed relative to the current directory when it lies inside it.
    public init(declaredAt file: String, line: Int, column: Int) {
        self.init(file: SourceLocation.displayPath(file), line: line, column: column)
    }

    /// `file:line:column`, as compiler diagnostics print it.
    public var description: String { "\(file):\(line):\(column)" }

    /// Locations order by file, then line, then column.
    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }

    /// `path` relative to the current directory if it lies inside it, else unchanged.
    static func displayPath(_ path: String) -> String {
        guard path.hasPrefix("/"), let cwd = currentDirectory() else { return path }
        let prefix = cwd.hasSuffix("/") ? cwd : cwd + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}
