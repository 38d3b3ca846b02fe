import Foundation
import MediaModel
import Testing

/// `JSONValue(parsing:)` reads JSON itself; Foundation's `JSONDecoder` (through `JSONValue`'s
/// `Decodable` conformance) is the reference it must agree with, value for value, on every text.
@Suite struct JSONValueParsingTests {
    /// Texts where the two could part: numbers typed as integers or not, JSONDecoder's leniencies
    /// (trailing commas, the first of duplicate keys), escapes, surrogates, whitespace, depth.
    static let edgeCases: [String] = [
        "1", "1.0", "1e2", "1E+2", "-0", "-0.0", "1.5", "0e5", "0.1e1", "100e-2", "2.5e1", "123.456e5",
        "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
        "1e-400", "1e400", "-1e400", "2e308", "1e19", "-1e18", "12345678901234567890123",
        "1.0000000000000001", "9007199254740993", "9007199254740993.0", "9007199254740993.5",
        "4.9e-324", "1.7976931348623157e308", "0.30000000000000004", "-1.5E-2", "1e-7",
        "01", "00", "-01", "1.", ".5", "+1", "-", "1e", "1e2.5", "NaN", "Infinity", "[-]", "[1e]",
        "\"a\\u00e9b\"", "\"\\ud83d\\ude00\"", "\"\\ud83d\"", "\"\\ude00x\"", "\"\\uD800\\u0041\"",
        "\"\\u00G0\"",
        "\"a\tb\"", "\"a\u{7f}b\"", "\"\\/\\b\\f\\n\\r\\t\\\"\\\\\"", "\"\\x\"", "\"\\u0000\"", "\"é€😀\"",
        "{\"a\":1,\"a\":2}", " [1 , 2 ] ", "[1,]", "{\"a\":1,}", "[\"a\",]", "[,]", "{,}", "[1,,2]", "[1 2]",
        "{\"a\":}", "{\"a\" 1}", "{1:2}", "{\"\":1}", "[1] x", "[1]\n", "[1]\u{0}", "\r\n\t[1]",
        "\u{0B}[1]", "\u{0C}[1]", "\u{feff}[1]", "true", "tru", "truex", "null", "nul", "false", "{}", "[]",
        "", "  ", "[true,false,null]", "{\"b\":1,\"a\":[{}],\"c\":{\"d\":[1.25,\"x\",null]}}",
        String(repeating: "[", count: 512) + String(repeating: "]", count: 512),
        String(repeating: "[", count: 513) + String(repeating: "]", count: 513),
        String(repeating: "{\"a\":", count: 512) + "1" + String(repeating: "}", count: 512),
        String(repeating: "{\"a\":", count: 513) + "1" + String(repeating: "}", count: 513),
    ]

    @Test(arguments: edgeCases)
    func anEdgeCase_parsesAsJSONDecoderParsesIt(text: String) {
        Self.expectAgreement(Data(text.utf8))
    }

    @Test func bytesThatAreNotUTF8_orNotUTF8Only_parseAsJSONDecoderParsesThem() {
        let cases: [[UInt8]] = [
            [0x22, 0xC3, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],
            [0x22, 0xC0, 0xAF, 0x22], [0xEF, 0xBB, 0xBF, 0x31], [0xFE, 0xFF, 0x00, 0x31], [0x31, 0x00],
            [0x22, 0xE2, 0x82, 0xAC, 0x22], [0x5B, 0x22, 0x61, 0xFF, 0x22, 0x5D],
        ]
        for bytes in cases { Self.expectAgreement(Data(bytes)) }
    }

    @Test func randomDocuments_andTheirDamagedCopies_parseAsJSONDecoderParsesThem() {
        var random = Xorshift(seed: 0x5EED_1234)
        var readHere = 0
        for _ in 0..<3000 {
            let text = Array(Self.document(depth: 0, &random).utf8)
            let data = Data(text)
            if JSONValue.parsedWithoutFoundation(data) != nil { readHere += 1 }
            Self.expectAgreement(data)
            // The same text with a byte removed, doubled or replaced by one that matters to JSON
            guard !text.isEmpty else { continue }
            var damaged = text
            let at = Int(random.next() % UInt64(damaged.count))
            let specials = Array("\"\\,:[]{}-+.eE0 \u{1}".utf8)
            switch random.next() % 3 {
            case 0: damaged.remove(at: at)
            case 1: damaged.insert(damaged[at], at: at)
            default: damaged[at] = specials[Int(random.next() % UInt64(specials.count))]
            }
            Self.expectAgreement(Data(damaged))
        }
        #expect(readHere >= 2900, "the parser left \(3000 - readHere) of 3000 valid documents to JSONDecoder")
    }

    @Test func aFeedPage_isReadWithoutJSONDecoder() throws {
        let page = WireFormat.encode(FeedPageEnvelope(Fixtures.page, facts: Fixtures.pageFacts))
        let parsed = try #require(JSONValue.parsedWithoutFoundation(page))
        #expect(parsed == (try JSONValue.parsingWithFoundation(page)))
    }

    @Test func textThatIsNotJSON_isRefusedWithJSONDecodersAccountOfIt() {
        #expect(throws: WireFormatError.self) { try JSONValue(parsing: Data("[1 2]".utf8)) }
        do {
            _ = try JSONValue(parsing: Data("{\"a\":}".utf8))
            Issue.record("no error")
        } catch {
            #expect(error.path == .root)
            #expect(error.problem.hasPrefix("not valid JSON ("))
        }
    }

    // MARK: The comparison

    /// Expects `JSONValue(parsing:)` and the parser alone to agree with `JSONDecoder`: the same
    /// value (doubles bit for bit) or, for text it refuses, an error from both.
    static func expectAgreement(_ data: Data, sourceLocation: SourceLocation = #_sourceLocation) {
        let reference = try? JSONValue.parsingWithFoundation(data)
        let own = JSONValue.parsedWithoutFoundation(data)
        let shown = String(decoding: data.prefix(80), as: UTF8.self).debugDescription
        if let own {
            #expect(
                reference != nil, "read \(shown), which JSONDecoder refuses", sourceLocation: sourceLocation)
            if let reference {
                #expect(
                    own.isIdentical(to: reference), "\(shown): \(own) here, \(reference) by JSONDecoder",
                    sourceLocation: sourceLocation)
            }
        }
        let combined = try? JSONValue(parsing: data)
        #expect(
            combined.map { reference?.isIdentical(to: $0) ?? false } ?? (reference == nil),
            "\(shown): JSONValue(parsing:) gave \(String(describing: combined)), JSONDecoder \(String(describing: reference))",
            sourceLocation: sourceLocation)
    }

    // MARK: Random documents

    static func document(depth: Int, _ random: inout Xorshift) -> String {
        let space = [" ", "", "", "\n", "\t", "\r\n "][Int(random.next() % 6)]
        let choice = depth > 4 ? random.next() % 5 : random.next() % 7
        switch choice {
        case 0: return space + number(&random) + space
        case 1: return space + string(&random)
        case 2: return ["true", "false", "null"][Int(random.next() % 3)]
        case 3, 4: return string(&random) + space
        case 5:
            let count = Int(random.next() % 5)
            var items = (0..<count).map { _ in document(depth: depth + 1, &random) }
            if count > 0 && random.next() % 8 == 0 { items.append("") }  // a trailing comma
            return "[" + items.joined(separator: ",") + space + "]"
        default:
            let count = Int(random.next() % 5)
            var fields = (0..<count).map { _ in
                // Few distinct keys, so duplicates happen
                string(&random, short: true) + space + ":" + document(depth: depth + 1, &random)
            }
            if count > 0 && random.next() % 8 == 0 { fields.append("") }
            return "{" + space + fields.joined(separator: ",") + "}"
        }
    }

    static func number(_ random: inout Xorshift) -> String {
        let sign = random.next() % 3 == 0 ? "-" : ""
        let integerDigits = Int(random.next() % 22) + 1
        var integer = String(random.next() % 9 + 1)
        for _ in 1..<integerDigits { integer += String(random.next() % 10) }
        if random.next() % 6 == 0 { integer = "0" }
        var text = sign + integer
        if random.next() % 3 == 0 {
            text += "." + (0..<Int(random.next() % 6 + 1)).map { _ in String(random.next() % 10) }.joined()
        }
        if random.next() % 4 == 0 {
            text +=
                ["e", "E"][Int(random.next() % 2)] + ["", "+", "-"][Int(random.next() % 3)]
                + String(random.next() % 330)
        }
        return text
    }

    static func string(_ random: inout Xorshift, short: Bool = false) -> String {
        if short { return "\"" + ["a", "b", "id", "é", ""][Int(random.next() % 5)] + "\"" }
        let pieces = [
            "a", "Hello", " ", "é", "€", "😀", "\\n", "\\\"", "\\\\", "\\/", "\\u00e9", "\\ud83d\\ude00",
            "\\u0000",
            "\\t", "日本", "e\u{301}", "\u{7f}",
        ]
        let count = Int(random.next() % 8)
        return "\"" + (0..<count).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            + "\""
    }
}

/// A small seeded generator, so a failure repeats.
struct Xorshift {
    private var state: UInt64

    init(seed: UInt64) { state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed }

    mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }
}

extension JSONValue {
    /// Equal, with doubles compared bit for bit (`0.0` and `-0.0` differ here).
    func isIdentical(to other: JSONValue) -> Bool {
        switch (self, other) {
        case (.double(let a), .double(let b)): return a.bitPattern == b.bitPattern
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.isIdentical(to: $1) }
        case (.object(let a), .object(let b)):
            return a.count == b.count && a.allSatisfy { key, value in b[key].map(value.isIdentical) ?? false }
        default: return self == other
        }
    }
}
