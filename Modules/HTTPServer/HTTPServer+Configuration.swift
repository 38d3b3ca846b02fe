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
        /// The longest a kept-alive connection may wait for its next request before it is
        /// closed. Default 60 s.
        public var idleTimeout: Duration
        /// The longest writing one response may take (a client that stops reading); the
        /// connection is then closed. Default 10 s.
        public var writeTimeout: Duration
        /// How many connections may be open at once; more are answered 503 and closed.
        /// Default 1024.
        public var maxConnections: Int
        /// How many connections one client address may have open at once, so that a flood from
        /// one address cannot take every slot; more are answered 503 (`too_many_connections`)
        /// and closed. Default 256 (a quarter of the default `maxConnections`).
        public var maxConnectionsPerAddress: Int
        /// The faults to add. Default `.none`.
        public var faults: HTTPFaultProfile
        /// Where access log entries go, one per request, called on the event loop's thread (keep
        /// it quick). Default nil: no log.
        public var accessLog: (@Sendable (AccessLogEntry) -> Void)?

        /// Makes a configuration.
        public init(
            host: String = "127.0.0.1", port: Int = 8080, limits: Limits = Limits(),
            requestTimeout: Duration = .seconds(10), idleTimeout: Duration = .seconds(60),
            writeTimeout: Duration = .seconds(10), maxConnections: Int = 1024,
            maxConnectionsPerAddress: Int = 256, faults: HTTPFaultProfile = .none,
            accessLog: (@Sendable (AccessLogEntry) -> Void)? = nil
        ) {
            self.host = host
            self.port = port
            self.limits = limits
            self.requestTimeout = requestTimeout
            self.idleTimeout = idleTimeout
            self.writeTimeout = writeTimeout
            self.maxConnections = maxConnections
            self.maxConnectionsPerAddress = maxConnectionsPerAddress
            self.faults = faults
            self.accessLog = accessLog
        }

        func validate() throws(HTTPServerError) {
            let positive: [(String, Duration)] = [
                ("requestTimeout", requestTimeout), ("idleTimeout", idleTimeout),
                ("writeTimeout", writeTimeout),
            ]
            for (name, value) in positive where value <= .zero {
                throw HTTPServerError(
                    code: .invalidConfiguration, "\(name) is \(value); it must be more than zero")
            }
            let sizes = [
                ("limits.requestLineBytes", limits.requestLineBytes),
                ("limits.headerBytes", limits.headerBytes),
                ("maxConnections", maxConnections),
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
    /// | bodies in flight, all connections together | 64 MiB | 503 Service Unavailable |
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
        /// The most bytes that the bodies of all requests in flight may hold together, from the
        /// moment a head announces its `Content-Length` until the handler has answered. A
        /// request whose body would go over is answered 503 (`server_busy`, `Retry-After: 1`)
        /// before its body is read, and its connection closed. When no body is in flight any
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
