/// One cell of a screen buffer: a grapheme cluster and its style.
///
/// A wide grapheme (2 columns) lives in its lead cell (`width` 2); the cell to its right is a
/// continuation (`width` 0, character " ") that the terminal covers with the same grapheme.
public struct Cell: Hashable, Sendable {
    /// The grapheme shown; " " for blanks and continuations.
    public var character: Character
    /// How it looks.
    public var style: Style
    /// Columns the grapheme covers: 1, 2 for a wide lead cell, 0 for a continuation cell.
    public var width: UInt8

    /// Makes a cell; `width` should be `DisplayWidth.of(character)` (1 or 2), or 0 for a
    /// continuation.
    @inlinable
    public init(_ character: Character, style: Style = .plain, width: UInt8 = 1) {
        self.character = character
        self.style = style
        self.width = width
    }

    /// A blank cell in the default style.
    public static let blank = Cell(" ")

    /// A blank cell in `style` (its background shows).
    public static func blank(_ style: Style) -> Cell { Cell(" ", style: style) }

    /// Whether this is the right half of a wide grapheme.
    public var isContinuation: Bool { width == 0 }
}
