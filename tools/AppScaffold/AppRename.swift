/// Renames one app into another in text and paths: `Strand` → `Quill`, `strand` → `quill`,
/// `STRAND` → `QUILL`, wherever they occur (inside identifiers too: `StrandBranding`,
/// `"strand.tabs"`), and nothing else.
///
/// It works on bytes in one pass: the names are ASCII, which never occurs inside a UTF-8
/// multi-byte sequence, so any file's other bytes are kept as they are; and a replacement is never
/// read again, so a new name containing the old one (`Strand` → `Strandline`) is not renamed twice.
///
/// Complexity: O(n) for n bytes (three comparisons of the name's length at each byte).
struct AppRename: Sendable {
    /// Each spelling of the old name, with its replacement.
    private let pairs: [(from: [UInt8], to: [UInt8])]

    /// Renames `model` into `app`.
    init(from model: AppName, to app: AppName) {
        pairs = [
            (Array(model.name.utf8), Array(app.name.utf8)),
            (Array(model.lowercased.utf8), Array(app.lowercased.utf8)),
            (Array(model.uppercased.utf8), Array(app.uppercased.utf8)),
        ]
    }

    /// `bytes` with every spelling of the old name replaced.
    func apply(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        scanning: while index < bytes.count {
            for (from, to) in pairs
            where !from.isEmpty && index + from.count <= bytes.count
                && bytes[index..<index + from.count].elementsEqual(from)
            {
                result += to
                index += from.count
                continue scanning
            }
            result.append(bytes[index])
            index += 1
        }
        return result
    }

    /// `text` with every spelling of the old name replaced.
    func apply(_ text: String) -> String {
        String(decoding: apply(Array(text.utf8)), as: UTF8.self)
    }
}
