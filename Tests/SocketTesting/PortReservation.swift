import Glibc

/// A socket bound to a port on 127.0.0.1 without listening: connections to it are refused, and
/// the kernel gives the port to no one else until `release()`. A test that needs a refused port
/// holds one of these for as long as it relies on the refusal; a port merely bound and freed
/// can be taken by another test's listener the moment it is free.
public final class PortReservation {
    private var fd: Int32
    /// The port held (the kernel's choice when asked for 0), or nil when the port was taken.
    public private(set) var port: Int?

    /// Binds `port` (0: any free port); `port` is nil afterwards when it was taken.
    public init(port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        let bound = withLoopbackAddress(port: port) { bind(fd, $0, $1) } == 0
        self.fd = bound ? fd : -1
        if !bound {
            if fd >= 0 { Glibc.close(fd) }
            return
        }
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        self.port = named == 0 ? Int(UInt16(bigEndian: address.sin_port)) : nil
    }

    /// Whether no socket listens on `port` of 127.0.0.1, learned by binding it for a moment
    /// (which succeeds unless a socket listens there) rather than by connecting to it.
    public static func nobodyListens(on port: Int) -> Bool {
        PortReservation(port: port).port != nil
    }

    /// Lets the port go (once; later calls do nothing).
    public func release() {
        guard fd >= 0 else { return }
        Glibc.close(fd)
        fd = -1
    }

    deinit { release() }
}
