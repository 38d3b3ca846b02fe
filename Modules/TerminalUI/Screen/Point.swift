/// A cell position: column `x` from the left, line `y` from the top, both from 0.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    /// The column, from 0 at the left edge.
    public var x: Int
    /// The line, from 0 at the top.
    public var y: Int

    /// Makes the position of column `x`, line `y`.
    @inlinable
    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }

    /// `(x, y)`.
    public var description: String { "(\(x), \(y))" }
}
