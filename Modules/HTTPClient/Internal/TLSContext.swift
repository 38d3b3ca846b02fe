import COpenSSL
import Glibc

/// The client side of TLS: one OpenSSL context per transport, verifying the server's certificate
/// against the system's trust store (or, for tests, one CA file) and its name against the host.
///
/// `@unchecked Sendable`: the `SSL_CTX` is configured once in `init` and only read afterwards
/// (`SSL_new` may be called from any thread then), and freed in `deinit`.
final class TLSContext: @unchecked Sendable {
    let context: OpaquePointer

    /// Makes a context trusting the system's default certificates, or only those in
    /// `trustedCertificates` (a PEM file) when given.
    init(trustedCertificates: String?) throws(ClientFailure) {
        ERR_clear_error()
        guard let context = SSL_CTX_new(TLS_client_method()) else {
            throw .handshake("cannot make a TLS context: \(Self.lastError())")
        }
        self.context = context
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        _ = loom_SSL_CTX_set_min_proto_version_tls12(context)
        loom_SSL_CTX_ignore_unexpected_eof(context)
        let loaded =
            if let trustedCertificates {
                SSL_CTX_load_verify_locations(context, trustedCertificates, nil) == 1
            } else {
                SSL_CTX_set_default_verify_paths(context) == 1
            }
        guard loaded else {
            let which = trustedCertificates.map { "'\($0)'" } ?? "the system's trust store"
            throw .handshake("cannot load the trusted certificates of \(which): \(Self.lastError())")
        }
    }

    deinit { SSL_CTX_free(context) }

    /// Runs the client handshake on the connected socket `fd` for `endpoint`: SNI, the host name
    /// (or address) the certificate must name, then `SSL_connect`. Returns the `SSL`.
    func handshake(fd: Int32, endpoint: ClientEndpoint) throws(ClientFailure) -> OpaquePointer {
        ERR_clear_error()
        guard let ssl = SSL_new(context) else { throw .handshake("cannot start TLS: \(Self.lastError())") }
        let named =
            if endpoint.hostIsAddress {
                X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), endpoint.host) == 1
            } else {
                loom_SSL_set_tlsext_host_name(ssl, endpoint.host) == 1
                    && SSL_set1_host(ssl, endpoint.host) == 1
            }
        guard named, SSL_set_fd(ssl, fd) == 1 else {
            SSL_free(ssl)
            throw .handshake("cannot set up TLS for '\(endpoint.host)': \(Self.lastError())")
        }
        let result = SSL_connect(ssl)
        guard result == 1 else {
            let verification = SSL_get_verify_result(ssl)
            let reason =
                if verification != X509_V_OK {
                    "its certificate was refused: \(String(cString: X509_verify_cert_error_string(verification)))"
                } else {
                    Self.handshakeError(ssl, result)
                }
            SSL_free(ssl)
            throw .handshake("the TLS handshake with \(endpoint.host) failed: \(reason)")
        }
        return ssl
    }

    private static func handshakeError(_ ssl: OpaquePointer, _ result: Int32) -> String {
        let code = SSL_get_error(ssl, result)
        if code == SSL_ERROR_SYSCALL {
            let error = errno
            return error == 0 ? "the server closed the connection" : String(cString: strerror(error))
        }
        return lastError()
    }

    /// OpenSSL's latest error on this thread, as text.
    static func lastError() -> String {
        let code = ERR_get_error()
        guard code != 0 else { return "unknown error" }
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        let text = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: text, as: UTF8.self)
    }
}
