/// Why an exchange of the HTTP client produced no response; `HTTPTransport` turns each into a
/// `TransportError` (see `HTTPTransport.classify(_:limit:request:)`).
enum ClientFailure: Error, Equatable {
    /// The server refused the connection: nothing was sent.
    case refused
    /// The host name did not resolve (the resolver's reason): nothing was sent.
    case unknownHost(String)
    /// No connection could be made for another reason (the system's): nothing was sent.
    case unreachable(String)
    /// The TLS handshake failed or the server's certificate was refused (the reason): nothing
    /// was sent.
    case handshake(String)
    /// The request cannot be written as HTTP/1.1 (the reason): nothing was sent.
    case invalidRequest(String)
    /// The connection closed or failed before the whole response arrived (the reason): the
    /// server may have applied the request.
    case lost(String)
    /// The peer answered with something that is not an HTTP/1.1 response (the reason).
    case malformed(String)
    /// The request's time ran out.
    case expired
    /// The caller was cancelled.
    case cancelled
}
