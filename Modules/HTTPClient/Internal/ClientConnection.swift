import COpenSSL
import Glibc

/// One TCP connection of the HTTP client to the server, TLS or plain, with blocking reads and
/// writes (made on an exchange's own thread, never on the cooperative pool).
///
/// `@unchecked Sendable`: a connection is used by one thread at a time: the exchange that opened
/// or took it, or the idle pool that holds it between exchanges (handed over under the pool's
/// lock). Only `ExchangeControl` touches its descriptor from another thread, with `shutdown`.
final class ClientConnection: @unchecked Sendable {
    /// The socket.
    let fd: Int32
    /// The TLS session over `fd`, for https.
    private let ssl: OpaquePointer?
    private var isClosed = false

    /// What a read returned.
    enum ReadResult {
        case bytes(Int)
        case end
        case failed(String)
    }

    init(fd: Int32, ssl: OpaquePointer?) {
        self.fd = fd
        self.ssl = ssl
    }

    deinit { close() }

    /// Writes all of `bytes`; a failure is `lost` (the connection was closed or reset).
    func write(_ bytes: [UInt8]) throws(ClientFailure) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer -> Int in
                let start = buffer.baseAddress.map { $0 + offset }
                let count = buffer.count - offset
                if let ssl { return Int(SSL_write(ssl, start, Int32(clamping: count))) }
                return send(fd, start, count, Int32(MSG_NOSIGNAL))
            }
            if written > 0 {
                offset += written
                continue
            }
            if ssl == nil, written < 0, errno == EINTR { continue }
            throw .lost("sending the request failed: \(describeFailure(result: written))")
        }
    }

    /// Reads into `buffer`: some bytes, the end of the stream, or a failure.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        while true {
            let count =
                if let ssl {
                    Int(SSL_read(ssl, buffer.baseAddress, Int32(clamping: buffer.count)))
                } else {
                    recv(fd, buffer.baseAddress, buffer.count, 0)
                }
            if count > 0 { return .bytes(count) }
            if let ssl {
                let code = SSL_get_error(ssl, Int32(count))
                if code == SSL_ERROR_ZERO_RETURN || (code == SSL_ERROR_SYSCALL && errno == 0) { return .end }
                return .failed(describeFailure(result: count))
            }
            if count == 0 { return .end }
            if errno == EINTR { continue }
            return .failed(String(cString: strerror(errno)))
        }
    }

    /// Closes the connection (a TLS session is dropped without a close_notify: the exchange is
    /// over either way). Idempotent.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        if let ssl { SSL_free(ssl) }
        Glibc.close(fd)
    }

    private func describeFailure(result: Int) -> String {
        let error = errno
        if let ssl {
            let code = SSL_get_error(ssl, Int32(result))
            if code == SSL_ERROR_SYSCALL {
                return error == 0 ? "the connection closed" : String(cString: strerror(error))
            }
            return "TLS: \(TLSContext.lastError())"
        }
        return String(cString: strerror(error))
    }
}
