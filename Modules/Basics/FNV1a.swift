/// FNV-1a, 64 bits: a fast hash that is the same in every process and release (unlike
/// `Hasher`, which is seeded per process), for fingerprints and content versions that are
/// stored or compared across launches. Not a defense against deliberate collisions.
///
/// ```swift
/// var hash = FNV1a()
/// hash.combine(method.utf8)
/// hash.endPart()
/// hash.combine(body)
/// let fingerprint = hash.value
/// ```
///
/// Complexity: O(n) in the bytes combined.
public struct FNV1a: Sendable, Hashable {
    @usableFromInline var state: UInt64

    /// The hash of everything combined so far.
    @inlinable public var value: UInt64 { state }

    /// The hash of nothing yet.
    @inlinable public init() { state = 0xCBF2_9CE4_8422_2325 }

    /// Adds `bytes`.
    @inlinable public mutating func combine(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            state ^= UInt64(byte)
            state &*= 0x0000_0100_0000_01B3
        }
    }

    /// Ends one part of a value made of several (a 0xFF byte, which UTF-8 never contains), so
    /// the parts `ab`, `c` and `a`, `bc` hash differently.
    @inlinable public mutating func endPart() { combine(CollectionOfOne(0xFF)) }

    /// The hash of `bytes` alone.
    @inlinable public static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash = FNV1a()
        hash.combine(bytes)
        return hash.value
    }
}
