import Foundation

extension JSONValue: Codable {
    /// Decodes any JSON value from a decoder's single-value container.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Encodes the value; a non-finite double (which JSON cannot express) encodes as `null`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value):
            if value.isFinite { try container.encode(value) } else { try container.encodeNil() }
        case .string(let value): try container.encode(value)
        case .array(let values): try container.encode(values)
        case .object(let fields): try container.encode(fields)
        }
    }
}

extension JSONValue {
    /// The value as compact JSON text, object keys sorted so equal values give equal bytes.
    ///
    /// Complexity: O(n) in the size of the value (plus sorting each object's keys).
    public func serialized() -> Data {
        var bytes: [UInt8] = []
        write(into: &bytes)
        return Data(bytes)
    }

    private func write(into out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .int(let value): Self.writeDigits(value, into: &out)
        case .double(let value):
            out.append(contentsOf: (value.isFinite ? String(value) : "null").utf8)
        case .string(let value): Self.writeString(value, into: &out)
        case .array(let values):
            out.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                value.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let fields):
            out.append(UInt8(ascii: "{"))
            for (index, key) in fields.keys.sorted().enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                fields[key, default: .null].write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Appends the decimal digits of `value` (with a minus sign when negative), as
    /// `String(value)` writes them, without making a string. The backend's JSON writer uses it
    /// too, once per number of every response: inlinable, so the call costs what its own copy did.
    @inlinable package static func writeDigits(_ value: Int64, into out: inout [UInt8]) {
        if value >= 0 && value < 10 {
            out.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value))
            return
        }
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        // 2^63 has 19 digits.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// Appends `text` as a JSON string: quote, backslash, \n, \r, \t and other control
    /// characters escaped, everything else as UTF-8.
    static func writeString(_ text: String, into out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: "\\\\".utf8)
            case UInt8(ascii: "\n"): out.append(contentsOf: "\\n".utf8)
            case UInt8(ascii: "\r"): out.append(contentsOf: "\\r".utf8)
            case UInt8(ascii: "\t"): out.append(contentsOf: "\\t".utf8)
            case 0..<0x20:
                out.append(contentsOf: "\\u00".utf8)
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

extension DecodingError {
    /// A one-line account of a decoding error, for messages.
    var briefDescription: String {
        switch self {
        case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context),
            .valueNotFound(_, let context):
            if let underlying = context.underlyingError {
                return "\(context.debugDescription) \(underlying.localizedDescription)"
            }
            return context.debugDescription
        @unknown default:
            return "\(self)"
        }
    }
}
