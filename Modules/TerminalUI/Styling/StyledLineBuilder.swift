/// Builds the spans of a `StyledLine` from a block listing spans, strings and lines.
///
/// ```swift
/// let line = StyledLine {
///     "♥ ".styled(.plain.withForeground(RGBColor(hex: 0xE0245E)))
///     "12"
///     if pending { " (sending)".styled(.plain.dim()) }
/// }
/// ```
@resultBuilder
public enum StyledLineBuilder {
    /// A span as is.
    public static func buildExpression(_ span: StyledSpan) -> [StyledSpan] { [span] }
    /// Plain text.
    public static func buildExpression(_ text: String) -> [StyledSpan] { [StyledSpan(text)] }
    /// The spans of a line.
    public static func buildExpression(_ line: StyledLine) -> [StyledSpan] { line.spans }
    /// The parts, in order.
    public static func buildBlock(_ parts: [StyledSpan]...) -> [StyledSpan] { parts.flatMap { $0 } }
    /// An `if` without `else`.
    public static func buildOptional(_ part: [StyledSpan]?) -> [StyledSpan] { part ?? [] }
    /// The first branch of an `if`/`else`.
    public static func buildEither(first part: [StyledSpan]) -> [StyledSpan] { part }
    /// The second branch of an `if`/`else`.
    public static func buildEither(second part: [StyledSpan]) -> [StyledSpan] { part }
    /// A `for` loop.
    public static func buildArray(_ parts: [[StyledSpan]]) -> [StyledSpan] { parts.flatMap { $0 } }
}
