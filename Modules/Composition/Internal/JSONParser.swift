import Basics

/// A strict JSON parser (RFC 8259) that records the line and column of every value and key,
/// rejects duplicate keys, and reports the first syntax error with its position. Its lexing
/// (whitespace, strings, numbers, literals) is Basics' `JSONScanner`, shared with MediaModel's
/// reader; the structure and the words of every error are its own.
///
/// Complexity: O(n) in the size of the input.
struct JSONParser {
    struct SyntaxError: Error, Sendable {
        var message: String
        var location: SourceLocation
    }

    private var scanner: JSONScanner
    private let file: String
    private var depth = 0
    private static let maximumDepth = 256

    private init(scanner: JSONScanner, file: String) {
        self.scanner = scanner
        self.file = file
    }

    /// Parses one JSON value spanning the whole input.
    static func parse(_ bytes: [UInt8], file: String) throws(SyntaxError) -> JSONNode {
        try bytes.withUnsafeBufferPointer { buffer throws(SyntaxError) in
            var parser = JSONParser(scanner: JSONScanner(buffer), file: file)
            parser.scanner.skipWhitespace()
            let node = try parser.parseValue()
            parser.scanner.skipWhitespace()
            if !parser.scanner.isAtEnd {
                throw parser.error("unexpected \(parser.describeCurrent()) after the end of the JSON value")
            }
            return node
        }
    }

    /// The location of the first invalid UTF-8 sequence in `bytes`, if any.
    static func firstInvalidUTF8(in bytes: [UInt8], file: String) -> (location: SourceLocation, byte: UInt8)?
    {
        var line = 1
        var lineStart = 0
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b < 0x80 {
                if b == 0x0A {
                    line += 1
                    lineStart = i + 1
                }
                i += 1
                continue
            }
            let length: Int
            if b & 0xE0 == 0xC0, b >= 0xC2 {
                length = 2
            } else if b & 0xF0 == 0xE0 {
                length = 3
            } else if b & 0xF8 == 0xF0, b <= 0xF4 {
                length = 4
            } else {
                return (SourceLocation(file: file, line: line, column: i - lineStart + 1), b)
            }
            guard i + length <= bytes.count else {
                return (SourceLocation(file: file, line: line, column: i - lineStart + 1), b)
            }
            for k in 1..<length where bytes[i + k] & 0xC0 != 0x80 {
                return (SourceLocation(file: file, line: line, column: i - lineStart + 1), b)
            }
            // Reject overlong three- and four-byte forms and surrogates.
            let second = bytes[i + 1]
            if (b == 0xE0 && second < 0xA0) || (b == 0xED && second >= 0xA0) || (b == 0xF0 && second < 0x90)
                || (b == 0xF4 && second >= 0x90)
            {
                return (SourceLocation(file: file, line: line, column: i - lineStart + 1), b)
            }
            i += length
        }
        return nil
    }

    private var location: SourceLocation { location(at: scanner.index) }

    /// The location of byte `offset` on the scanner's current line (strings, numbers and
    /// literals hold no line break).
    private func location(at offset: Int) -> SourceLocation {
        SourceLocation(file: file, line: scanner.line, column: offset - scanner.lineStart + 1)
    }

    private func error(_ message: String) -> SyntaxError {
        SyntaxError(message: message, location: location)
    }

    private func describeCurrent() -> String { describe(at: scanner.index) }

    private func describe(at offset: Int) -> String {
        guard offset < scanner.bytes.count else { return "end of file" }
        let b = scanner.bytes[offset]
        if b >= 0x20 && b < 0x7F { return "character '\(Character(Unicode.Scalar(b)))'" }
        return "byte 0x\(String(b, radix: 16, uppercase: true))"
    }

    /// A lexical failure in this parser's words, where it happened.
    private func error(_ failure: JSONScanner.Failure) -> SyntaxError {
        let found = describe(at: failure.offset)
        let message =
            switch failure.kind {
            case .unterminatedString: "unterminated string: expected '\"' before end of file"
            case .controlCharacterInString:
                "unterminated string: control character or line break inside a string"
            case .invalidEscape(let byte): "invalid escape '\\\(Character(Unicode.Scalar(byte)))' in string"
            case .invalidHexDigits: "expected four hex digits in \\u escape"
            case .unpairedSurrogate: "unpaired UTF-16 surrogate in \\u escape"
            case .invalidSurrogatePair: "invalid UTF-16 surrogate pair in \\u escape"
            case .invalidUTF8: "invalid UTF-8 in string"
            case .missingDigit(.integer): "expected a digit in the number, found \(found)"
            case .missingDigit(.fraction): "expected a digit after '.', found \(found)"
            case .missingDigit(.exponent): "expected a digit in the exponent, found \(found)"
            case .leadingZero: "a number must not start with a leading zero"
            case .invalidLiteral(let word): "expected '\(word)', found \(found)"
            }
        return SyntaxError(message: message, location: location(at: failure.offset))
    }

    private mutating func parseValue() throws(SyntaxError) -> JSONNode {
        guard let byte = scanner.current else { throw error("expected a JSON value, found end of file") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""), UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "-"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            let start = location
            do throws(JSONScanner.Failure) {
                return JSONNode(value: try scanScalar(byte), location: start)
            } catch {
                throw self.error(error)
            }
        default: throw error("expected a JSON value, found \(describeCurrent())")
        }
    }

    /// A string, literal or number, from its first byte.
    private mutating func scanScalar(_ first: UInt8) throws(JSONScanner.Failure) -> JSONNode.Value {
        switch first {
        case UInt8(ascii: "\""): return .string(try scanner.scanString())
        case UInt8(ascii: "t"):
            try scanner.scanLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try scanner.scanLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try scanner.scanLiteral("null")
            return .null
        default:
            return .number(String(decoding: try scanner.scanNumber().token, as: UTF8.self))
        }
    }

    private mutating func enter() throws(SyntaxError) {
        depth += 1
        if depth > JSONParser.maximumDepth {
            throw error("JSON nested deeper than \(JSONParser.maximumDepth) levels")
        }
    }

    /// A string key at the scanner, in this parser's words when it is not one.
    private mutating func key() throws(SyntaxError) -> String {
        do throws(JSONScanner.Failure) {
            return try scanner.scanString()
        } catch {
            throw self.error(error)
        }
    }

    private mutating func parseObject() throws(SyntaxError) -> JSONNode {
        let start = location
        try enter()
        scanner.index += 1  // {
        var members: [JSONNode.Member] = []
        var seen: [String: SourceLocation] = [:]
        scanner.skipWhitespace()
        if scanner.skip(UInt8(ascii: "}")) {
            depth -= 1
            return JSONNode(value: .object(members), location: start)
        }
        while true {
            scanner.skipWhitespace()
            guard scanner.current == UInt8(ascii: "\"") else {
                throw error("expected a string key in the object, found \(describeCurrent())")
            }
            let keyLocation = location
            let key = try key()
            if let first = seen[key] {
                throw SyntaxError(
                    message:
                        "duplicate key '\(DiagnosticText.value(key))' (first written at line \(first.line), column \(first.column))",
                    location: keyLocation)
            }
            seen[key] = keyLocation
            scanner.skipWhitespace()
            guard scanner.skip(UInt8(ascii: ":")) else {
                throw error(
                    "expected ':' after key '\(DiagnosticText.value(key))', found \(describeCurrent())")
            }
            scanner.skipWhitespace()
            let value = try parseValue()
            members.append(JSONNode.Member(key: key, keyLocation: keyLocation, value: value))
            scanner.skipWhitespace()
            guard !scanner.isAtEnd else {
                throw error("expected ',' or '}' in the object, found end of file")
            }
            if scanner.skip(UInt8(ascii: ",")) {
                scanner.skipWhitespace()
                if scanner.current == UInt8(ascii: "}") {
                    throw error("trailing ',' before '}' is not allowed in JSON")
                }
                continue
            }
            if scanner.skip(UInt8(ascii: "}")) {
                depth -= 1
                return JSONNode(value: .object(members), location: start)
            }
            throw error("expected ',' or '}' in the object, found \(describeCurrent())")
        }
    }

    private mutating func parseArray() throws(SyntaxError) -> JSONNode {
        let start = location
        try enter()
        scanner.index += 1  // [
        var elements: [JSONNode] = []
        scanner.skipWhitespace()
        if scanner.skip(UInt8(ascii: "]")) {
            depth -= 1
            return JSONNode(value: .array(elements), location: start)
        }
        while true {
            scanner.skipWhitespace()
            elements.append(try parseValue())
            scanner.skipWhitespace()
            guard !scanner.isAtEnd else {
                throw error("expected ',' or ']' in the array, found end of file")
            }
            if scanner.skip(UInt8(ascii: ",")) {
                scanner.skipWhitespace()
                if scanner.current == UInt8(ascii: "]") {
                    throw error("trailing ',' before ']' is not allowed in JSON")
                }
                continue
            }
            if scanner.skip(UInt8(ascii: "]")) {
                depth -= 1
                return JSONNode(value: .array(elements), location: start)
            }
            throw error("expected ',' or ']' in the array, found \(describeCurrent())")
        }
    }
}
