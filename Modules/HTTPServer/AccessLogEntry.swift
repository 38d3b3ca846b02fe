import Foundation

/// One line of the access log: a request and what became of it.
///
/// The server calls the configuration's `accessLog` sink with one entry per request it read (or
/// tried to read: a malformed request is logged with `-` for what could not be read), on its
/// event loop's thread, so a sink must be quick (print a line, append to a buffer).
///
/// ```swift
/// configuration.accessLog = { entry in print(entry) }
/// // 2024-05-01T12:00:00.120Z 127.0.0.1:52344 "GET /v1/feed?limit=20" 200 18234B 0.42ms
/// ```
public struct AccessLogEntry: Hashable, Sendable, CustomStringConvertible {
    /// When the response was finished (or the connection closed instead).
    public var date: Date
    /// The client's address and port (`"127.0.0.1:52344"`).
    public var remote: String
    /// The method as sent, or `"-"` when the request line could not be read.
    public var method: String
    /// The request target as sent (`"/v1/feed?limit=20"`), or `"-"`.
    public var target: String
    /// The response status (the handler's, even when the response was then dropped).
    public var status: Int
    /// Body bytes written to the client (0 when none were, as for HEAD or a dropped response).
    public var bytes: Int
    /// From the request's first byte to its response's last byte.
    public var duration: Duration
    /// What went wrong on the wire, or nil when the response was written in full:
    /// `"dropped after apply (fault)"`, `"client gone"`, `"write timed out"`.
    public var note: String?

    /// Makes an entry.
    public init(
        date: Date, remote: String, method: String, target: String, status: Int, bytes: Int,
        duration: Duration, note: String? = nil
    ) {
        self.date = date
        self.remote = remote
        self.method = method
        self.target = target
        self.status = status
        self.bytes = bytes
        self.duration = duration
        self.note = note
    }

    /// `2024-05-01T12:00:00.120Z 127.0.0.1:52344 "GET /v1/feed?limit=20" 200 18234B 0.42ms`, then
    /// ` (note)` when there is one. The target is cut at 200 characters.
    public var description: String {
        let shownTarget = target.count > 200 ? String(target.prefix(200)) + "..." : target
        let (seconds, attoseconds) = duration.components
        let milliseconds = Double(seconds) * 1000 + Double(attoseconds) / 1e15
        var line = "\(Self.timestamp(date)) \(remote) \"\(method) \(shownTarget)\" \(status) \(bytes)B "
        line += String(format: "%.2fms", milliseconds)
        if let note { line += " (\(note))" }
        return line
    }

    private static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
