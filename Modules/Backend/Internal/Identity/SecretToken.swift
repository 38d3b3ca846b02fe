import Basics

/// The bearer and renew tokens the backend hands out: 256 random bits from the system's secure
/// generator, written `<prefix>` and 64 hex digits (`tok_…`, `ren_…`). The database keeps only
/// their SHA-256 (`hash`), so a copy of it holds no token that works.
enum SecretToken {
    /// The prefix of a bearer token.
    static let bearerPrefix = "tok_"
    /// The prefix of a renew token.
    static let renewPrefix = "ren_"

    /// A new token: `prefix` and 64 hex digits.
    static func make(prefix: String) -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes = [UInt8](repeating: 0, count: 32)
        for index in bytes.indices { bytes[index] = generator.next() }
        return prefix + hex(bytes)
    }

    /// A token written like `make`'s, derived from a secret the caller holds (`secret`: the
    /// renew token a renewal exchanged) and a random `salt` the database keeps: `prefix` and the
    /// hex SHA-256 of a label naming the prefix, the salt and the secret. Deriving the pair a
    /// renewal handed out again needs both: the database holds only the secret's SHA-256, so a
    /// copy of it cannot, while the client that retries its renewal can.
    static func derive(prefix: String, from secret: String, salt: String) -> String {
        prefix + String(hash("loom-renewal-retry\u{0}\(prefix)\u{0}\(salt)\u{0}\(secret)"))
    }

    /// The SHA-256 of `token`'s UTF-8 bytes, as 64 hex digits: what the database stores.
    /// Basics' `SHA256`, not OpenSSL's: a request is then hashed without initializing OpenSSL,
    /// which an embedded backend's first request otherwise waits 0.85 ms for.
    static func hash(_ token: String) -> String {
        hex(SHA256.hash(Array(token.utf8)))
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
