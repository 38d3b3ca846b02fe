import Foundation
import MediaModel
import Testing

@testable import Backend

/// The backend's response writer escapes strings exactly as `JSONValue.serialized()` does, so a
/// key or value with quotes, backslashes or control characters reads back unchanged.
@Suite struct JSONWriterTests {
    static let texts = [
        "", "plain", "quote\" and back\\slash", "line\nbreak\r\ttab", "bell\u{07} soh\u{01} us\u{1F}",
        "ünï 🧵 end", "\"", "\\\\", "run\u{01}", "\u{01}run",
    ]

    @Test(arguments: texts)
    func aString_isEscapedLikeJSONValue(text: String) throws {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key(text)
        writer.string(text)
        writer.endObject()
        let expected = JSONValue.object([text: .string(text)]).serialized()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        let decoded = try JSONSerialization.jsonObject(with: Data(writer.bytes)) as? [String: String]
        #expect(decoded == [text: text])
    }
}

/// The writer's fast paths (digits without a string, keys known in advance, ids, the buffer
/// handed to `Data`) write what the general paths write.
@Suite struct JSONWriterFastPathTests {
    static let numbers: [Int64] = [0, 1, 9, 10, 99, 100, -1, -9, -10, 1_234_567_890, .max, .min, .min + 1]

    @Test(arguments: numbers)
    func anInteger_isWrittenAsStringWouldWriteIt(number: Int64) {
        var writer = JSONWriter()
        writer.int(number)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == String(number))
    }

    @Test func literalKeysAndIds_writeWhatTheStringPathsWrite() {
        // Given one object written through the string paths and one through the fast paths
        var general = JSONWriter()
        general.beginObject()
        general.field("likeCount", 3)
        general.key("m12")
        general.string("p-4")
        general.field("viewerLiked", true)
        general.endObject()
        var fast = JSONWriter()
        fast.beginObject()
        fast.field(literal: "likeCount", 3)
        fast.key(UInt8(ascii: "m"), 12)
        fast.string(UInt8(ascii: "p"), -4)
        fast.field(literal: "viewerLiked", true)
        fast.endObject()

        // Then the bytes are the same, and Data holds them unchanged
        #expect(
            String(decoding: fast.bytes, as: UTF8.self) == #"{"likeCount":3,"m12":"p-4","viewerLiked":true}"#)
        #expect(fast.bytes == general.bytes)
        let bytes = fast.bytes
        #expect(fast.data() == Data(bytes))
        #expect(JSONWriter().data().isEmpty)
    }
}
