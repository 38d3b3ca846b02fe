// The system OpenSSL crypto library (Debian's libssl-dev), exposed to Swift as the module
// COpenSSL: scrypt for password hashes, SHA-256 for token hashes, a constant-time compare.
#include <openssl/evp.h>
#include <openssl/sha.h>
#include <openssl/crypto.h>
#include <openssl/rand.h>
