import AppTesting
import Foundation

/// Where this suite's golden frames live (in the source tree, so re-recording updates them).
let goldenDirectory: String = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Golden").path

/// The lines of a frame, empty ones kept.
func lines(_ frame: String) -> [Substring] {
    frame.split(separator: "\n", omittingEmptySubsequences: false)
}

/// The line of a frame that carries the selection marker first, trimmed of it.
func selectedHeader(_ frame: String) -> String? {
    lines(frame).first { $0.hasPrefix("▌") }.map { String($0.dropFirst()) }
}
