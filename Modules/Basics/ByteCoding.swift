/// Writes a compact binary encoding: LEB128 varints, zigzag signed integers, length-prefixed
/// strings and bytes, little-endian fixed-width integers. The feed cache's entries and the
/// mutation journal's payloads are written with it; `ByteReader` reads it back.
///
/// ```swift
/// var writer = ByteWriter()
/// writer.string("m42")
/// writer.signed(-3)
/// var reader = ByteReader(writer.bytes)
/// let id = try reader.string()  // "m42"
/// ```
public struct ByteWriter {
    @usableFromInline var storage: [UInt8] = []

    /// What has been written so far.
    @inlinable public var bytes: [UInt8] { storage }

    /// An empty writer with room for `capacity` bytes.
    @inlinable public init(capacity: Int = 256) { storage.reserveCapacity(capacity) }

    /// Appends one byte.
    @inlinable public mutating func byte(_ value: UInt8) { storage.append(value) }

    /// Appends 1 for true, 0 for false.
    @inlinable public mutating func bool(_ value: Bool) { storage.append(value ? 1 : 0) }

    /// Appends a LEB128 varint.
    @inlinable public mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            storage.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        storage.append(UInt8(value))
    }

    /// Appends a count (negative counts as 0) as a varint.
    @inlinable public mutating func count(_ value: Int) { varint(UInt64(max(value, 0))) }

    /// Appends a zigzag-encoded signed varint.
    @inlinable public mutating func signed(_ value: Int64) {
        varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    /// Appends two little-endian bytes.
    @inlinable public mutating func uint16(_ value: UInt16) {
        storage.append(UInt8(truncatingIfNeeded: value))
        storage.append(UInt8(truncatingIfNeeded: value >> 8))
    }

    /// Appends four little-endian bytes.
    @inlinable public mutating func uint32(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) {
            storage.append(UInt8(truncatingIfNeeded: value >> UInt32(shift)))
        }
    }

    /// Appends eight little-endian bytes.
    @inlinable public mutating func uint64(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) {
            storage.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }

    /// Appends a length-prefixed UTF-8 string.
    @inlinable public mutating func string(_ text: String) {
        count(text.utf8.count)
        storage.append(contentsOf: text.utf8)
    }

    /// Appends a presence byte, then the string if there is one.
    @inlinable public mutating func optionalString(_ text: String?) {
        guard let text else {
            storage.append(0)
            return
        }
        storage.append(1)
        string(text)
    }

    /// Appends a length-prefixed run of bytes.
    @inlinable public mutating func raw(_ data: some Collection<UInt8>) {
        count(data.count)
        storage.append(contentsOf: data)
    }
}

/// Reads what `ByteWriter` wrote, failing with the offset of the first problem.
///
/// Complexity: O(1) per value, O(n) for strings and byte runs.
public struct ByteReader: ~Copyable {
    /// The bytes being read.
    public let bytes: [UInt8]
    @usableFromInline var position = 0

    /// Where the next read starts.
    @inlinable public var offset: Int { position }

    /// A reader at the start of `bytes`.
    @inlinable public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Whether every byte has been read.
    @inlinable public var isAtEnd: Bool { offset >= bytes.count }

    /// The next byte.
    @inlinable public mutating func byte() throws(ByteDecodingError) -> UInt8 {
        guard offset < bytes.count else { throw ByteDecodingError(offset: offset, problem: "unexpected end") }
        defer { position += 1 }
        return bytes[offset]
    }

    /// The next byte, as a Bool.
    @inlinable public mutating func bool() throws(ByteDecodingError) -> Bool { try byte() != 0 }

    /// The next LEB128 varint.
    @inlinable public mutating func varint() throws(ByteDecodingError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let next = try byte()
            guard shift < 64 else { throw ByteDecodingError(offset: offset, problem: "varint too long") }
            result |= UInt64(next & 0x7F) << shift
            if next < 0x80 { return result }
            shift += 7
        }
    }

    /// A non-negative count no larger than `limit`.
    @inlinable public mutating func count(limit: Int = Int(Int32.max)) throws(ByteDecodingError) -> Int {
        let value = try varint()
        guard value <= UInt64(limit) else {
            throw ByteDecodingError(offset: offset, problem: "count \(value) over the limit of \(limit)")
        }
        return Int(value)
    }

    /// The next zigzag-encoded signed varint.
    @inlinable public mutating func signed() throws(ByteDecodingError) -> Int64 {
        let value = try varint()
        return Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
    }

    /// The next two little-endian bytes.
    @inlinable public mutating func uint16() throws(ByteDecodingError) -> UInt16 {
        guard offset + 2 <= bytes.count else {
            throw ByteDecodingError(offset: offset, problem: "unexpected end")
        }
        defer { position += 2 }
        return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    /// The next eight little-endian bytes.
    @inlinable public mutating func uint64() throws(ByteDecodingError) -> UInt64 {
        guard offset + 8 <= bytes.count else {
            throw ByteDecodingError(offset: offset, problem: "unexpected end")
        }
        var value: UInt64 = 0
        for index in 0..<8 { value |= UInt64(bytes[offset + index]) << UInt64(8 * index) }
        position += 8
        return value
    }

    /// The next length-prefixed run of bytes.
    @inlinable public mutating func slice() throws(ByteDecodingError) -> ArraySlice<UInt8> {
        let length = try count()
        guard length <= bytes.count - offset else {
            throw ByteDecodingError(offset: offset, problem: "a run of \(length) bytes passes the end")
        }
        defer { position += length }
        return bytes[offset..<(offset + length)]
    }

    /// The next length-prefixed UTF-8 string.
    @inlinable public mutating func string() throws(ByteDecodingError) -> String {
        String(decoding: try slice(), as: UTF8.self)
    }

    /// The next optional string.
    @inlinable public mutating func optionalString() throws(ByteDecodingError) -> String? {
        try bool() ? try string() : nil
    }
}

/// Bytes that `ByteReader` could not read: where, and what was wrong.
public struct ByteDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Where the problem was found.
    public var offset: Int
    /// What was wrong.
    public var problem: String

    /// A problem at `offset`.
    @inlinable public init(offset: Int, problem: String) {
        self.offset = offset
        self.problem = problem
    }

    /// `byte <offset>: <problem>`.
    public var description: String { "byte \(offset): \(problem)" }
}
