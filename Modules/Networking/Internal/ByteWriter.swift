/// Appends the cache's compact binary encoding: LEB128 varints, zigzag signed integers,
/// length-prefixed strings and bytes, little-endian fixed-width integers.
struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }

    mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    mutating func count(_ value: Int) { varint(UInt64(max(value, 0))) }

    mutating func signed(_ value: Int64) { varint(UInt64(bitPattern: (value << 1) ^ (value >> 63))) }

    mutating func uint16(_ value: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
    }

    mutating func uint32(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift)))
        }
    }

    mutating func uint64(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }

    mutating func string(_ text: String) {
        count(text.utf8.count)
        bytes.append(contentsOf: text.utf8)
    }

    mutating func optionalString(_ text: String?) {
        guard let text else {
            bytes.append(0)
            return
        }
        bytes.append(1)
        string(text)
    }

    mutating func raw(_ data: some Collection<UInt8>) {
        count(data.count)
        bytes.append(contentsOf: data)
    }
}

/// Reads what `ByteWriter` wrote, failing with the offset of the first problem.
///
/// Complexity: O(1) per value, O(n) for strings and byte runs.
struct ByteReader: ~Copyable {
    let bytes: [UInt8]
    private(set) var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { offset >= bytes.count }

    mutating func byte() throws(CacheCodecError) -> UInt8 {
        guard offset < bytes.count else { throw CacheCodecError(offset: offset, problem: "unexpected end") }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func bool() throws(CacheCodecError) -> Bool { try byte() != 0 }

    mutating func varint() throws(CacheCodecError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let next = try byte()
            guard shift < 64 else { throw CacheCodecError(offset: offset, problem: "varint too long") }
            result |= UInt64(next & 0x7F) << shift
            if next < 0x80 { return result }
            shift += 7
        }
    }

    /// A non-negative count no larger than `limit`.
    mutating func count(limit: Int = Int(Int32.max)) throws(CacheCodecError) -> Int {
        let value = try varint()
        guard value <= UInt64(limit) else {
            throw CacheCodecError(offset: offset, problem: "count \(value) over the limit of \(limit)")
        }
        return Int(value)
    }

    mutating func signed() throws(CacheCodecError) -> Int64 {
        let value = try varint()
        return Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
    }

    mutating func uint16() throws(CacheCodecError) -> UInt16 {
        guard offset + 2 <= bytes.count else {
            throw CacheCodecError(offset: offset, problem: "unexpected end")
        }
        defer { offset += 2 }
        return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    mutating func uint64() throws(CacheCodecError) -> UInt64 {
        guard offset + 8 <= bytes.count else {
            throw CacheCodecError(offset: offset, problem: "unexpected end")
        }
        var value: UInt64 = 0
        for index in 0..<8 { value |= UInt64(bytes[offset + index]) << UInt64(8 * index) }
        offset += 8
        return value
    }

    mutating func slice() throws(CacheCodecError) -> ArraySlice<UInt8> {
        let length = try count()
        guard length <= bytes.count - offset else {
            throw CacheCodecError(offset: offset, problem: "a run of \(length) bytes passes the end")
        }
        defer { offset += length }
        return bytes[offset..<(offset + length)]
    }

    mutating func string() throws(CacheCodecError) -> String {
        String(decoding: try slice(), as: UTF8.self)
    }

    mutating func optionalString() throws(CacheCodecError) -> String? {
        try bool() ? try string() : nil
    }
}

/// A cached blob that could not be read: where, and what was wrong.
struct CacheCodecError: Error, Hashable, Sendable, CustomStringConvertible {
    var offset: Int
    var problem: String

    var description: String { "byte \(offset): \(problem)" }
}
