/// A run of text in one style.
///
/// ```swift
/// let name = StyledSpan("@ada", style: .plain.bold())
/// let same = "@ada".styled(.plain.bold())
/// ```
public struct StyledSpan: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The text; line breaks do not belong here (a `StyledLine` is one line).
    public var text: String
    /// How the text looks.
    public var style: Style

    /// Makes a span of `text` in `style`.
    @inlinable
    public init(_ text: String, style: Style = .plain) {
        self.text = text
        self.style = style
    }

    /// A plain span from a literal.
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// The span's width in terminal columns (see `DisplayWidth`).
    public var displayWidth: Int { DisplayWidth.of(text) }

    /// The text.
    public var description: String { text }
}

extension StyledSpan {
    /// A line of `lhs` followed by `rhs`.
    public static func + (lhs: StyledSpan, rhs: StyledSpan) -> StyledLine {
        var line = StyledLine([lhs])
        line.append(rhs)
        return line
    }
}

extension String {
    /// This text as a span in `style`.
    public func styled(_ style: Style) -> StyledSpan {
        StyledSpan(self, style: style)
    }
}
