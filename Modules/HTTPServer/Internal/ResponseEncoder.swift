import Glibc
import Wire

/// Writes responses as HTTP/1.1 bytes: the status line, the handler's fields (minus the ones
/// the server owns: `Content-Length`, `Transfer-Encoding`, `Connection`, `Keep-Alive`, and any
/// field whose name or value could split the response), then `Content-Length`, `Date` and
/// `Connection`, then the body unless the request was HEAD or the status has none.
///
/// Complexity: O(head + body) bytes, appended to a reused buffer.
struct ResponseEncoder {
    private var dateSecond = -1
    private var dateBytes: [UInt8] = []

    /// Appends `response` to `buffer` (its head only, when not `appendingBody`: the caller sends
    /// the body from where it is); returns the number of body bytes the response carries on the
    /// wire (0 for HEAD and for a status without a body).
    mutating func encode(
        _ response: Response, into buffer: inout [UInt8], headOnly: Bool, close: Bool, keepAliveHeader: Bool,
        appendingBody: Bool = true
    ) -> Int {
        let status = (100...999).contains(response.status) ? response.status : 500
        let hasBody = !(100..<200).contains(status) && status != 204 && status != 304
        append("HTTP/1.1 \(status) \(Self.reasonPhrase(status))\r\n", to: &buffer)
        var sawDate = false
        for field in response.headers {
            switch field.name.lowercased() {
            case "content-length", "transfer-encoding", "connection", "keep-alive": continue
            case "date": sawDate = true
            default: break
            }
            guard Self.isSafe(field) else { continue }
            append(field.name, to: &buffer)
            buffer.append(contentsOf: [0x3A, 0x20])
            append(field.value, to: &buffer)
            buffer.append(contentsOf: [0x0D, 0x0A])
        }
        if hasBody { append("Content-Length: \(response.body.count)\r\n", to: &buffer) }
        if !sawDate { appendDate(to: &buffer) }
        if close {
            append("Connection: close\r\n", to: &buffer)
        } else if keepAliveHeader {
            append("Connection: keep-alive\r\n", to: &buffer)
        }
        buffer.append(contentsOf: [0x0D, 0x0A])
        guard hasBody, !headOnly else { return 0 }
        if appendingBody { buffer.append(contentsOf: response.body) }
        return response.body.count
    }

    /// `HTTP/1.1 100 Continue`, the go-ahead for a client that sent `Expect: 100-continue`.
    static let continueLine: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// Wire's phrases, plus the few only a server sends.
    static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 417: "Expectation Failed"
        case 505: "HTTP Version Not Supported"
        default: HTTPStatus.reasonPhrase(status)
        }
    }

    private static func isSafe(_ field: Headers.Field) -> Bool {
        !field.name.isEmpty
            && field.name.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != 0x3A }
            && field.value.utf8.allSatisfy { $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }
    }

    private func append(_ text: String, to buffer: inout [UInt8]) {
        buffer.append(contentsOf: text.utf8)
    }

    /// `Date: Sun, 06 Nov 1994 08:49:37 GMT`, formatted once per second.
    private mutating func appendDate(to buffer: inout [UInt8]) {
        var now = time(nil)
        if Int(now) != dateSecond {
            dateSecond = Int(now)
            var parts = tm()
            gmtime_r(&now, &parts)
            let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
            let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
            func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
            let text =
                "Date: \(days[Int(parts.tm_wday) % 7]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon) % 12]) "
                + "\(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT\r\n"
            dateBytes = Array(text.utf8)
        }
        buffer.append(contentsOf: dateBytes)
    }
}
