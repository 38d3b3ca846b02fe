/// One line of styled text: spans drawn left to right.
///
/// Build it from spans, a literal, `+`, or the `@StyledLineBuilder` result builder:
///
/// ```swift
/// let header: StyledLine = "@ada".styled(.plain.bold()) + " · 2h"
/// let built = StyledLine {
///     "@ada".styled(.plain.bold())
///     " · 2h"
/// }
/// ```
public struct StyledLine: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The spans, left to right.
    public var spans: [StyledSpan]

    /// Makes a line of `spans` (kept as given: adjacent spans of one style are not merged).
    @inlinable
    public init(_ spans: [StyledSpan] = []) {
        self.spans = spans
    }

    /// Makes a line of one span: `text` in `style`.
    public init(_ text: String, style: Style = .plain) {
        self.spans = text.isEmpty ? [] : [StyledSpan(text, style: style)]
    }

    /// Makes a line from the spans a `@StyledLineBuilder` block lists.
    public init(@StyledLineBuilder _ build: () -> [StyledSpan]) {
        self.spans = []
        for span in build() { append(span) }
    }

    /// A plain line from a literal.
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// An empty line.
    public static let empty = StyledLine()

    /// The text without styling.
    public var plainText: String { spans.map(\.text).joined() }

    /// The line's width in terminal columns (see `DisplayWidth`). O(length).
    public var displayWidth: Int { spans.reduce(0) { $0 + $1.displayWidth } }

    /// Whether the line has no text.
    public var isEmpty: Bool { spans.allSatisfy(\.text.isEmpty) }

    /// Appends a span, merging it into the last one when the styles match.
    public mutating func append(_ span: StyledSpan) {
        guard !span.text.isEmpty else { return }
        if let last = spans.indices.last, spans[last].style == span.style {
            spans[last].text += span.text
        } else {
            spans.append(span)
        }
    }

    /// Appends `text` in `style`.
    public mutating func append(_ text: String, style: Style = .plain) {
        append(StyledSpan(text, style: style))
    }

    /// Appends every span of `line`.
    public mutating func append(_ line: StyledLine) {
        for span in line.spans { append(span) }
    }

    /// The line with every span's style replaced by `transform(style)`.
    public func mapStyles(_ transform: (Style) -> Style) -> StyledLine {
        StyledLine(spans.map { StyledSpan($0.text, style: transform($0.style)) })
    }

    /// The text without styling.
    public var description: String { plainText }

    /// The two lines one after the other.
    public static func + (lhs: StyledLine, rhs: StyledLine) -> StyledLine {
        var line = lhs
        line.append(rhs)
        return line
    }

    /// The line followed by `rhs`.
    public static func + (lhs: StyledLine, rhs: StyledSpan) -> StyledLine {
        var line = lhs
        line.append(rhs)
        return line
    }
}
