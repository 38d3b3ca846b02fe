import Glibc

/// Finds where a request's head ends in bytes that arrive a piece at a time, enforcing the size
/// limits as it goes: a request line longer than the limit is a 414, header lines longer in
/// total a 431, before the rest of the head has even arrived.
///
/// It resumes where the previous call stopped, so a head delivered one byte per read costs
/// O(head length) overall, not O(length²). Every line must end with CRLF: a bare LF is refused
/// with 400 (`bad_line_ending`), as strict HTTP/1.1 servers do, since a proxy in front may end
/// the line elsewhere (RFC 9112, section 2.2).
struct HeadScanner {
    /// Where the next unterminated line starts.
    private var lineStart = 0
    /// Where the request line starts (after any empty lines a client sent before it).
    private var requestLineStart = 0
    /// Just past the request line's LF, once seen.
    private var requestLineEnd: Int?
    /// The lines ended so far, for the message about a bare LF.
    private var linesEnded = 0

    /// What a scan found.
    enum Outcome {
        /// The head is not complete yet.
        case needMore
        /// The head spans `start..<end` (the request line through the empty line).
        case complete(start: Int, end: Int)
        /// The head breaks a limit.
        case failure(HTTPFailure)
    }

    /// Starts over for the next request.
    mutating func reset() { self = HeadScanner() }

    /// Scans `bytes` (the connection's unread input, from the start of the request).
    mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>, limits: HTTPServer.Limits) -> Outcome {
        guard let base = bytes.baseAddress else { return .needMore }
        let count = bytes.count
        while lineStart < count,
            let found = memchr(base + lineStart, 0x0A, count - lineStart)
        {
            let lf = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            linesEnded += 1
            guard lf > lineStart, bytes[lf - 1] == 0x0D else { return .failure(bareLineFeed()) }
            let contentEnd = lf - 1
            let isEmpty = contentEnd == lineStart
            if let requestLineEnd {
                if isEmpty { return .complete(start: requestLineStart, end: lf + 1) }
                if lf + 1 - requestLineEnd > limits.headerBytes { return .failure(headersTooLarge(limits)) }
            } else if isEmpty {
                // Empty lines before the request line are ignored (RFC 9112, section 2.2).
                requestLineStart = lf + 1
                if requestLineStart > 64 {
                    return .failure(
                        .badRequest(
                            "bad_request_line",
                            "the request starts with more than 64 bytes of empty lines; send the request line first"
                        ))
                }
            } else {
                if contentEnd - lineStart > limits.requestLineBytes { return .failure(uriTooLong(limits)) }
                requestLineEnd = lf + 1
            }
            lineStart = lf + 1
        }
        if let requestLineEnd {
            if count - requestLineEnd > limits.headerBytes { return .failure(headersTooLarge(limits)) }
        } else if count - requestLineStart > limits.requestLineBytes + 1 {
            return .failure(uriTooLong(limits))
        }
        return .needMore
    }

    private func bareLineFeed() -> HTTPFailure {
        .badRequest(
            "bad_line_ending",
            "line \(linesEnded) of the request's head ends with a bare LF; end every line with CRLF")
    }

    private func uriTooLong(_ limits: HTTPServer.Limits) -> HTTPFailure {
        HTTPFailure(
            414, "request_line_too_long",
            "the request line is longer than \(limits.requestLineBytes) bytes; shorten the target "
                + "(move large data into a request body)")
    }

    private func headersTooLarge(_ limits: HTTPServer.Limits) -> HTTPFailure {
        HTTPFailure(
            431, "headers_too_large",
            "the header fields are larger than \(limits.headerBytes) bytes in total; send fewer or shorter fields"
        )
    }
}
