import Basics
import Testing

/// The lexing both JSON parsers share: what it reads, and where it says a problem is.
@Suite struct JSONScannerTests {
    /// Scans `text` with `body`, from its first byte.
    func scan<T>(_ text: String, _ body: (inout JSONScanner) throws(JSONScanner.Failure) -> T)
        -> Result<T, JSONScanner.Failure>
    {
        Array(text.utf8).withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(buffer)
            do throws(JSONScanner.Failure) {
                return .success(try body(&scanner))
            } catch {
                return .failure(error)
            }
        }
    }

    @Test(arguments: [
        (#""plain""#, "plain"), (#""tab\there""#, "tab\there"), (#""a\"b\\c\/d""#, "a\"b\\c/d"),
        (#""\u00e9t\u00E9""#, "été"), (#""\ud83d\ude00 grin""#, "😀 grin"), (#""""#, ""),
        ("\"caf\u{e9}\"", "café"),
    ])
    func aString_isReadWithItsEscapesResolved(text: String, read: String) throws {
        #expect(
            try scan(text) { scanner throws(JSONScanner.Failure) in try scanner.scanString() }.get() == read)
    }

    @Test(arguments: [
        (#""open"#, JSONScanner.Failure(.unterminatedString, at: 5)),
        ("\"line\nbreak\"", JSONScanner.Failure(.controlCharacterInString, at: 5)),
        (#""bad \q""#, JSONScanner.Failure(.invalidEscape(UInt8(ascii: "q")), at: 6)),
        (#""\u12G4""#, JSONScanner.Failure(.invalidHexDigits, at: 5)),
        (#""\ud83d alone""#, JSONScanner.Failure(.unpairedSurrogate, at: 7)),
        (#""\ude00""#, JSONScanner.Failure(.unpairedSurrogate, at: 7)),
        (#""\ud83d\u0041""#, JSONScanner.Failure(.invalidSurrogatePair, at: 13)),
    ])
    func aBrokenString_failsWhereTheProblemIs(text: String, failure: JSONScanner.Failure) {
        #expect(
            scan(text) { scanner throws(JSONScanner.Failure) in try scanner.scanString() }
                == .failure(failure))
    }

    @Test func aStringOfBytesThatAreNotUTF8_fails() {
        let bytes: [UInt8] = [0x22, 0x61, 0xFF, 0x22]
        let result = bytes.withUnsafeBufferPointer { buffer -> JSONScanner.Failure? in
            var scanner = JSONScanner(buffer)
            do throws(JSONScanner.Failure) {
                _ = try scanner.scanString()
                return nil
            } catch {
                return error
            }
        }
        #expect(result == JSONScanner.Failure(.invalidUTF8, at: 1))
    }

    @Test(arguments: [
        ("0", true), ("-12", true), ("3.25", false), ("1e9", false), ("-0.5E-3", false), ("7,", true),
    ])
    func aNumber_isReadByJSONsGrammar(text: String, plain: Bool) {
        let read = scan(text) { scanner throws(JSONScanner.Failure) in
            let number = try scanner.scanNumber()
            return (String(decoding: number.token, as: UTF8.self), number.isPlainInteger)
        }
        let expected = text.hasSuffix(",") ? String(text.dropLast()) : text
        #expect((try? read.get().0) == expected)
        #expect((try? read.get().1) == plain)
    }

    @Test(arguments: [
        ("-", JSONScanner.Failure(.missingDigit(part: .integer), at: 1)),
        ("01", JSONScanner.Failure(.leadingZero, at: 1)),
        ("1.", JSONScanner.Failure(.missingDigit(part: .fraction), at: 2)),
        ("2e+", JSONScanner.Failure(.missingDigit(part: .exponent), at: 3)),
    ])
    func aBrokenNumber_failsWhereTheDigitIsMissing(text: String, failure: JSONScanner.Failure) {
        #expect(
            scan(text) { scanner throws(JSONScanner.Failure) in _ = try scanner.scanNumber() }.map { _ in 0 }
                == .failure(failure))
    }

    @Test func whitespace_countsLines_andALiteralIsReadWhole() throws {
        let result = scan("  \n\t\r\n  true nul") { scanner throws(JSONScanner.Failure) in
            scanner.skipWhitespace()
            let position = (scanner.line, scanner.column)
            try scanner.scanLiteral("true")
            scanner.skipWhitespace()
            return position
        }
        #expect(try result.get() == (3, 3))
        #expect(
            scan("nul") { scanner throws(JSONScanner.Failure) in try scanner.scanLiteral("null") }.map { 0 }
                == .failure(JSONScanner.Failure(.invalidLiteral("null"), at: 3)))
    }
}
