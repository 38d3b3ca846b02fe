import Foundation
import Wire

/// Reads a complete request head (request line, header fields, empty line) strictly: exactly one
/// space between the request line's parts, token methods and field names, no whitespace before
/// a field's colon, no folded lines, no control characters in values, `Host` once in HTTP/1.1,
/// `Authorization` at most once,
/// a consistent `Content-Length`, and no `Transfer-Encoding` (see `framing`).
///
/// Complexity: O(n) in the head's length.
enum RequestHeadParser {
    static func parse(_ head: UnsafeBufferPointer<UInt8>, limits: HTTPServer.Limits) -> Result<
        RequestHead, HTTPFailure
    > {
        var lines: [Range<Int>] = []
        var start = 0
        for index in head.indices where head[index] == 0x0A {
            let end = index > start && head[index - 1] == 0x0D ? index - 1 : index
            lines.append(start..<end)
            start = index + 1
        }
        // The last line is the empty one that ends the head.
        guard lines.count >= 2, let requestLine = lines.first else {
            return .failure(.badRequest("bad_request_line", "the request has no request line"))
        }
        let method: HTTPMethod
        let target: String
        let minorVersion: Int
        switch parseRequestLine(UnsafeBufferPointer(rebasing: head[requestLine])) {
        case .success(let parts): (method, target, minorVersion) = parts
        case .failure(let failure): return .failure(failure)
        }
        var headers = Headers()
        var fields = FramingFields()
        for line in lines.dropFirst().dropLast() {
            switch parseField(UnsafeBufferPointer(rebasing: head[line])) {
            case .success(let field):
                headers.add(field.name, field.value)
                fields.note(field.name, field.value)
            case .failure(let failure): return .failure(failure)
            }
        }
        return framing(
            method: method, target: target, minorVersion: minorVersion, headers: headers, fields: fields,
            limits: limits)
    }

    /// The values of the fields that frame the request, gathered as the fields are read, so that
    /// `framing` need not search every field once for each name.
    struct FramingFields {
        var hosts: [String] = []
        var authorizations = 0
        var lengths: [String] = []
        var codings: [String] = []
        var connection: [String] = []
        var expectations: [String] = []

        /// Notes a field when its name (in any case) is one of those above.
        mutating func note(_ name: String, _ value: String) {
            switch name.utf8.count {
            case 4 where Self.named(name, "host"): hosts.append(value)
            case 6 where Self.named(name, "expect"): expectations.append(value)
            case 10 where Self.named(name, "connection"): connection.append(value)
            case 13 where Self.named(name, "authorization"): authorizations += 1
            case 14 where Self.named(name, "content-length"): lengths.append(value)
            case 17 where Self.named(name, "transfer-encoding"): codings.append(value)
            default: break
            }
        }

        /// Whether `name` is `lowercase` in any ASCII case (without making a lowercased copy).
        private static func named(_ name: String, _ lowercase: StaticString) -> Bool {
            guard name.utf8.count == lowercase.utf8CodeUnitCount else { return false }
            return lowercase.withUTF8Buffer { expected in
                zip(name.utf8, expected).allSatisfy { byte, wanted in
                    (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) == wanted
                }
            }
        }
    }

    // MARK: Request line

    private static func parseRequestLine(_ line: UnsafeBufferPointer<UInt8>) -> Result<
        (HTTPMethod, String, Int), HTTPFailure
    > {
        let spaces = line.indices.filter { line[$0] == 0x20 }
        guard spaces.count == 2, let first = spaces.first, let second = spaces.last, first > 0,
            second > first + 1, second < line.count - 1
        else {
            return .failure(
                .badRequest(
                    "bad_request_line",
                    "request line '\(quoted(line))' is not 'METHOD TARGET HTTP/1.1' with single spaces"))
        }
        let methodBytes = UnsafeBufferPointer(rebasing: line[..<first])
        guard methodBytes.allSatisfy(isTokenByte) else {
            return .failure(
                .badRequest(
                    "bad_request_line", "method '\(quoted(methodBytes))' holds characters a method cannot"))
        }
        let methodName = String(decoding: methodBytes, as: UTF8.self)
        if methodBytes.contains(where: { $0 >= 0x61 && $0 <= 0x7A }) {
            return .failure(
                HTTPFailure(
                    501, "method_not_implemented",
                    "method '\(methodName)' is not known; methods are case-sensitive, so send '\(methodName.uppercased())'"
                ))
        }
        let targetBytes = UnsafeBufferPointer(rebasing: line[(first + 1)..<second])
        guard targetBytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            return .failure(
                .badRequest(
                    "bad_request_target",
                    "request target '\(quoted(targetBytes))' holds spaces, control or non-ASCII characters; "
                        + "percent-encode them"))
        }
        let versionBytes = UnsafeBufferPointer(rebasing: line[(second + 1)...])
        let version = String(decoding: versionBytes, as: UTF8.self)
        let minorVersion: Int
        switch version {
        case "HTTP/1.1": minorVersion = 1
        case "HTTP/1.0": minorVersion = 0
        default:
            let bytes = Array(versionBytes)
            let digit = { (byte: UInt8) in byte >= 0x30 && byte <= 0x39 }
            if bytes.count == 8, version.hasPrefix("HTTP/"), digit(bytes[5]), bytes[6] == 0x2E,
                digit(bytes[7])
            {
                return .failure(
                    HTTPFailure(
                        505, "http_version_not_supported",
                        "protocol '\(version)' is not supported; this server speaks HTTP/1.1 and HTTP/1.0"))
            }
            return .failure(
                .badRequest(
                    "bad_request_line",
                    "request line '\(quoted(line))' ends with '\(quoted(versionBytes))', not a version such as HTTP/1.1"
                ))
        }
        return .success(
            (HTTPMethod(rawValue: methodName), String(decoding: targetBytes, as: UTF8.self), minorVersion))
    }

    // MARK: Header fields

    private static func parseField(_ line: UnsafeBufferPointer<UInt8>) -> Result<
        (name: String, value: String), HTTPFailure
    > {
        guard let first = line.first, first != 0x20, first != 0x09 else {
            return .failure(
                .badRequest(
                    "bad_header",
                    "header line '\(quoted(line))' starts with whitespace (obsolete line folding is not accepted); "
                        + "put each field on one line"))
        }
        guard let colon = line.firstIndex(of: 0x3A) else {
            return .failure(
                .badRequest("bad_header", "header line '\(quoted(line))' has no colon; write 'Name: value'"))
        }
        let nameBytes = UnsafeBufferPointer(rebasing: line[..<colon])
        guard !nameBytes.isEmpty else {
            return .failure(
                .badRequest("bad_header", "header line '\(quoted(line))' has an empty field name"))
        }
        if let last = nameBytes.last, last == 0x20 || last == 0x09 {
            return .failure(
                .badRequest(
                    "bad_header",
                    "header field '\(quoted(nameBytes))' has whitespace before its colon; write 'Name: value'"
                ))
        }
        guard nameBytes.allSatisfy(isTokenByte) else {
            return .failure(
                .badRequest(
                    "bad_header",
                    "header field name '\(quoted(nameBytes))' holds characters a field name cannot"))
        }
        var valueStart = colon + 1
        var valueEnd = line.count
        while valueStart < valueEnd, line[valueStart] == 0x20 || line[valueStart] == 0x09 { valueStart += 1 }
        while valueEnd > valueStart, line[valueEnd - 1] == 0x20 || line[valueEnd - 1] == 0x09 {
            valueEnd -= 1
        }
        let valueBytes = UnsafeBufferPointer(rebasing: line[valueStart..<valueEnd])
        guard valueBytes.allSatisfy({ $0 == 0x09 || $0 >= 0x20 && $0 != 0x7F }) else {
            return .failure(
                .badRequest(
                    "bad_header",
                    "header field '\(quoted(nameBytes))' has a control character in its value (a bare CR, NUL, ...); "
                        + "remove it"))
        }
        return .success(
            (String(decoding: nameBytes, as: UTF8.self), String(decoding: valueBytes, as: UTF8.self)))
    }

    // MARK: Message framing

    /// Checks `Host`, `Authorization` (at most one), `Content-Length`, `Transfer-Encoding`, `Connection` and `Expect` (an
    /// expectation other than `100-continue` is answered 417 Expectation Failed).
    ///
    /// Bodies must be sent with `Content-Length`. A request with `Transfer-Encoding` is refused
    /// and its connection closed, since where it ends cannot be known:
    /// - `Transfer-Encoding` ending in `chunked` without `Content-Length`: 411 Length Required;
    /// - `Transfer-Encoding` together with `Content-Length` (a request smuggling pattern), any
    ///   other transfer coding, or `Transfer-Encoding` in HTTP/1.0: 400 Bad Request.
    private static func framing(
        method: HTTPMethod, target: String, minorVersion: Int, headers: Headers, fields: FramingFields,
        limits: HTTPServer.Limits
    ) -> Result<RequestHead, HTTPFailure> {
        let hosts = fields.hosts
        if minorVersion == 1 && hosts.count != 1 {
            return .failure(
                .badRequest(
                    "bad_host",
                    hosts.isEmpty
                        ? "an HTTP/1.1 request needs a Host header; add 'Host: 127.0.0.1:PORT'"
                        : "the request has \(hosts.count) Host headers; send exactly one"))
        }
        let authorizations = fields.authorizations
        if authorizations > 1 {
            // Which one a handler would read is not certain; the request is refused instead.
            return .failure(
                .badRequest(
                    "bad_authorization",
                    "the request has \(authorizations) Authorization headers; send exactly one"))
        }
        let lengths = fields.lengths
        let codings = fields.codings
        if !codings.isEmpty {
            let list = codings.joined(separator: ", ")
            let last = list.split(separator: ",").last?.trimmingOptionalWhitespace().lowercased()
            if !lengths.isEmpty {
                return .failure(
                    .badRequest(
                        "conflicting_framing",
                        "the request has both Transfer-Encoding '\(list)' and Content-Length; send only Content-Length"
                    ))
            }
            if minorVersion == 0 {
                return .failure(
                    .badRequest(
                        "bad_transfer_encoding",
                        "an HTTP/1.0 request cannot use Transfer-Encoding ('\(list)'); send Content-Length"))
            }
            if last == "chunked" {
                return .failure(
                    HTTPFailure(
                        411, "length_required",
                        "chunked request bodies are not accepted (Transfer-Encoding '\(list)'); send the body with "
                            + "Content-Length"))
            }
            return .failure(
                .badRequest(
                    "bad_transfer_encoding",
                    "Transfer-Encoding '\(list)' is not accepted; send the body unencoded with Content-Length"
                ))
        }
        var contentLength = 0
        if !lengths.isEmpty {
            let values = lengths.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }.map {
                $0.trimmingOptionalWhitespace()
            }
            guard let first = values.first, !first.isEmpty,
                first.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                values.allSatisfy({ $0 == first })
            else {
                let shown = lengths.joined(separator: ", ")
                return .failure(
                    .badRequest(
                        "bad_content_length",
                        "Content-Length '\(shown.prefix(80))' is not one whole number of bytes; send a single value"
                    ))
            }
            guard first.count <= 15, let value = Int(first), value <= limits.bodyBytes else {
                return .failure(
                    HTTPFailure(
                        413, "body_too_large",
                        "the body is \(first.prefix(20)) bytes, more than the \(limits.bodyBytes) bytes accepted; "
                            + "send less"))
            }
            contentLength = value
        }
        let connection = fields.connection.flatMap { $0.split(separator: ",") }.map {
            $0.trimmingOptionalWhitespace().lowercased()
        }
        let keepAlive =
            minorVersion == 1 ? !connection.contains("close") : connection.contains("keep-alive")
        let expectations = fields.expectations.flatMap { $0.split(separator: ",") }.map {
            $0.trimmingOptionalWhitespace()
        }
        if let unknown = expectations.first(where: { $0.lowercased() != "100-continue" }) {
            return .failure(
                HTTPFailure(
                    417, "expectation_failed",
                    "the server cannot meet 'Expect: \(unknown.prefix(80))'; the only expectation it knows is "
                        + "100-continue"))
        }
        let expectsContinue = !expectations.isEmpty
        return .success(
            RequestHead(
                method: method, target: target, minorVersion: minorVersion, headers: headers,
                contentLength: contentLength, keepAlive: keepAlive, expectsContinue: expectsContinue))
    }

    // MARK: Characters

    /// Whether a byte may appear in a token (a method or field name; RFC 9110, section 5.6.2).
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case 0x21, 0x23, 0x24, 0x25, 0x26, 0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x5E, 0x5F, 0x60, 0x7C, 0x7E: true
        default: false
        }
    }

    /// Bytes for a message: printable ASCII kept, others escaped (`\r`, `\x00`), cut at 80.
    static func quoted(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var text = ""
        for byte in bytes.prefix(80) {
            switch byte {
            case 0x0D: text += "\\r"
            case 0x09: text += "\\t"
            case 0x20...0x7E: text.unicodeScalars.append(Unicode.Scalar(byte))
            default: text += "\\x" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return bytes.count > 80 ? text + "..." : text
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
