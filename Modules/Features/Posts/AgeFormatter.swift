import Foundation

/// Short relative ages for posts ("now", "5m", "3h", "2d", "4w"), computed against the app's
/// clock so headless runs print the same ages every time.
package enum AgeFormatter {
    /// The age of something made at `date`, seen at `now`.
    package static func age(of date: Date, now: Date) -> String {
        let seconds = max(0, Int(now.timeIntervalSince(date)))
        switch seconds {
        case ..<60: return "now"
        case ..<3600: return "\(seconds / 60)m"
        case ..<86_400: return "\(seconds / 3600)h"
        case ..<(7 * 86_400): return "\(seconds / 86_400)d"
        case ..<(365 * 86_400): return "\(seconds / (7 * 86_400))w"
        default: return "\(seconds / (365 * 86_400))y"
        }
    }
}
