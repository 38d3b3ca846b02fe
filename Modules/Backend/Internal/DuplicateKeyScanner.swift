import Foundation

/// Finds an object key that appears twice in one JSON object of a body (`{"text": "a",
/// "text": "b"}`), which JSON parsers read in different ways (the first wins, or the last): a
/// body whose meaning depends on the reader is refused instead.
///
/// Runs over text already parsed as valid JSON, so it only tracks nesting and strings. Keys are
/// compared as decoded text: `"text"` and `"t\u0065xt"` are the same key.
///
/// Complexity: O(n) in the body's length.
enum DuplicateKeyScanner {
    private enum Frame {
        case object(keys: Set<String>, expectingKey: Bool)
        case array
    }

    /// Why `json` is not JSON in UTF-8, the only encoding the backend reads (RFC 8259 §8.1), or
    /// nil when it is: a body in UTF-16 or UTF-32 holds NUL bytes, which no UTF-8 JSON text
    /// holds (a NUL in a string is written `\u0000`). Checked before anything else reads the
    /// body, so the duplicate-key scan (which reads UTF-8) sees the body every parser would.
    static func encodingProblem(in json: Data) -> String? {
        guard json.contains(0) || String(validating: json, as: UTF8.self) == nil else { return nil }
        return "not UTF-8 (it holds NUL bytes or bytes that are not UTF-8); send JSON as UTF-8"
    }

    /// The first key seen twice in one object, or nil when every object's keys are distinct.
    static func firstDuplicate(in json: Data) -> String? {
        let bytes = [UInt8](json)
        var stack: [Frame] = []
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "{"):
                stack.append(.object(keys: [], expectingKey: true))
            case UInt8(ascii: "["):
                stack.append(.array)
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = stack.popLast()
            case UInt8(ascii: ","):
                if case .object(let keys, _) = stack.last {
                    stack[stack.count - 1] = .object(keys: keys, expectingKey: true)
                }
            case UInt8(ascii: "\""):
                let start = index
                index += 1
                while index < bytes.count && bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                if case .object(var keys, true) = stack.last {
                    let key = decodedString(bytes[start...min(index, bytes.count - 1)])
                    if !keys.insert(key).inserted { return key }
                    stack[stack.count - 1] = .object(keys: keys, expectingKey: false)
                }
            default:
                break
            }
            index += 1
        }
        return nil
    }

    /// A JSON string literal (quotes included) as text; escapes decoded when there are any.
    private static func decodedString(_ literal: ArraySlice<UInt8>) -> String {
        let inner = literal.dropFirst().dropLast()
        guard inner.contains(UInt8(ascii: "\\")) else { return String(decoding: inner, as: UTF8.self) }
        return (try? JSONDecoder().decode(String.self, from: Data(literal)))
            ?? String(decoding: inner, as: UTF8.self)
    }
}
