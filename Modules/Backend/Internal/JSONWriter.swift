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

    mutating func string(_ text: String) {
        beforeValue()
        writeString(text)
    }

    mutating func int(_ value: Int64) {
        beforeValue()
        bytes.append(contentsOf: String(value).utf8)
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

    /// Escapes like `JSONValue.serialized()`: quote, backslash, \n, \r, \t and other control
    /// characters as `\u00XX`; everything else as UTF-8.
    private mutating func writeString(_ text: String) {
        let hex = Array("0123456789abcdef".utf8)
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "\\"): bytes.append(contentsOf: "\\\\".utf8)
            case UInt8(ascii: "\n"): bytes.append(contentsOf: "\\n".utf8)
            case UInt8(ascii: "\r"): bytes.append(contentsOf: "\\r".utf8)
            case UInt8(ascii: "\t"): bytes.append(contentsOf: "\\t".utf8)
            case 0..<0x20:
                bytes.append(contentsOf: "\\u00".utf8)
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
