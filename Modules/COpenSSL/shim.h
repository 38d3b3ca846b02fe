// The system OpenSSL (Debian's libssl-dev), exposed to Swift as the module COpenSSL: from
// libcrypto, scrypt for password hashes, SHA-256 for token hashes, a constant-time compare; from
// libssl, TLS for the HTTP client's https connections.
#include <openssl/evp.h>
#include <openssl/sha.h>
#include <openssl/crypto.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/x509.h>

// Macros Swift cannot call, wrapped as functions.

/// Names the server for SNI (`SSL_set_tlsext_host_name`); 1 on success.
static inline long loom_SSL_set_tlsext_host_name(SSL *ssl, const char *name) {
    return SSL_set_tlsext_host_name(ssl, name);
}

/// Refuses protocol versions below TLS 1.2 (`SSL_CTX_set_min_proto_version`); 1 on success.
static inline long loom_SSL_CTX_set_min_proto_version_tls12(SSL_CTX *context) {
    return SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
}

/// Treats a peer that closes without a TLS close_notify as an end of stream
/// (`SSL_OP_IGNORE_UNEXPECTED_EOF`): the response's own framing says whether it was whole.
static inline void loom_SSL_CTX_ignore_unexpected_eof(SSL_CTX *context) {
    SSL_CTX_set_options(context, SSL_OP_IGNORE_UNEXPECTED_EOF);
}
