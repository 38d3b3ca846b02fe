/// The content of one list row: its lines, top to bottom, as a section controller makes them
/// for the list's content width.
///
/// ```swift
/// let row = StyledRow(lines: ["@ada".styled(.plain.bold()) + " · 2h", "hello, world"])
/// let fallback = StyledRow(plainText: "unknown item kind 'poll'", width: 30)
/// ```
public struct StyledRow: Hashable, Sendable {
    /// The lines, top to bottom.
    public var lines: [StyledLine]

    /// Makes a row of `lines`.
    public init(lines: [StyledLine]) {
        self.lines = lines
    }

    /// A one-line row showing `text`, cut with an ellipsis to `width` columns (the fallback
    /// row for items no section controller claims).
    public init(plainText text: String, width: Int) {
        let line =
            text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).first.map(String.init)
            ?? ""
        self.lines = [StyledLine(TextLayout.truncate(line, width: width))]
    }
}
