/// A rectangle of cells: origin (`x`, `y`) and size (`width` × `height`).
///
/// ```swift
/// let body = Rect(x: 0, y: 1, width: 80, height: 22)
/// let (header, rest) = body.splitTop(2)
/// ```
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    /// The left column.
    public var x: Int
    /// The top line.
    public var y: Int
    /// Columns; a negative value counts as 0.
    public var width: Int
    /// Lines; a negative value counts as 0.
    public var height: Int

    /// Makes the rectangle at (`x`, `y`) of `width` × `height` cells.
    @inlinable
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The column just right of the rectangle.
    public var maxX: Int { x + max(width, 0) }
    /// The line just below the rectangle.
    public var maxY: Int { y + max(height, 0) }
    /// Whether the rectangle holds no cell.
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// Whether `point` is inside.
    public func contains(_ point: Point) -> Bool {
        point.x >= x && point.x < maxX && point.y >= y && point.y < maxY
    }

    /// The cells in both rectangles (empty, at this origin, when they do not overlap).
    public func intersection(_ other: Rect) -> Rect {
        let left = max(x, other.x)
        let top = max(y, other.y)
        let right = min(maxX, other.maxX)
        let bottom = min(maxY, other.maxY)
        guard right > left, bottom > top else { return Rect(x: left, y: top, width: 0, height: 0) }
        return Rect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// The top `lines` lines and the rest below them.
    public func splitTop(_ lines: Int) -> (top: Rect, rest: Rect) {
        let top = min(max(lines, 0), max(height, 0))
        return (
            Rect(x: x, y: y, width: width, height: top),
            Rect(x: x, y: y + top, width: width, height: max(height, 0) - top)
        )
    }

    /// The bottom `lines` lines and the rest above them.
    public func splitBottom(_ lines: Int) -> (rest: Rect, bottom: Rect) {
        let bottom = min(max(lines, 0), max(height, 0))
        let rest = max(height, 0) - bottom
        return (
            Rect(x: x, y: y, width: width, height: rest),
            Rect(x: x, y: y + rest, width: width, height: bottom)
        )
    }

    /// The rectangle shrunk by `columns` on the left and right and `lines` at top and bottom.
    public func inset(columns: Int = 0, lines: Int = 0) -> Rect {
        Rect(
            x: x + columns, y: y + lines, width: max(width - 2 * columns, 0),
            height: max(height - 2 * lines, 0))
    }

    /// `x,y widthxheight`.
    public var description: String { "\(x),\(y) \(width)x\(height)" }
}
