import AppTesting
import Foundation
import Testing

/// Where this suite's golden frames live (in the source tree, so re-recording updates them).
let goldenDirectory: String = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Golden").path

/// The lines of a frame, empty ones kept. A line past the last records an issue in the running
/// test (naming how many lines there are) and reads as empty text instead of trapping: an app
/// that draws a shorter frame than another fails its own case, and every other app's case runs.
func lines(_ frame: String) -> FrameLines {
    FrameLines(all: frame.split(separator: "\n", omittingEmptySubsequences: false))
}

/// A frame's lines, safe to index (see ``lines(_:)``).
struct FrameLines: RandomAccessCollection, Equatable, Sendable {
    /// Every line.
    let all: [Substring]

    var startIndex: Int { all.startIndex }
    var endIndex: Int { all.endIndex }

    subscript(position: Int) -> Substring {
        guard all.indices.contains(position) else {
            Issue.record("line \(position) of the frame was asked for, but it has \(all.count) lines")
            return ""
        }
        return all[position]
    }

    subscript(bounds: Range<Int>) -> ArraySlice<Substring> {
        let kept = bounds.clamped(to: all.indices)
        if kept != bounds {
            Issue.record("lines \(bounds) of the frame were asked for, but it has \(all.count) lines")
        }
        return all[kept]
    }
}

/// The line of a frame that carries the selection marker first, trimmed of it.
func selectedHeader(_ frame: String) -> String? {
    lines(frame).first { $0.hasPrefix("▌") }.map { String($0.dropFirst()) }
}
