/// The lexical half of reading JSON text in UTF-8, written once: whitespace (counting lines),
/// strings (escapes resolved, surrogates paired, UTF-8 checked), numbers by JSON's grammar, and the
/// literals `true`, `false` and `null`. A parser built on it keeps only its own policy: what it
/// builds, how deep it goes, what it says of an error.
///
/// Two parsers use it: Composition's manifest reader (strict, with line and column in every
/// message) and MediaModel's `JSONValue(parsing:)` (fast, reading as `JSONDecoder` reads).
///
/// ```swift
/// try bytes.withUnsafeBufferPointer { buffer throws(JSONScanner.Failure) in
///     var scanner = JSONScanner(buffer)
///     scanner.skipWhitespace()
///     let name = try scanner.scanString()   // at the opening quote
/// }
/// ```
///
/// The scanner reads a buffer it does not own: use it inside the buffer's `withUnsafe…` scope.
@frozen
public struct JSONScanner {
    /// What went wrong, where (the byte offset of the problem).
    @frozen
    public struct Failure: Error, Equatable, Sendable {
        /// The kinds of lexical error.
        public enum Kind: Equatable, Sendable {
            /// The text ended inside a string.
            case unterminatedString
            /// A control character or a line break inside a string.
            case controlCharacterInString
            /// A backslash followed by this byte, which is no escape.
            case invalidEscape(UInt8)
            /// `\u` not followed by four hex digits.
            case invalidHexDigits
            /// A high surrogate without its low one, or a low one alone.
            case unpairedSurrogate
            /// A high surrogate followed by an escape that is not a low one.
            case invalidSurrogatePair
            /// A string's bytes are not UTF-8.
            case invalidUTF8
            /// A number without its digits (after `-`, `.`, or in the exponent: `part`).
            case missingDigit(part: NumberPart)
            /// A number starting with `0` followed by more digits.
            case leadingZero
            /// Not the literal that began with its first letter.
            case invalidLiteral(String)
        }

        /// Where in a number a digit was missing.
        public enum NumberPart: Equatable, Sendable {
            /// The integer part.
            case integer
            /// After the `.`.
            case fraction
            /// The exponent.
            case exponent
        }

        /// What went wrong.
        public let kind: Kind
        /// The byte offset of the problem.
        public let offset: Int

        /// Makes a failure.
        @inlinable
        public init(_ kind: Kind, at offset: Int) {
            self.kind = kind
            self.offset = offset
        }
    }

    /// A number's text, and whether it is a plain integer (no fraction, no exponent).
    @frozen
    public struct Number {
        /// The number's bytes, sign included.
        public let token: UnsafeBufferPointer<UInt8>
        /// Whether the number has neither a fraction nor an exponent.
        public let isPlainInteger: Bool
        /// Whether the number starts with `-`.
        public let isNegative: Bool

        /// Makes a number.
        @inlinable
        public init(token: UnsafeBufferPointer<UInt8>, isPlainInteger: Bool, isNegative: Bool) {
            self.token = token
            self.isPlainInteger = isPlainInteger
            self.isNegative = isNegative
        }
    }

    /// The text.
    public let bytes: UnsafeBufferPointer<UInt8>
    /// The offset of the next byte to read.
    public var index: Int
    /// The line the next byte is on, from 1 (only whitespace holds line breaks in JSON).
    public var line = 1
    /// The offset where the current line begins.
    public var lineStart = 0

    /// A scanner at the start of `bytes`.
    @inlinable
    public init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        index = 0
    }

    /// Whether every byte was read.
    @inlinable
    public var isAtEnd: Bool { index >= bytes.count }

    /// The next byte, or nil at the end.
    @inlinable
    public var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    /// The column of the next byte, from 1 (in bytes).
    @inlinable
    public var column: Int { index - lineStart + 1 }

    /// Skips spaces, tabs, carriage returns and line feeds, counting lines.
    @inlinable
    public mutating func skipWhitespace() {
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

    /// Skips `byte` when it is next; says whether it was.
    @inlinable
    public mutating func skip(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// Reads `word` (`true`, `false`, `null`) from its first letter.
    @inlinable
    public mutating func scanLiteral(_ word: StaticString) throws(Failure) {
        let count = word.utf8CodeUnitCount
        for offset in 0..<count {
            guard index < bytes.count, bytes[index] == word.utf8Start[offset] else {
                throw Failure(.invalidLiteral(word.description), at: index)
            }
            index += 1
        }
    }

    /// Reads a string from its opening quote (which must be next): escapes resolved, surrogate
    /// pairs joined, the bytes checked as UTF-8.
    @inlinable
    public mutating func scanString() throws(Failure) -> String {
        index += 1
        let start = index
        // The common case: no escapes, read straight from the bytes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                guard
                    let text = String(
                        validating: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                else { throw Failure(.invalidUTF8, at: start) }
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw Failure(.controlCharacterInString, at: index) }
            index += 1
        }
        return try scanEscapedString(from: start)
    }

    /// The rest of `scanString()` from the first backslash.
    @usableFromInline
    mutating func scanEscapedString(from start: Int) throws(Failure) -> String {
        var utf8 = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let text = String(validating: utf8, as: UTF8.self) else {
                    throw Failure(.invalidUTF8, at: start)
                }
                return text
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw Failure(.unterminatedString, at: index) }
                let escaped = bytes[index]
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escaped)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    index += 1
                    utf8.append(contentsOf: UTF8.encode(try scanUnicodeEscape())!)
                    continue
                default: throw Failure(.invalidEscape(escaped), at: index)
                }
                index += 1
            default:
                if byte < 0x20 { throw Failure(.controlCharacterInString, at: index) }
                utf8.append(byte)
                index += 1
            }
        }
        throw Failure(.unterminatedString, at: index)
    }

    /// Reads the four hex digits after `\u`, and a second escape when they are a high surrogate.
    @usableFromInline
    mutating func scanUnicodeEscape() throws(Failure) -> Unicode.Scalar {
        let unit = try hexQuad()
        switch unit {
        case 0xD800...0xDBFF:
            guard bytes.count - index >= 2, bytes[index] == UInt8(ascii: "\\"),
                bytes[index + 1] == UInt8(ascii: "u")
            else { throw Failure(.unpairedSurrogate, at: index) }
            index += 2
            let low = try hexQuad()
            guard (0xDC00...0xDFFF).contains(low),
                let scalar = Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
            else { throw Failure(.invalidSurrogatePair, at: index) }
            return scalar
        case 0xDC00...0xDFFF:
            throw Failure(.unpairedSurrogate, at: index)
        default:
            // Every value below 0xD800 or above 0xDFFF (up to 0xFFFF) is a scalar.
            return Unicode.Scalar(unit)!
        }
    }

    @usableFromInline
    mutating func hexQuad() throws(Failure) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count else { throw Failure(.invalidHexDigits, at: index) }
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw Failure(.invalidHexDigits, at: index)
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// Reads a number by JSON's grammar from its first character (`-` or a digit).
    @inlinable
    public mutating func scanNumber() throws(Failure) -> Number {
        let start = index
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard index < bytes.count, Self.isDigit(bytes[index]) else {
            throw Failure(.missingDigit(part: .integer), at: index)
        }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, Self.isDigit(bytes[index]) { throw Failure(.leadingZero, at: index) }
        } else {
            skipDigits()
        }
        var plainInteger = true
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, Self.isDigit(bytes[index]) else {
                throw Failure(.missingDigit(part: .fraction), at: index)
            }
            skipDigits()
            plainInteger = false
        }
        if index < bytes.count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
            index += 1
            if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-"))
            {
                index += 1
            }
            guard index < bytes.count, Self.isDigit(bytes[index]) else {
                throw Failure(.missingDigit(part: .exponent), at: index)
            }
            skipDigits()
            plainInteger = false
        }
        return Number(
            token: UnsafeBufferPointer(rebasing: bytes[start..<index]), isPlainInteger: plainInteger,
            isNegative: negative)
    }

    @inlinable
    mutating func skipDigits() {
        while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
    }

    @inlinable
    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
