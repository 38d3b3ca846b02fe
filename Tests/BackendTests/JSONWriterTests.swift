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
