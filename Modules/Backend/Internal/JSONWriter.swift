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
