import Foundation
import Wire

/// Reads one HTTP/1.1 response from a connection: the status line and headers, then the body as
/// its framing says: `Transfer-Encoding: chunked`, `Content-Length`, or everything until the
/// server closes; no body for a response to HEAD, nor for 1xx, 204 and 304. Interim responses
/// (1xx but 101) are skipped.
struct ResponseReader {
    /// The longest response head read (status line and headers).
    static let maximumHead = 64 * 1024
    /// The longest chunk-size or trailer line.
    static let maximumLine = 8 * 1024

    private let connection: ClientConnection
    private var buffer: [UInt8] = []
    /// The first byte of `buffer` not yet consumed.
    private var position = 0
    private var scratch = [UInt8](repeating: 0, count: 16 * 1024)
    /// Whether any byte of a response arrived (a request that got none may be resent on a fresh
    /// connection when it is a read).
    private(set) var receivedAny = false

    init(connection: ClientConnection) { self.connection = connection }

    /// The response, and whether the connection may carry another exchange.
    mutating func read(forHead: Bool) throws(ClientFailure) -> (response: Response, reusable: Bool) {
        while true {
            let head = try readHead()
            if (100..<200).contains(head.status) && head.status != 101 { continue }
            var reusable = head.keepsAlive
            let body: Data
            if forHead || (100..<200).contains(head.status) || head.status == 204 || head.status == 304 {
                body = Data()
                reusable = reusable && head.status != 101
            } else if let codings = head.headers["Transfer-Encoding"] {
                let last = codings.split(separator: ",").last?.trimmingOptionalWhitespace()
                if last?.lowercased() == "chunked" {
                    body = try readChunked()
                } else {
                    body = try readUntilClose()
                    reusable = false
                }
            } else if let length = head.headers["Content-Length"] {
                let values = Set(length.split(separator: ",").map { $0.trimmingOptionalWhitespace() })
                guard values.count == 1, let text = values.first, !text.isEmpty, text.count <= 18,
                    text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let count = Int(text)
                else { throw .malformed("its Content-Length '\(length)' is not a number") }
                body = try readExactly(count, what: "body bytes")
            } else {
                body = try readUntilClose()
                reusable = false
            }
            return (Response(status: head.status, headers: head.headers, body: body), reusable)
        }
    }

    // MARK: - The head

    private struct Head {
        var status: Int
        var headers: Headers
        var keepsAlive: Bool
    }

    private mutating func readHead() throws(ClientFailure) -> Head {
        // (offsets from `position`, which `fill()` may move when it compacts the buffer)
        var searched = 0
        while true {
            if let end = Self.find([0x0D, 0x0A, 0x0D, 0x0A], in: buffer, from: position + searched) {
                let head = try Self.parseHead(buffer[position..<end])
                position = end + 4
                return head
            }
            searched = max(0, buffer.count - position - 3)
            if buffer.count - position > Self.maximumHead {
                throw .malformed("its head is longer than \(Self.maximumHead) bytes")
            }
            guard try fill() else {
                throw .lost(
                    receivedAny
                        ? "the connection closed in the middle of the response head"
                        : "the connection closed before any response")
            }
        }
    }

    private static func parseHead(_ bytes: ArraySlice<UInt8>) throws(ClientFailure) -> Head {
        let text = String(decoding: bytes, as: UTF8.self)
        var lines = text.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0] == "HTTP/1.1" || parts[0] == "HTTP/1.0", parts[1].count == 3,
            let status = Int(parts[1]), (100...999).contains(status)
        else { throw .malformed("its status line is '\(statusLine.prefix(80))'") }
        var headers = Headers()
        for line in lines {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex,
                !line[..<colon].contains(where: { $0 == " " || $0 == "\t" })
            else { throw .malformed("its header line '\(line.prefix(80))' has no name") }
            let value = line[line.index(after: colon)...].trimmingOptionalWhitespace()
            headers.add(String(line[..<colon]), value)
        }
        let connection = headers.values(for: "Connection").joined(separator: ",").lowercased()
            .split(separator: ",").map { $0.trimmingOptionalWhitespace() }
        let keepsAlive =
            parts[0] == "HTTP/1.1" ? !connection.contains("close") : connection.contains("keep-alive")
        return Head(status: status, headers: headers, keepsAlive: keepsAlive)
    }

    // MARK: - Bodies

    private mutating func readChunked() throws(ClientFailure) -> Data {
        var body = Data()
        while true {
            let line = try readLine(what: "a chunked body")
            let sizeText = line.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
                .trimmingOptionalWhitespace()
            guard !sizeText.isEmpty, sizeText.count <= 15, let size = Int(sizeText, radix: 16), size >= 0
            else {
                throw .malformed("a chunk's size line is '\(line.prefix(40))'")
            }
            if size == 0 {
                while !(try readLine(what: "the trailer of a chunked body")).isEmpty {}
                return body
            }
            body.append(try readExactly(size, what: "bytes of a chunk"))
            guard try readLine(what: "a chunked body").isEmpty else {
                throw .malformed("a chunk is longer than its size line says")
            }
        }
    }

    private mutating func readExactly(_ count: Int, what: String) throws(ClientFailure) -> Data {
        while buffer.count - position < count {
            guard try fill() else {
                throw .lost("the connection closed after \(buffer.count - position) of \(count) \(what)")
            }
        }
        defer { position += count }
        return Data(buffer[position..<(position + count)])
    }

    private mutating func readUntilClose() throws(ClientFailure) -> Data {
        while try fill() {}
        defer { position = buffer.count }
        return Data(buffer[position...])
    }

    /// One line, without its CRLF (a bare LF is accepted).
    private mutating func readLine(what: String) throws(ClientFailure) -> String {
        var searched = 0
        while true {
            if let end = Self.find([0x0A], in: buffer, from: position + searched) {
                var line = buffer[position..<end]
                if line.last == 0x0D { line = line.dropLast() }
                position = end + 1
                return String(decoding: line, as: UTF8.self)
            }
            searched = buffer.count - position
            if buffer.count - position > Self.maximumLine {
                throw .malformed("a line of \(what) is longer than \(Self.maximumLine) bytes")
            }
            guard try fill() else { throw .lost("the connection closed in the middle of \(what)") }
        }
    }

    // MARK: - Input

    /// Reads more bytes into `buffer`; false at the end of the stream.
    private mutating func fill() throws(ClientFailure) -> Bool {
        if position > 0, position * 2 >= buffer.count {
            buffer.removeFirst(position)
            position = 0
        }
        let result = scratch.withUnsafeMutableBytes { connection.read(into: $0) }
        switch result {
        case .bytes(let count):
            buffer.append(contentsOf: scratch[0..<count])
            receivedAny = true
            return true
        case .end:
            return false
        case .failed(let reason):
            throw .lost(reason)
        }
    }

    private static func find(_ pattern: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= pattern.count else { return nil }
        var index = max(0, start)
        while index + pattern.count <= bytes.count {
            if bytes[index] == pattern[0] && bytes[index..<(index + pattern.count)].elementsEqual(pattern) {
                return index
            }
            index += 1
        }
        return nil
    }
}
