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
