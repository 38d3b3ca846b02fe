import Foundation
import MediaModel

/// Writes compact JSON straight into bytes, splicing in pre-rendered fragments (a post's stored
/// media JSON) without parsing them: how the backend builds responses cheaply.
///
/// Commas are placed automatically; keys are written in the order given.
///
/// Complexity: O(n) in the bytes written.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    /// For each open container, whether it holds an element yet.
    private var filled: [Bool] = []
    private var afterKey = false

    init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    mutating func beginObject() {
        beforeValue()
        bytes.append(UInt8(ascii: "{"))
        filled.append(false)
    }

    mutating func endObject() {
        filled.removeLast()
        bytes.append(UInt8(ascii: "}"))
    }

    mutating func beginArray() {
        beforeValue()
        bytes.append(UInt8(ascii: "["))
        filled.append(false)
    }

    mutating func endArray() {
        filled.removeLast()
        bytes.append(UInt8(ascii: "]"))
    }

    mutating func key(_ name: String) {
        beforeValue()
        writeString(name)
        bytes.append(UInt8(ascii: ":"))
        afterKey = true
    }

    /// Writes a key known when the code is written (`"likeCount"`) without scanning it for
    /// escapes: it must be printable ASCII other than a quote or a backslash.
    mutating func key(literal name: StaticString) {
        #if DEBUG
            precondition(
                name.hasPointerRepresentation
                    && UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount).allSatisfy {
                        $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\")
                    }, "key(literal:) takes a key that needs no escape, not '\(name)'")
        #endif
        beforeValue()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        afterKey = true
    }

    /// Writes the key `"<prefix><number>"` (a wire id such as `m12`), with no string made.
    mutating func key(_ prefix: UInt8, _ number: Int64) {
        beforeValue()
        writeID(prefix, number)
        bytes.append(UInt8(ascii: ":"))
        afterKey = true
    }

    /// Writes the string `"<prefix><number>"` (a wire id such as `p12`), with no string made.
    mutating func string(_ prefix: UInt8, _ number: Int64) {
        beforeValue()
        writeID(prefix, number)
    }

    mutating func string(_ text: String) {
        beforeValue()
        writeString(text)
    }

    mutating func int(_ value: Int64) {
        beforeValue()
        JSONValue.writeDigits(value, into: &bytes)
    }

    mutating func int(_ value: Int) { int(Int64(value)) }

    mutating func bool(_ value: Bool) {
        beforeValue()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    mutating func null() {
        beforeValue()
        bytes.append(contentsOf: "null".utf8)
    }

    /// Writes one complete JSON value with `write`, which appends it straight into the buffer
    /// (a value another module renders, such as `MediaFacts.writeJSON(into:)`), with no copy.
    mutating func value(_ write: (inout [UInt8]) -> Void) {
        beforeValue()
        write(&bytes)
    }

    /// Splices a complete JSON value written elsewhere.
    mutating func raw(_ fragment: some Sequence<UInt8>) {
        beforeValue()
        bytes.append(contentsOf: fragment)
    }

    mutating func field(_ name: String, _ text: String) {
        key(name)
        string(text)
    }

    mutating func field(_ name: String, _ value: Int64) {
        key(name)
        int(value)
    }

    mutating func field(_ name: String, _ value: Int) {
        key(name)
        int(value)
    }

    mutating func field(_ name: String, _ value: Bool) {
        key(name)
        bool(value)
    }

    mutating func field(literal name: StaticString, _ text: String) {
        key(literal: name)
        string(text)
    }

    mutating func field(literal name: StaticString, _ value: Int64) {
        key(literal: name)
        int(value)
    }

    mutating func field(literal name: StaticString, _ value: Int) {
        key(literal: name)
        int(value)
    }

    mutating func field(literal name: StaticString, _ value: Bool) {
        key(literal: name)
        bool(value)
    }

    mutating func rawField(literal name: StaticString, _ fragment: some Sequence<UInt8>) {
        key(literal: name)
        raw(fragment)
    }

    /// The bytes written, as `Data`, without copying them: the `Data` holds the writer's storage
    /// and gives it back when it is freed.
    consuming func data() -> Data {
        let storage = bytes
        guard !storage.isEmpty else { return Data() }
        // The pointer outlives `withUnsafeBytes`: sound because `storage` is a native array the
        // deallocator keeps alive and nothing can reach to mutate or resize (it is a `let`), so
        // its buffer neither moves nor changes until the `Data` frees it. A `Data` mutated in
        // place writes only into bytes that nothing else reads.
        let base = storage.withUnsafeBytes { UnsafeMutableRawPointer(mutating: $0.baseAddress) }
        guard let base else { return Data(storage) }
        return Data(bytesNoCopy: base, count: storage.count, deallocator: .custom { _, _ in _ = storage })
    }

    mutating func rawField(_ name: String, _ fragment: some Sequence<UInt8>) {
        key(name)
        raw(fragment)
    }

    private mutating func beforeValue() {
        if afterKey {
            afterKey = false
            return
        }
        guard let last = filled.last else { return }
        if last { bytes.append(UInt8(ascii: ",")) }
        filled[filled.count - 1] = true
    }

    private mutating func writeID(_ prefix: UInt8, _ number: Int64) {
        bytes.append(UInt8(ascii: "\""))
        bytes.append(prefix)
        JSONValue.writeDigits(number, into: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Writes `text` quoted, escaped like `JSONValue.serialized()`: quote, backslash, \n, \r, \t
    /// and other control characters as `\u00XX`; everything else as UTF-8. Each run of bytes
    /// that needs no escape is copied in one append (most strings are one run).
    private mutating func writeString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var runStart = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
                    continue
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                writeEscape(byte)
                runStart = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// The escape for a quote, a backslash or a control character.
    private mutating func writeEscape(_ byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
        case UInt8(ascii: "\n"): bytes.append(UInt8(ascii: "n"))
        case UInt8(ascii: "\r"): bytes.append(UInt8(ascii: "r"))
        case UInt8(ascii: "\t"): bytes.append(UInt8(ascii: "t"))
        default:
            func hexDigit(_ value: UInt8) -> UInt8 {
                value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
            }
            bytes.append(contentsOf: "u00".utf8)
            bytes.append(hexDigit(byte >> 4))
            bytes.append(hexDigit(byte & 0xF))
        }
    }
}
