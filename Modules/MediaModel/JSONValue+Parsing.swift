import Foundation

extension JSONValue {
    /// Parses JSON text.
    ///
    /// The result is exactly what Foundation's `JSONDecoder` gives for the same bytes through
    /// `JSONValue`'s `Decodable` conformance, which was how this was first done; only faster.
    /// That conformance asks the decoder for a `Bool`, then an `Int64`, a `Double`, a `String`
    /// and an array in turn until one fits, and each miss is a thrown error: four throws for a
    /// string, each building a `DecodingError` (and, in a process running Swift Testing, each
    /// capturing a backtrace, which made it half of the cross-app suite's time). Here the text is
    /// read once, byte by byte, and nothing is thrown unless the text is not JSON.
    ///
    /// What it shares with `JSONDecoder`, on purpose:
    /// - a number without a fraction or exponent that fits in 64 bits is `.int`; any other
    ///   number whose nearest `Double` is a whole number below 2^53 is `.int` too (`1.0`, `1e2`,
    ///   `1e-400`); the rest are `.double`; a number too large for a `Double` is an error;
    /// - a comma before the closing bracket or brace is accepted (`[1,]`);
    /// - of duplicate keys in an object, the first is kept;
    /// - a UTF-8 byte order mark is skipped; nesting deeper than 512 is an error.
    ///
    /// For what it does not read itself (text in UTF-16 or UTF-32, a whole number of 2^53 or more
    /// written with a fraction or exponent), and for text that is not valid JSON (so the error
    /// says the same as before), it hands the bytes to `JSONDecoder`.
    ///
    /// - Throws: `WireFormatError` at the root path when the text is not valid JSON.
    /// - Complexity: O(n) in the length of the text.
    public init(parsing data: Data) throws(WireFormatError) {
        if let parsed = Self.parsedWithoutFoundation(data) {
            self = parsed
            return
        }
        self = try Self.parsingWithFoundation(data)
    }

    /// What the parser reads itself: `nil` for text it leaves to `JSONDecoder` (see
    /// `init(parsing:)`).
    package static func parsedWithoutFoundation(_ data: Data) -> JSONValue? {
        data.withUnsafeBytes { raw in
            var parser = JSONParser(raw.bindMemory(to: UInt8.self))
            return parser.parseDocument()
        }
    }

    /// Parses `data` with Foundation's `JSONDecoder`: the reference the parser above matches.
    package static func parsingWithFoundation(_ data: Data) throws(WireFormatError) -> JSONValue {
        do {
            return try JSONDecoder().decode(JSONValue.self, from: data)
        } catch let error as DecodingError {
            throw WireFormatError(path: .root, problem: "not valid JSON (\(error.briefDescription))")
        } catch {
            throw WireFormatError(path: .root, problem: "not valid JSON (\(error))")
        }
    }
}

/// A reader of JSON text in UTF-8; `nil` from any of its methods means "not read here" (invalid
/// text, or a case left to `JSONDecoder`), never a guess.
private struct JSONParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0
    /// The deepest nesting `JSONDecoder` reads.
    private static let maximumDepth = 512

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    mutating func parseDocument() -> JSONValue? {
        if bytes.count >= 2 && (bytes[0] == 0 || bytes[1] == 0 || bytes[0] == 0xFE || bytes[0] == 0xFF) {
            return nil  // UTF-16 or UTF-32: JSONDecoder reads those
        }
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { index = 3 }
        skipWhitespace()
        guard let value = parseValue() else { return nil }
        skipWhitespace()
        guard index == bytes.count else { return nil }
        return value
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func parseValue() -> JSONValue? {
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "{"): return parseObject()
        case UInt8(ascii: "["): return parseArray()
        case UInt8(ascii: "\""): return parseString().map(JSONValue.string)
        case UInt8(ascii: "t"): return literal("true", .bool(true))
        case UInt8(ascii: "f"): return literal("false", .bool(false))
        case UInt8(ascii: "n"): return literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return parseNumber()
        default: return nil
        }
    }

    private mutating func literal(_ word: StaticString, _ value: JSONValue) -> JSONValue? {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { return nil }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return nil }
        index += count
        return value
    }

    private mutating func parseArray() -> JSONValue? {
        depth += 1
        guard depth <= Self.maximumDepth else { return nil }
        defer { depth -= 1 }
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            guard let item = parseValue() else { return nil }
            items.append(item)
            skipWhitespace()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "]"):
                index += 1
                return .array(items)
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
                if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return .array(items)
                }
            default:
                return nil
            }
        }
    }

    private mutating func parseObject() -> JSONValue? {
        depth += 1
        guard depth <= Self.maximumDepth else { return nil }
        defer { depth -= 1 }
        index += 1
        var fields: [String: JSONValue] = [:]
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(fields)
        }
        while true {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = parseString() else {
                return nil
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
            index += 1
            skipWhitespace()
            guard let value = parseValue() else { return nil }
            if fields[key] == nil { fields[key] = value }
            skipWhitespace()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "}"):
                index += 1
                return .object(fields)
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
                if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return .object(fields)
                }
            default:
                return nil
            }
        }
    }

    /// Reads a string from its opening quote: UTF-8 checked, escapes resolved, surrogates paired.
    private mutating func parseString() -> String? {
        index += 1
        let start = index
        // The common case: no escapes, read straight from the bytes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(
                    validating: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { return nil }
            index += 1
        }
        var utf8 = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(validating: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { return nil }
                let escaped = bytes[index]
                index += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escaped)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    guard let scalar = parseUnicodeEscape() else { return nil }
                    utf8.append(contentsOf: UTF8.encode(scalar)!)
                default: return nil
                }
            default:
                if byte < 0x20 { return nil }
                utf8.append(byte)
                index += 1
            }
        }
        return nil
    }

    /// Reads the four hex digits after `\u` (and a second escape when they are a high surrogate).
    private mutating func parseUnicodeEscape() -> Unicode.Scalar? {
        guard let unit = hexQuad() else { return nil }
        switch unit {
        case 0xD800...0xDBFF:
            guard bytes.count - index >= 2, bytes[index] == UInt8(ascii: "\\"),
                bytes[index + 1] == UInt8(ascii: "u")
            else { return nil }
            index += 2
            guard let low = hexQuad(), (0xDC00...0xDFFF).contains(low) else { return nil }
            return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
        case 0xDC00...0xDFFF:
            return nil
        default:
            return Unicode.Scalar(unit)
        }
    }

    private mutating func hexQuad() -> UInt32? {
        guard bytes.count - index >= 4 else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// Reads a number by JSON's grammar, then types it as `JSONDecoder` would (see `init(parsing:)`).
    private mutating func parseNumber() -> JSONValue? {
        let start = index
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            guard digits() > 0 else { return nil }
        }
        var plainInteger = true
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { return nil }
            plainInteger = false
        }
        if index < bytes.count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
            index += 1
            if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-"))
            {
                index += 1
            }
            guard digits() > 0 else { return nil }
            plainInteger = false
        }
        let token = UnsafeBufferPointer(rebasing: bytes[start..<index])
        if plainInteger, let integer = Self.int64(token, negative: negative) { return .int(integer) }
        guard let double = Double(String(decoding: token, as: UTF8.self)), double.isFinite else { return nil }
        guard let whole = Int64(exactly: double) else { return .double(double) }
        // From 2^53 up a Double stands for several integers; JSONDecoder then reads the digits
        // as a Decimal. Left to it.
        guard double.magnitude < 0x1p53 else { return nil }
        return .int(whole)
    }

    /// Skips decimal digits; returns how many.
    private mutating func digits() -> Int {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
            index += 1
        }
        return index - start
    }

    /// The value of an optionally signed run of digits, if it fits in an `Int64`.
    private static func int64(_ token: UnsafeBufferPointer<UInt8>, negative: Bool) -> Int64? {
        var magnitude: UInt64 = 0
        for byte in token.dropFirst(negative ? 1 : 0) {
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
            guard !overflow1 && !overflow2 else { return nil }
            magnitude = sum
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        return Int64(exactly: magnitude)
    }
}
