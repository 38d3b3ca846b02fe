/// A strict JSON parser (RFC 8259) that records the line and column of every value and key,
/// rejects duplicate keys, and reports the first syntax error with its position.
///
/// Complexity: O(n) in the size of the input.
struct JSONParser {
    struct SyntaxError: Error, Sendable {
        var message: String
        var location: SourceLocation
    }

    private let bytes: [UInt8]
    private let file: String
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private var depth = 0
    private static let maximumDepth = 256

    init(bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.file = file
    }

    /// Parses one JSON value spanning the whole input.
    static func parse(_ bytes: [UInt8], file: String) throws(SyntaxError) -> JSONNode {
        var parser = JSONParser(bytes: bytes, file: file)
        parser.skipWhitespace()
        let node = try parser.parseValue()
        parser.skipWhitespace()
        if parser.index < bytes.count {
            throw parser.error("unexpected \(parser.describeCurrent()) after the end of the JSON value")
        }
        return node
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

    private var location: SourceLocation {
        SourceLocation(file: file, line: line, column: index - lineStart + 1)
    }

    private func error(_ message: String) -> SyntaxError {
        SyntaxError(message: message, location: location)
    }

    private func describeCurrent() -> String {
        guard index < bytes.count else { return "end of file" }
        let b = bytes[index]
        if b >= 0x20 && b < 0x7F { return "character '\(Character(Unicode.Scalar(b)))'" }
        return "byte 0x\(String(b, radix: 16, uppercase: true))"
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D:
                index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
            default:
                return
            }
        }
    }

    private mutating func parseValue() throws(SyntaxError) -> JSONNode {
        guard index < bytes.count else { throw error("expected a JSON value, found end of file") }
        let start = location
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return JSONNode(value: .string(try parseString()), location: start)
        case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try parseLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("expected a JSON value, found \(describeCurrent())")
        }
    }

    private mutating func enter() throws(SyntaxError) {
        depth += 1
        if depth > JSONParser.maximumDepth {
            throw error("JSON nested deeper than \(JSONParser.maximumDepth) levels")
        }
    }

    private mutating func parseObject() throws(SyntaxError) -> JSONNode {
        let start = location
        try enter()
        index += 1  // {
        var members: [JSONNode.Member] = []
        var seen: [String: SourceLocation] = [:]
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return JSONNode(value: .object(members), location: start)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("expected a string key in the object, found \(describeCurrent())")
            }
            let keyLocation = location
            let key = try parseString()
            if let first = seen[key] {
                throw SyntaxError(
                    message:
                        "duplicate key '\(DiagnosticText.value(key))' (first written at line \(first.line), column \(first.column))",
                    location: keyLocation)
            }
            seen[key] = keyLocation
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error(
                    "expected ':' after key '\(DiagnosticText.value(key))', found \(describeCurrent())")
            }
            index += 1
            skipWhitespace()
            let value = try parseValue()
            members.append(JSONNode.Member(key: key, keyLocation: keyLocation, value: value))
            skipWhitespace()
            guard index < bytes.count else {
                throw error("expected ',' or '}' in the object, found end of file")
            }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                    throw error("trailing ',' before '}' is not allowed in JSON")
                }
                continue
            }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                depth -= 1
                return JSONNode(value: .object(members), location: start)
            }
            throw error("expected ',' or '}' in the object, found \(describeCurrent())")
        }
    }

    private mutating func parseArray() throws(SyntaxError) -> JSONNode {
        let start = location
        try enter()
        index += 1  // [
        var elements: [JSONNode] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return JSONNode(value: .array(elements), location: start)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else {
                throw error("expected ',' or ']' in the array, found end of file")
            }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                    throw error("trailing ',' before ']' is not allowed in JSON")
                }
                continue
            }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                depth -= 1
                return JSONNode(value: .array(elements), location: start)
            }
            throw error("expected ',' or ']' in the array, found \(describeCurrent())")
        }
    }

    private mutating func parseLiteral(_ word: String, _ value: JSONNode.Value) throws(SyntaxError)
        -> JSONNode
    {
        let start = location
        for expected in word.utf8 {
            guard index < bytes.count, bytes[index] == expected else {
                throw SyntaxError(
                    message: "expected '\(word)', found \(describeCurrent())", location: location)
            }
            index += 1
        }
        return JSONNode(value: value, location: start)
    }

    private mutating func parseNumber() throws(SyntaxError) -> JSONNode {
        let start = location
        let begin = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else {
            throw error("expected a digit in the number, found \(describeCurrent())")
        }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) {
                throw error("a number must not start with a leading zero")
            }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw error("expected a digit after '.', found \(describeCurrent())")
            }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw error("expected a digit in the exponent, found \(describeCurrent())")
            }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let text = String(decoding: bytes[begin..<index], as: UTF8.self)
        return JSONNode(value: .number(text), location: start)
    }

    private func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    private mutating func parseString() throws(SyntaxError) -> String {
        index += 1  // opening quote
        var runStart = index
        var result = ""
        func flush(_ end: Int) {
            if end > runStart { result += String(decoding: bytes[runStart..<end], as: UTF8.self) }
        }
        while true {
            guard index < bytes.count else {
                throw error("unterminated string: expected '\"' before end of file")
            }
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                flush(index)
                index += 1
                return result
            }
            if b == 0x0A || b < 0x20 {
                throw error("unterminated string: control character or line break inside a string")
            }
            if b != UInt8(ascii: "\\") {
                index += 1
                continue
            }
            flush(index)
            index += 1
            guard index < bytes.count else {
                throw error("unterminated string: expected '\"' before end of file")
            }
            let escaped = bytes[index]
            switch escaped {
            case UInt8(ascii: "\""): result += "\""
            case UInt8(ascii: "\\"): result += "\\"
            case UInt8(ascii: "/"): result += "/"
            case UInt8(ascii: "b"): result += "\u{08}"
            case UInt8(ascii: "f"): result += "\u{0C}"
            case UInt8(ascii: "n"): result += "\n"
            case UInt8(ascii: "r"): result += "\r"
            case UInt8(ascii: "t"): result += "\t"
            case UInt8(ascii: "u"):
                index += 1
                var code = try parseHex4()
                if (0xD800...0xDBFF).contains(code) {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                        bytes[index + 1] == UInt8(ascii: "u")
                    else { throw error("unpaired UTF-16 surrogate in \\u escape") }
                    index += 2
                    let low = try parseHex4()
                    guard (0xDC00...0xDFFF).contains(low) else {
                        throw error("invalid UTF-16 surrogate pair in \\u escape")
                    }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(code) {
                    throw error("unpaired UTF-16 surrogate in \\u escape")
                }
                guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape") }
                result.unicodeScalars.append(scalar)
                runStart = index
                continue
            default:
                throw error("invalid escape '\\\(Character(Unicode.Scalar(escaped)))' in string")
            }
            index += 1
            runStart = index
        }
    }

    private mutating func parseHex4() throws(SyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let digit = hexValue(bytes[index]) else {
                throw error("expected four hex digits in \\u escape")
            }
            value = value * 16 + digit
            index += 1
        }
        return value
    }

    private func hexValue(_ b: UInt8) -> UInt32? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(b - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(b - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(b - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
