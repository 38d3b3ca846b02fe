import Basics
import COpenSSL
import Testing

/// `SHA256` against the standard's examples (FIPS 180-4, and the NIST vectors for the padding's
/// edges) and against OpenSSL's SHA-256 for every length across two blocks.
@Suite struct SHA256Tests {
    private func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
            .joined()
    }

    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
    ])
    func theStandardsExamples(message: String, digest: String) {
        #expect(hex(SHA256.hash(Array(message.utf8))) == digest)
    }

    @Test func aMillionAs() {
        let digest = SHA256.hash([UInt8](repeating: 0x61, count: 1_000_000))
        #expect(hex(digest) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Every length from 0 to 200 bytes (the padding's one-block and two-block cases, and a
    /// token's 68 bytes), each a different pattern, the same as OpenSSL's.
    @Test func everyLengthUpToThreeBlocks_isOpenSSLsDigest() {
        for length in 0...200 {
            let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ length) }
            var expected = [UInt8](repeating: 0, count: SHA256.digestLength)
            message.withUnsafeBufferPointer { input in
                expected.withUnsafeMutableBufferPointer { output in
                    _ = COpenSSL.SHA256(input.baseAddress, input.count, output.baseAddress)
                }
            }
            #expect(SHA256.hash(message) == expected, "length \(length)")
        }
    }
}
