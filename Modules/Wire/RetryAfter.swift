import Foundation

/// Reads the `Retry-After` header: a number of seconds (`120`) or an HTTP-date
/// (`Wed, 21 Oct 2015 07:28:00 GMT`, also the obsolete RFC 850 and asctime forms).
public enum RetryAfter {
    /// The delay a `Retry-After` value asks for, measured from `now`; a date in the past gives
    /// zero. Nil when the value is neither form.
    ///
    /// Complexity: O(n) in the length of the value.
    public static func parse(_ value: String, now: Date) -> Duration? {
        let trimmed = value.trimmingOptionalWhitespace()
        if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            // Absurdly long digit strings saturate rather than fail.
            guard let seconds = Int64(trimmed) else { return .seconds(Int64.max / 1_000_000_000_000) }
            return .seconds(seconds)
        }
        guard let date = HTTPDate.parse(trimmed) else { return nil }
        let interval = date.timeIntervalSince(now)
        return interval <= 0 ? .zero : .milliseconds(Int64((interval * 1000).rounded()))
    }

    /// The `Retry-After` value for a delay: whole seconds, rounded up.
    public static func format(_ delay: Duration) -> String {
        let (seconds, attoseconds) = delay.components
        return String(max(0, seconds + (attoseconds > 0 ? 1 : 0)))
    }
}
