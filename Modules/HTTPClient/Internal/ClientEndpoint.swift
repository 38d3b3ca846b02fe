import Foundation
import Glibc

/// Where the HTTP client connects and what it sends in `Host`, from a base URL such as
/// `http://127.0.0.1:8080/api`.
struct ClientEndpoint: Sendable, Equatable {
    /// The host to resolve: a name or an IP literal (an IPv6 literal without brackets).
    let host: String
    /// The TCP port: the URL's, else 80 for http and 443 for https.
    let port: UInt16
    /// Whether the connection is TLS (`https`).
    let isSecure: Bool

    /// Reads the endpoint of an `http` or `https` URL with a host; nil for any other.
    init?(baseURL: URL) {
        guard let scheme = baseURL.scheme?.lowercased(), scheme == "http" || scheme == "https",
            var host = baseURL.host, !host.isEmpty
        else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        isSecure = scheme == "https"
        guard let port = baseURL.port.map({ UInt16(exactly: $0) }) ?? (isSecure ? 443 : 80) else {
            return nil
        }
        self.host = host
        self.port = port
    }

    /// The `Host` header's value: the host (an IPv6 literal in brackets) and the port.
    var hostHeader: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Whether the host is an IP literal (no SNI is sent for one, and the certificate must
    /// name the address rather than a host name).
    var hostIsAddress: Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }
}
