/// What the frame differ produced: the bytes to send and which lines they redraw.
public struct FrameUpdate: Hashable, Sendable {
    /// The escape sequences and text to write to the terminal, in order.
    public var output: String
    /// The lines (0 at the top) whose content changed and were redrawn, ascending.
    public var changedLines: [Int]
    /// Whether the whole screen was cleared and redrawn (first frame, resize, invalidation).
    public var isFullRedraw: Bool

    /// Makes an update.
    public init(output: String, changedLines: [Int], isFullRedraw: Bool) {
        self.output = output
        self.changedLines = changedLines
        self.isFullRedraw = isFullRedraw
    }

    /// How many lines were redrawn (the figure the apps' bench counts).
    public var changedLineCount: Int { changedLines.count }
}
