import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Sends exact bytes to 127.0.0.1:`port` and reads until the server closes the connection (send
/// `Connection: close`), for requests a well-behaved client cannot make (a header twice). Runs
/// on a Dispatch thread, not the concurrency pool, and gives up reading after 10 s.
func rawExchange(port: Int, _ text: String) async throws -> (status: Int, body: String) {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async {
            continuation.resume(with: Result { try rawExchangeBlocking(port: port, text) })
        }
    }
}

struct RawExchangeError: Error, CustomStringConvertible {
    var description: String
}

private func rawExchangeBlocking(port: Int, _ text: String) throws -> (status: Int, body: String) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw RawExchangeError(description: "socket: \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    var timeout = timeval(tv_sec: 10, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard connected == 0 else {
        throw RawExchangeError(description: "connect to port \(port): \(String(cString: strerror(errno)))")
    }
    let bytes = Array(text.utf8)
    var sent = 0
    while sent < bytes.count {
        let count = bytes.withUnsafeBytes { raw in
            raw.baseAddress.map { send(fd, $0 + sent, bytes.count - sent, 0) } ?? -1
        }
        guard count > 0 else { throw RawExchangeError(description: "send failed after \(sent) bytes") }
        sent += count
    }
    var received: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count <= 0 { break }
        received += chunk[0..<count]
    }
    let response = String(decoding: received, as: UTF8.self)
    let statusLine = response.split(separator: "\r\n", maxSplits: 1).first ?? ""
    let parts = statusLine.split(separator: " ")
    guard parts.count >= 2, let status = Int(parts[1]) else {
        throw RawExchangeError(description: "no HTTP status in '\(response.prefix(80))'")
    }
    let body = response.range(of: "\r\n\r\n").map { String(response[$0.upperBound...]) } ?? ""
    return (status, body)
}
