import COpenSSL
import Glibc

extension ClientConnection {
    /// Resolves `endpoint`'s host, connects to the first address that accepts (each attempt
    /// bounded by `connectLimit`), and runs the TLS handshake when `tls` is given. While
    /// connecting, the socket is registered with `control`, so a cancel or the deadline shuts it.
    ///
    /// - Throws: `refused`, `unknownHost`, `unreachable` or `handshake` (nothing was sent), or
    ///   `cancelled` when `control` was abandoned meanwhile.
    static func open(
        to endpoint: ClientEndpoint, tls: TLSContext?, connectLimit: Duration, control: ExchangeControl
    ) throws(ClientFailure) -> ClientConnection {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_ADDRCONFIG | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(endpoint.host, String(endpoint.port), &hints, &list)
        guard resolved == 0, let first = list else {
            let reason =
                resolved == EAI_SYSTEM
                ? String(cString: strerror(errno)) : String(cString: gai_strerror(resolved))
            throw .unknownHost(reason)
        }
        defer { freeaddrinfo(list) }

        var refused = false
        var lastReason = "no address to connect to"
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let address = next {
            next = address.pointee.ai_next
            let fd = socket(
                address.pointee.ai_family, address.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else {
                lastReason = String(cString: strerror(errno))
                continue
            }
            // SO_SNDTIMEO bounds a blocking connect on Linux; it is cleared once connected.
            setTimeout(fd, connectLimit)
            guard control.attach(fd) else {
                Glibc.close(fd)
                throw .cancelled
            }
            let connected = connect(fd, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0
            let error = errno
            if connected {
                setTimeout(fd, .zero)
                var one: Int32 = 1
                setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                guard let tls else { return ClientConnection(fd: fd, ssl: nil) }
                do {
                    let ssl = try tls.handshake(fd: fd, endpoint: endpoint)
                    return ClientConnection(fd: fd, ssl: ssl)
                } catch {
                    let abandoned = control.detach()
                    Glibc.close(fd)
                    throw abandoned ? .cancelled : error
                }
            }
            let abandoned = control.detach()
            Glibc.close(fd)
            if abandoned { throw .cancelled }
            if error == ECONNREFUSED {
                refused = true
            } else {
                lastReason =
                    error == EINPROGRESS || error == EAGAIN
                    ? "the connection timed out" : String(cString: strerror(error))
            }
        }
        throw refused ? .refused : .unreachable(lastReason)
    }

    private static func setTimeout(_ fd: Int32, _ limit: Duration) {
        let (seconds, attoseconds) = limit.components
        var value = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
    }
}
