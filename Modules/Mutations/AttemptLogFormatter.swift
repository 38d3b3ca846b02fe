import Foundation
import ServerAPI
import Wire

/// Prints the attempt log as aligned lines, one per attempt, for the Mutations screen and for
/// logs:
///
/// ```text
/// 12:00:01.000  like      t-1       #1  retry           503  server error   next in 0.734s  PUT /v1/…
/// 12:00:01.734  like      t-1       #2  confirmed       -    -              -
/// ```
///
/// Columns: end time (HH:mm:ss.SSS in `timeZone`), kind, the token's first 8 characters,
/// attempt number, outcome, HTTP status, error class, the delay before the next attempt, and
/// the detail (cut to `detailWidth` characters).
public struct AttemptLogFormatter: Sendable {
    /// The time zone times are printed in. Default: UTC.
    public var timeZone: TimeZone
    /// The most characters of the detail shown.
    public var detailWidth: Int

    /// Makes a formatter.
    public init(timeZone: TimeZone = TimeZone(identifier: "UTC") ?? .current, detailWidth: Int = 80) {
        self.timeZone = timeZone
        self.detailWidth = detailWidth
    }

    /// Every attempt on its own line, joined with newlines.
    public func format(_ attempts: [MutationAttempt]) -> String {
        attempts.map(line).joined(separator: "\n")
    }

    /// One attempt's line.
    public func line(_ attempt: MutationAttempt) -> String {
        var fields = [
            time(attempt.endedAt), pad(attempt.kind.name, 8), pad(attempt.token.short, 8),
            pad("#\(attempt.attempt)", 3), pad(attempt.outcome.rawValue, 14),
            pad(attempt.status.map(String.init) ?? "-", 3), pad(attempt.errorClass?.description ?? "-", 13),
            pad(attempt.delay.map { "next in \(seconds($0))" } ?? "-", 14),
        ]
        let detail = attempt.detail.replacingOccurrences(of: "\n", with: " ")
        if !detail.isEmpty {
            fields.append(
                detail.count > detailWidth ? String(detail.prefix(max(detailWidth - 1, 0))) + "…" : detail)
        }
        var text = fields.joined(separator: "  ")
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }

    // MARK: A table that fits a screen

    /// A column of the attempt table a screen shows (``heading(_:)``, ``line(_:columns:)``).
    public enum Column: String, Sendable, CaseIterable {
        /// When the attempt ended, to the second.
        case time
        /// The kind of change.
        case kind
        /// The change's token, its first 8 characters (to tell two changes of a kind apart).
        case change
        /// The attempt's number.
        case attempt = "try"
        /// What came of it.
        case outcome
        /// The HTTP status.
        case status = "http"
        /// The error class, in words.
        case problem
        /// When the next attempt starts.
        case next

        /// The column's width in characters.
        public var width: Int {
            switch self {
            case .time, .kind, .change, .next: 8
            case .attempt: 3
            case .outcome: 14
            case .status: 4
            case .problem: 13
            }
        }
    }

    /// The columns that fit in `width` characters, in table order: all of them from 80 columns;
    /// narrower, the change's token goes first, then the time, the problem, the next try and the
    /// status.
    public static func columns(fitting width: Int) -> [Column] {
        var columns = Column.allCases
        for dropped in [Column.change, .time, .problem, .next, .status] {
            let total = columns.reduce(0) { $0 + $1.width } + 2 * (columns.count - 1)
            if total <= width { break }
            columns.removeAll { $0 == dropped }
        }
        return columns
    }

    /// The table's heading: each column's name over it.
    public func heading(_ columns: [Column]) -> String {
        trimmed(columns.map { pad($0.rawValue, $0.width) }.joined(separator: "  "))
    }

    /// One attempt's row of the table, in `columns`: no token, no detail (the change's own line
    /// says why it waits).
    public func line(_ attempt: MutationAttempt, columns: [Column]) -> String {
        let cells = columns.map { column -> String in
            let text =
                switch column {
                case .time: String(time(attempt.endedAt).prefix(8))
                case .kind: attempt.kind.name
                case .change: attempt.token.short
                case .attempt: "#\(attempt.attempt)"
                case .outcome: attempt.outcome.rawValue
                case .status: attempt.status.map(String.init) ?? "-"
                case .problem: attempt.errorClass?.description ?? "-"
                case .next: attempt.delay.map { "in " + shortSeconds($0) } ?? "-"
                }
            return pad(text, column.width)
        }
        return trimmed(cells.joined(separator: "  "))
    }

    private func trimmed(_ text: String) -> String {
        var text = text
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }

    /// A delay in at most 5 characters: "0.73s", "12.3s", "45s", "12m".
    private func shortSeconds(_ duration: Duration) -> String {
        let seconds = duration.secondsValue
        if seconds < 10 { return String(format: "%.2fs", seconds) }
        if seconds < 60 { return String(format: "%.1fs", seconds) }
        if seconds < 600 { return "\(Int(seconds))s" }
        return "\(Int(seconds / 60))m"
    }

    private func time(_ date: Date) -> String {
        let milliseconds =
            Int64((date.timeIntervalSince1970 * 1000).rounded())
            + Int64(timeZone.secondsFromGMT(for: date)) * 1000
        let ofDay = ((milliseconds % 86_400_000) + 86_400_000) % 86_400_000
        let hours = ofDay / 3_600_000
        let minutes = ofDay / 60_000 % 60
        let secs = ofDay / 1000 % 60
        return "\(two(hours)):\(two(minutes)):\(two(secs)).\(three(ofDay % 1000))"
    }

    private func seconds(_ duration: Duration) -> String {
        let milliseconds = Int64((duration.secondsValue * 1000).rounded())
        return "\(milliseconds / 1000).\(three(milliseconds % 1000))s"
    }

    private func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
    private func three(_ value: Int64) -> String {
        value < 10 ? "00\(value)" : value < 100 ? "0\(value)" : "\(value)"
    }
    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
