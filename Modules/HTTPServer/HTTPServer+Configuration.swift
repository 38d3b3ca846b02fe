import Wire

extension HTTPServer {
    /// Where the server listens, its limits and timeouts, its faults and its access log.
    ///
    /// ```swift
    /// var configuration = HTTPServer.Configuration(port: 0)
    /// configuration.requestTimeout = .milliseconds(300)
    /// configuration.accessLog = { print($0) }
    /// ```
    public struct Configuration: Sendable {
        /// The address to bind: an IPv4 or IPv6 literal, or `localhost`. Default `127.0.0.1`;
        /// binding another address (`0.0.0.0`) exposes the server to the network.
        public var host: String
        /// The port; 0 lets the kernel pick a free one. Default 8080.
        public var port: Int
        /// Size limits on requests.
        public var limits: Limits
        /// The longest a request may take to arrive, head and body, from its first byte; a
        /// request not complete by then is answered 408 and its connection closed. A new
        /// connection that sends nothing at all is closed (without an answer) once this long has
        /// passed. Default 10 s.
        public var requestTimeout: Duration
        /// The longest a request's body may go without a byte arriving, from the end of its head:
        /// a connection that announces a body and then stalls is answered 408 (`body_timeout`)
        /// and closed, so that it holds its slot for this long rather than the whole request
        /// timeout. Default 5 s.
        public var bodyIdleTimeout: Duration
        /// The longest a kept-alive connection may wait for its next request before it is
        /// closed. Default 60 s.
        public var idleTimeout: Duration
        /// The longest writing one response may take (a client that stops reading); the
        /// connection is then closed. Default 10 s.
        public var writeTimeout: Duration
        /// How many connections may be open at once. Default nil: as many as the process can hold,
        /// derived when the server starts from its limit on open files (the soft limit, raised to
        /// the hard limit) less a reserve of 256 for everything else, and from its memory (64 KiB
        /// a connection, out of a quarter of physical memory); `HTTPServer.connectionLimit` tells
        /// the figure. A value is capped the same way.
        ///
        /// When every slot is taken, a new connection closes the connection that has been idle
        /// longest (kept alive between requests, or silent since it connected) and takes its slot;
        /// with none idle, the address holding the most connections loses the one of them still
        /// receiving its request that started the longest ago (a slow head or body), when it holds
        /// more than the newcomer's address would; otherwise the newcomer is answered 503
        /// (`server_busy`) and closed. One slot in eight is kept for addresses that hold no
        /// connection yet. So connections held busy from any number of addresses cannot lock out an
        /// address with fewer.
        public var maxConnections: Int?
        /// How many connections one client address may have open at once, so that a flood from
        /// one address cannot take every slot; more are answered 503 (`too_many_connections`)
        /// and closed. Default 256.
        public var maxConnectionsPerAddress: Int
        /// The largest body a request to a method and target may carry, as the application
        /// declares it per route (`BackendServer.maximumBodySize(for:target:)`): a head that
        /// announces more is answered 413 (`body_too_large`) and its connection closed, without
        /// the body being read. Capped by `limits.bodyBytes`. Called on the event loop's thread for
        /// every request with a body (keep it quick). Default nil: `limits.bodyBytes` everywhere.
        public var bodyLimit: (@Sendable (_ method: HTTPMethod, _ target: String) -> Int)?
        /// The faults to add. Default `.none`.
        public var faults: HTTPFaultProfile
        /// Where access log entries go, one per request, called on the event loop's thread (keep
        /// it quick). Default nil: no log.
        public var accessLog: (@Sendable (AccessLogEntry) -> Void)?

        /// Makes a configuration.
        public init(
            host: String = "127.0.0.1", port: Int = 8080, limits: Limits = Limits(),
            requestTimeout: Duration = .seconds(10), bodyIdleTimeout: Duration = .seconds(5),
            idleTimeout: Duration = .seconds(60), writeTimeout: Duration = .seconds(10),
            maxConnections: Int? = nil,
            maxConnectionsPerAddress: Int = 256, faults: HTTPFaultProfile = .none,
            accessLog: (@Sendable (AccessLogEntry) -> Void)? = nil
        ) {
            self.host = host
            self.port = port
            self.limits = limits
            self.requestTimeout = requestTimeout
            self.bodyIdleTimeout = bodyIdleTimeout
            self.idleTimeout = idleTimeout
            self.writeTimeout = writeTimeout
            self.maxConnections = maxConnections
            self.maxConnectionsPerAddress = maxConnectionsPerAddress
            self.faults = faults
            self.accessLog = accessLog
        }

        /// How many connections the server may hold with `descriptors` open files and `memory`
        /// bytes of physical memory: `maxConnections` (when set) within the descriptors less a
        /// reserve (256, or a quarter of a smaller limit) and a quarter of the memory at 64 KiB a
        /// connection.
        func connectionLimit(descriptors: Int, memory: Int?) -> Int {
            let reserve = min(256, descriptors / 4)
            var held = max(descriptors - reserve, 1)
            if let memory { held = min(held, max(memory / 4 / (64 * 1024), 1)) }
            return maxConnections.map { min($0, held) } ?? held
        }

        func validate() throws(HTTPServerError) {
            let positive: [(String, Duration)] = [
                ("requestTimeout", requestTimeout), ("bodyIdleTimeout", bodyIdleTimeout),
                ("idleTimeout", idleTimeout),
                ("writeTimeout", writeTimeout),
            ]
            for (name, value) in positive where value <= .zero {
                throw HTTPServerError(
                    code: .invalidConfiguration, "\(name) is \(value); it must be more than zero")
            }
            let sizes = [
                ("limits.requestLineBytes", limits.requestLineBytes),
                ("limits.headerBytes", limits.headerBytes),
                ("maxConnections", maxConnections ?? 1),
                ("maxConnectionsPerAddress", maxConnectionsPerAddress),
            ]
            for (name, value) in sizes where value < 1 {
                throw HTTPServerError(
                    code: .invalidConfiguration, "\(name) is \(value); it must be at least 1")
            }
            if limits.bodyBytes < 0 {
                throw HTTPServerError(
                    code: .invalidConfiguration,
                    "limits.bodyBytes is \(limits.bodyBytes); it must be 0 or more")
            }
            if limits.bodyBytesInFlight < limits.bodyBytes {
                throw HTTPServerError(
                    code: .invalidConfiguration,
                    "limits.bodyBytesInFlight is \(limits.bodyBytesInFlight); it must be at least "
                        + "limits.bodyBytes (\(limits.bodyBytes)), or no body that large could ever be read")
            }
        }
    }

    /// Size limits on requests; a request over one is answered with the status shown and its
    /// connection closed.
    ///
    /// | limit | default | status |
    /// | --- | --- | --- |
    /// | request line (method, target, version) | 8 KiB | 414 URI Too Long |
    /// | header lines, terminators included | 32 KiB in total | 431 Request Header Fields Too Large |
    /// | body (`Content-Length`) | 1 MiB | 413 Content Too Large |
    /// | bodies in flight, all connections together, as their bytes arrive | 64 MiB | 503 Service Unavailable |
    ///
    /// Bodies must come with `Content-Length`: `Transfer-Encoding: chunked` alone is answered 411
    /// Length Required; `Transfer-Encoding` with `Content-Length`, any other transfer coding, or
    /// `Transfer-Encoding` in HTTP/1.0 is answered 400.
    public struct Limits: Hashable, Sendable {
        /// The longest request line, in bytes, without its line ending.
        public var requestLineBytes: Int
        /// The most bytes of header lines in total.
        public var headerBytes: Int
        /// The largest body.
        public var bodyBytes: Int
        /// The most bytes that the bodies of all requests in flight may hold together, counted as
        /// they arrive (a body announced and not sent holds nothing) until the handler has
        /// answered. A request whose arriving bytes would go over is answered 503 (`server_busy`,
        /// `Retry-After: 1`), and its connection closed. When no body is in flight any
        /// more, the memory they held is handed back to the system. At least `bodyBytes`.
        public var bodyBytesInFlight: Int

        /// Makes limits (defaults: 8 KiB, 32 KiB, 1 MiB, 64 MiB).
        public init(
            requestLineBytes: Int = 8 * 1024, headerBytes: Int = 32 * 1024, bodyBytes: Int = 1024 * 1024,
            bodyBytesInFlight: Int = 64 * 1024 * 1024
        ) {
            self.requestLineBytes = requestLineBytes
            self.headerBytes = headerBytes
            self.bodyBytes = bodyBytes
            self.bodyBytesInFlight = bodyBytesInFlight
        }
    }
}
