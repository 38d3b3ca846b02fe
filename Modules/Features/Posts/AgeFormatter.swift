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

    /// How long to wait, rounded up to the unit a person thinks in: "45 s" under a minute,
    /// "15 min" under an hour, else "3 h". At least "1 s".
    package static func wait(_ duration: Duration) -> String {
        let seconds = max(Int(duration.components.seconds) + (duration.components.attoseconds > 0 ? 1 : 0), 1)
        switch seconds {
        case ..<60: return "\(seconds) s"
        case ..<3600: return "\((seconds + 59) / 60) min"
        default: return "\((seconds + 3599) / 3600) h"
        }
    }
}
