import COpenSSL
import Foundation
import Synchronization

/// Passwords stored as scrypt hashes (OpenSSL's `EVP_PBE_scrypt`) in a self-describing string:
/// `$scrypt$ln=15,r=8,p=1$<salt>$<hash>`, the salt 16 random bytes from the system's secure
/// generator and the hash 32 bytes, both unpadded base64. The parameters travel with the hash,
/// so a later cost can verify hashes made at an earlier one.
///
/// At `ln=15, r=8, p=1` one hash takes 32 MiB of memory for tens of milliseconds (Backend's docs
/// give the figure); callers run it through `KDFGate`, so a flood of sign-ins cannot take more
/// than the gate's capacity times that.
enum PasswordHash {
    static let saltLength = 16
    static let hashLength = 32

    /// Hashes `password` with a new random salt at `cost` (the standard one unless said).
    static func make(_ password: String, cost: Parameters = .standard) throws(PasswordHashError) -> String {
        var salt = [UInt8](repeating: 0, count: saltLength)
        var generator = SystemRandomNumberGenerator()
        for index in salt.indices { salt[index] = generator.next() }
        let hash = try derive(password, salt: salt, cost)
        return
            "$scrypt$ln=\(cost.log2N),r=\(cost.blockSize),p=\(cost.parallelism)$\(encode(salt))$\(encode(hash))"
    }

    /// Whether `password` hashes to `stored` (made by `make`), compared in constant time. A
    /// stored string that is not a hash this type made (or asks for an absurd cost) verifies
    /// nothing.
    static func verify(_ password: String, against stored: String) -> Bool {
        guard let (parameters, salt, expected) = parse(stored),
            let actual = try? derive(password, salt: salt, parameters), actual.count == expected.count
        else { return false }
        return actual.withUnsafeBytes { left in
            expected.withUnsafeBytes { right in
                CRYPTO_memcmp(left.baseAddress, right.baseAddress, left.count) == 0
            }
        }
    }

    /// Whether `stored` is a hash at no more than the demo cost (so cheap that it needs no turn at
    /// the `KDFGate`).
    static func isCheap(_ stored: String) -> Bool {
        guard let (parameters, _, _) = parse(stored) else { return false }
        return parameters.memory <= Parameters.demo.memory
    }

    /// scrypt's cost parameters.
    struct Parameters: Equatable, Sendable {
        var log2N: Int
        var blockSize: Int
        var parallelism: Int

        /// The cost of every password a person chose: N = 2^15, r = 8, p = 1 (32 MiB, tens of
        /// milliseconds).
        static let standard = Parameters(log2N: 15, blockSize: 8, parallelism: 1)

        /// The cost of the demo password's hash: N = 2^10 (1 MiB, about a millisecond). That
        /// password is published (`DemoAccounts.password`), so a slow hash of it would protect
        /// nothing, while every demo sign-in (each app launch, each test) would pay for it.
        static let demo = Parameters(log2N: 10, blockSize: 8, parallelism: 1)

        /// The memory scrypt needs: 128 · r · N bytes, plus 128 · r · p.
        var memory: UInt64 {
            128 * UInt64(blockSize) * (UInt64(1) << UInt64(log2N)) + 128 * UInt64(blockSize * parallelism)
        }
    }

    /// How many hashes above the demo cost are being computed now, and the most ever at once in
    /// this process (what `KDFGate` bounds; tests read it).
    static let inFlight = Mutex((now: 0, most: 0))

    private static func derive(_ password: String, salt: [UInt8], _ parameters: Parameters)
        throws(PasswordHashError) -> [UInt8]
    {
        let counted = parameters.memory > Parameters.demo.memory
        if counted {
            inFlight.withLock { state in
                state.now += 1
                state.most = max(state.most, state.now)
            }
        }
        defer { if counted { inFlight.withLock { $0.now -= 1 } } }
        var key = [UInt8](repeating: 0, count: hashLength)
        let bytes = Array(password.utf8)
        let status = bytes.withUnsafeBufferPointer { pass in
            salt.withUnsafeBufferPointer { salt in
                key.withUnsafeMutableBufferPointer { key in
                    EVP_PBE_scrypt(
                        pass.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) },
                        pass.count, salt.baseAddress, salt.count, UInt64(1) << UInt64(parameters.log2N),
                        UInt64(parameters.blockSize), UInt64(parameters.parallelism),
                        parameters.memory + 1024 * 1024, key.baseAddress, key.count)
                }
            }
        }
        guard status == 1 else {
            throw PasswordHashError(
                message:
                    "scrypt (N=2^\(parameters.log2N), r=\(parameters.blockSize), p=\(parameters.parallelism)) "
                    + "failed in OpenSSL; the process may be out of memory")
        }
        return key
    }

    /// Reads `$scrypt$ln=..,r=..,p=..$salt$hash`, refusing costs outside what `make` could have
    /// used within reason (a damaged row must not ask for gigabytes).
    static func parse(_ stored: String) -> (Parameters, [UInt8], [UInt8])? {
        let parts = stored.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0].isEmpty, parts[1] == "scrypt" else { return nil }
        var values: [Substring: Int] = [:]
        for field in parts[2].split(separator: ",") {
            let pair = field.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, let value = Int(pair[1]) else { return nil }
            values[pair[0]] = value
        }
        guard let log2N = values["ln"], let blockSize = values["r"], let parallelism = values["p"],
            (10...20).contains(log2N), (1...32).contains(blockSize), (1...16).contains(parallelism),
            let salt = decode(parts[3]), salt.count >= 8, let hash = decode(parts[4]),
            hash.count == hashLength
        else { return nil }
        return (Parameters(log2N: log2N, blockSize: blockSize, parallelism: parallelism), salt, hash)
    }

    private static func encode(_ bytes: [UInt8]) -> String {
        var text = Data(bytes).base64EncodedString()
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }

    private static func decode(_ text: Substring) -> [UInt8]? {
        var padded = String(text)
        while padded.count % 4 != 0 { padded += "=" }
        return Data(base64Encoded: padded).map { Array($0) }
    }
}

/// OpenSSL could not compute a password hash (in practice: out of memory).
struct PasswordHashError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
