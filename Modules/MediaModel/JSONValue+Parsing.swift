import Basics
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

/// A reader of JSON text in UTF-8 (its lexing is Basics' `JSONScanner`, shared with the manifest
/// reader); `nil` from any of its methods means "not read here" (invalid text, or a case left to
/// `JSONDecoder`), never a guess.
private struct JSONParser {
    private var scanner: JSONScanner
    private var depth = 0
    /// The deepest nesting `JSONDecoder` reads.
    private static let maximumDepth = 512

    init(_ bytes: UnsafeBufferPointer<UInt8>) { scanner = JSONScanner(bytes) }

    mutating func parseDocument() -> JSONValue? {
        let bytes = scanner.bytes
        if bytes.count >= 2 && (bytes[0] == 0 || bytes[1] == 0 || bytes[0] == 0xFE || bytes[0] == 0xFF) {
            return nil  // UTF-16 or UTF-32: JSONDecoder reads those
        }
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { scanner.index = 3 }
        scanner.skipWhitespace()
        guard let value = parseValue() else { return nil }
        scanner.skipWhitespace()
        guard scanner.isAtEnd else { return nil }
        return value
    }

    private mutating func parseValue() -> JSONValue? {
        guard let byte = scanner.current else { return nil }
        switch byte {
        case UInt8(ascii: "{"): return parseObject()
        case UInt8(ascii: "["): return parseArray()
        case UInt8(ascii: "\""): return (try? scanner.scanString()).map(JSONValue.string)
        case UInt8(ascii: "t"): return (try? scanner.scanLiteral("true")).map { .bool(true) }
        case UInt8(ascii: "f"): return (try? scanner.scanLiteral("false")).map { .bool(false) }
        case UInt8(ascii: "n"): return (try? scanner.scanLiteral("null")).map { .null }
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return parseNumber()
        default: return nil
        }
    }

    /// After an item of a list that ends with `close`: true at its end (a comma before it is
    /// accepted, as `JSONDecoder` accepts it), false when another item follows, nil otherwise.
    private mutating func listEnds(_ close: UInt8) -> Bool? {
        scanner.skipWhitespace()
        if scanner.skip(close) { return true }
        guard scanner.skip(UInt8(ascii: ",")) else { return nil }
        scanner.skipWhitespace()
        return scanner.skip(close)
    }

    private mutating func parseArray() -> JSONValue? {
        depth += 1
        guard depth <= Self.maximumDepth else { return nil }
        defer { depth -= 1 }
        scanner.index += 1
        var items: [JSONValue] = []
        scanner.skipWhitespace()
        if scanner.skip(UInt8(ascii: "]")) { return .array(items) }
        while true {
            guard let item = parseValue() else { return nil }
            items.append(item)
            guard let ended = listEnds(UInt8(ascii: "]")) else { return nil }
            if ended { return .array(items) }
        }
    }

    private mutating func parseObject() -> JSONValue? {
        depth += 1
        guard depth <= Self.maximumDepth else { return nil }
        defer { depth -= 1 }
        scanner.index += 1
        var fields: [String: JSONValue] = [:]
        scanner.skipWhitespace()
        if scanner.skip(UInt8(ascii: "}")) { return .object(fields) }
        while true {
            guard scanner.current == UInt8(ascii: "\""), let key = try? scanner.scanString() else {
                return nil
            }
            scanner.skipWhitespace()
            guard scanner.skip(UInt8(ascii: ":")) else { return nil }
            scanner.skipWhitespace()
            guard let value = parseValue() else { return nil }
            if fields[key] == nil { fields[key] = value }
            guard let ended = listEnds(UInt8(ascii: "}")) else { return nil }
            if ended { return .object(fields) }
        }
    }

    /// Reads a number by JSON's grammar, then types it as `JSONDecoder` would (see `init(parsing:)`).
    private mutating func parseNumber() -> JSONValue? {
        guard let number = try? scanner.scanNumber() else { return nil }
        let token = number.token
        if number.isPlainInteger, let integer = Self.int64(token, negative: number.isNegative) {
            return .int(integer)
        }
        guard let double = Double(String(decoding: token, as: UTF8.self)), double.isFinite else { return nil }
        guard let whole = Int64(exactly: double) else { return .double(double) }
        // From 2^53 up a Double stands for several integers; JSONDecoder then reads the digits
        // as a Decimal. Left to it.
        guard double.magnitude < 0x1p53 else { return nil }
        return .int(whole)
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
