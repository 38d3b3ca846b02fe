import Foundation

/// The viewer's unsent new post, kept in the app's data directory (`draft.json`), so it survives
/// leaving the composer, other tabs, a quit and a crash, until it is posted or discarded.
///
/// Writes happen off the caller's thread (the composer saves on every key, on the UI actor), on
/// one serial queue per store, in the order they were asked for; `load` waits for the writes
/// asked before it, so it always reads the latest draft.
///
/// ```swift
/// let drafts = DraftStore(dataDirectory: configuration.dataDirectory)
/// drafts.save(DraftStore.Saved(text: "Half a thought"))
/// drafts.load()?.text  // "Half a thought", in this launch or the next
/// ```
package final class DraftStore: Sendable {
    /// A kept draft: the text and the photo files picked, with their alt text.
    package struct Saved: Codable, Sendable, Equatable {
        /// The text typed.
        package var text: String
        /// The photo files picked, in order.
        package var files: [PickedPhoto]

        /// Makes a draft.
        package init(text: String, files: [PickedPhoto] = []) {
            self.text = text
            self.files = files
        }

        /// Reads a kept draft; one kept before photos came from files has none.
        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            text = try container.decode(String.self, forKey: .text)
            files = try container.decodeIfPresent([PickedPhoto].self, forKey: .files) ?? []
        }

        /// Whether there is nothing to keep.
        package var isEmpty: Bool { text.isEmpty && files.isEmpty }
    }

    /// The file.
    package let path: String
    private let writes = DispatchQueue(label: "draft-store")

    /// The store in `dataDirectory`.
    package init(dataDirectory: String) {
        path = (dataDirectory as NSString).appendingPathComponent("draft.json")
    }

    /// The kept draft, if there is a readable one (after the writes asked for before this call).
    package func load() -> Saved? {
        let path = path
        return writes.sync {
            guard let data = FileManager.default.contents(atPath: path) else { return nil }
            return try? JSONDecoder().decode(Saved.self, from: data)
        }
    }

    /// Keeps `draft` (atomically: a crash leaves the old one or the new one); an empty draft
    /// removes the file.
    package func save(_ draft: Saved) {
        guard !draft.isEmpty else { return remove() }
        let path = path
        writes.async {
            guard let data = try? JSONEncoder().encode(draft) else { return }
            try? data.write(to: URL(fileURLWithPath: path), options: .atomic)
        }
    }

    /// Returns once every write asked for so far is on disk (the app calls it as it stops).
    package func flush() {
        writes.sync {}
    }

    /// Forgets the draft.
    package func remove() {
        let path = path
        writes.async { try? FileManager.default.removeItem(atPath: path) }
    }
}
