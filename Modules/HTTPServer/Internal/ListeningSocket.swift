import Glibc

/// Opens the server's listening socket: an IPv4 or IPv6 literal address (`localhost` means
/// 127.0.0.1), `SO_REUSEADDR` so a restarted server binds at once, non-blocking.
enum ListeningSocket {
    /// The descriptor and the port actually bound (the kernel's choice when `port` is 0).
    static func open(host: String, port: Int, backlog: Int32) throws(HTTPServerError) -> (
        fd: Int32, port: Int
    ) {
        guard (0...65_535).contains(port) else {
            throw HTTPServerError(
                code: .invalidAddress,
                "port \(port) is out of range; choose a port from 1 to 65535, or 0 for any free port")
        }
        let literal = host == "localhost" ? "127.0.0.1" : host
        var storage = sockaddr_storage()
        let length: socklen_t
        let family: Int32
        var ipv4 = in_addr()
        var ipv6 = in6_addr()
        if inet_pton(AF_INET, literal, &ipv4) == 1 {
            family = AF_INET
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
            withUnsafeMutablePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                    address.pointee.sin_family = sa_family_t(AF_INET)
                    address.pointee.sin_port = UInt16(port).bigEndian
                    address.pointee.sin_addr = ipv4
                }
            }
        } else if inet_pton(AF_INET6, literal, &ipv6) == 1 {
            family = AF_INET6
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            withUnsafeMutablePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                    address.pointee.sin6_family = sa_family_t(AF_INET6)
                    address.pointee.sin6_port = UInt16(port).bigEndian
                    address.pointee.sin6_addr = ipv6
                }
            }
        } else {
            throw HTTPServerError(
                code: .invalidAddress,
                "host '\(host)' is not an IP address; use an address such as 127.0.0.1, ::1 or 0.0.0.0")
        }

        let fd = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else {
            throw HTTPServerError(code: .socketFailed, "cannot create a socket: \(Posix.describe(errno))")
        }
        Posix.setOption(fd, SOL_SOCKET, SO_REUSEADDR, 1)
        let bound = withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0 else {
            let code = errno
            close(fd)
            let place = family == AF_INET6 ? "[\(literal)]:\(port)" : "\(literal):\(port)"
            if code == EADDRINUSE {
                throw HTTPServerError(
                    code: .addressInUse,
                    "cannot listen on \(place): the address is already in use (is another server running?); "
                        + "stop it or choose another port (0 picks a free one)")
            }
            if code == EADDRNOTAVAIL {
                throw HTTPServerError(
                    code: .invalidAddress,
                    "cannot listen on \(place): no network interface of this machine has address '\(literal)'"
                )
            }
            if code == EACCES {
                throw HTTPServerError(
                    code: .permissionDenied,
                    "cannot listen on \(place): permission denied (ports below 1024 need privileges); "
                        + "choose a port from 1024 up")
            }
            throw HTTPServerError(code: .socketFailed, "cannot listen on \(place): \(Posix.describe(code))")
        }
        guard listen(fd, backlog) == 0, Posix.makeNonBlocking(fd) else {
            let code = errno
            close(fd)
            throw HTTPServerError(
                code: .socketFailed, "cannot listen on \(literal):\(port): \(Posix.describe(code))")
        }
        var actual = sockaddr_storage()
        var actualLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &actual) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &actualLength) }
        }
        let described = Posix.describe(actual)
        let boundPort = described.split(separator: ":").last.flatMap { Int($0) } ?? port
        return (fd, boundPort)
    }
}
