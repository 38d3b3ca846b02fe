import Foundation

/// The viewer's unsent new post, kept in the app's data directory (`drafts/<account>.json`), so it survives
/// leaving the composer, other tabs, a quit and a crash, until it is posted or discarded.
///
/// Writes happen off the caller's thread (the composer saves on every key, on the UI actor), on
/// one serial queue per store, in the order they were asked for; `load` waits for the writes
/// asked before it, so it always reads the latest draft.
///
/// Posting never leaves the draft behind, even after a crash: each draft has an id, the post is
/// journaled together with "draft <id> is used up" in one commit, and `load` forgets a draft
/// whose id `isConsumed` reports (the file is removed after the commit, but a kill between the
/// two cannot bring the posted text back).
///
/// ```swift
/// let drafts = DraftStore(dataDirectory: configuration.dataDirectory)
/// drafts.save(DraftStore.Saved(text: "Half a thought"))
/// drafts.load()?.text  // "Half a thought", in this launch or the next
/// ```
package final class DraftStore: Sendable {
    /// A kept draft: the text and the photo files picked, with their alt text.
    package struct Saved: Codable, Sendable, Equatable {
        /// Which draft this is: made when a draft starts, kept while it is edited, and recorded
        /// as used up when it is posted.
        package var id: String
        /// The text typed.
        package var text: String
        /// The photo files picked, in order.
        package var files: [PickedPhoto]

        /// Makes a draft.
        package init(id: String = Saved.newID(), text: String, files: [PickedPhoto] = []) {
            self.id = id
            self.text = text
            self.files = files
        }

        /// Reads a kept draft; one kept before photos came from files has none, and one kept
        /// before drafts had ids gets a new one.
        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decodeIfPresent(String.self, forKey: .id) ?? Saved.newID()
            text = try container.decode(String.self, forKey: .text)
            files = try container.decodeIfPresent([PickedPhoto].self, forKey: .files) ?? []
        }

        /// A new draft id (random, 128 bits).
        package static func newID() -> String { UUID().uuidString }

        /// Whether there is nothing to keep.
        package var isEmpty: Bool { text.isEmpty && files.isEmpty }
    }

    /// The file.
    package let path: String
    private let writes = DispatchQueue(label: "draft-store")
    private let isConsumed: @Sendable (String) -> Bool

    /// The store of `account`'s new post in `dataDirectory` (`drafts/<account>.json`): each
    /// account its own, so a draft typed as one account is never shown to, or posted as, another
    /// signed in on the same device. `isConsumed` tells whether a draft id was posted (the
    /// mutation journal's record).
    ///
    /// A draft kept before drafts were per account (`draft.json`) becomes the draft of the first
    /// account whose store is made (the account signed in when the app next starts).
    package convenience init(
        dataDirectory: String, account: String,
        isConsumed: @escaping @Sendable (String) -> Bool = { _ in false }
    ) {
        let folder = (dataDirectory as NSString).appendingPathComponent("drafts")
        self.init(
            path: (folder as NSString).appendingPathComponent(Self.fileName(account)),
            takingOver: (dataDirectory as NSString).appendingPathComponent("draft.json"),
            isConsumed: isConsumed)
    }

    /// The file name of an account's draft: `accountName(account)` and `.json`.
    package nonisolated static func fileName(_ account: String) -> String { accountName(account) + ".json" }

    /// An account's handle as a file or folder name (handles are `a-z`, `0-9` and `_`; any other
    /// byte is written `%XX`, so no handle can name a path elsewhere).
    package nonisolated static func accountName(_ account: String) -> String {
        var name = ""
        for byte in account.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "_"):
                name.append(Character(UnicodeScalar(byte)))
            default: name += String(format: "%%%02X", byte)
            }
        }
        return name
    }

    /// The store in the file at `path` (its folder must exist): a draft of another kind, such as
    /// the unsent message of one conversation.
    package init(path: String, isConsumed: @escaping @Sendable (String) -> Bool = { _ in false }) {
        self.path = path
        self.isConsumed = isConsumed
    }

    /// The store in the file at `path`, its folder made if missing, that first takes over the
    /// draft at `legacy` (where a draft kept before drafts were per account lies) when `path`
    /// holds none. Both happen on the store's own queue, before any load: never on the caller's
    /// thread (the UI actor, as an account signs in or a conversation opens).
    package convenience init(
        path: String, takingOver legacy: String,
        isConsumed: @escaping @Sendable (String) -> Bool = { _ in false }
    ) {
        self.init(path: path, isConsumed: isConsumed)
        writes.async {
            let files = FileManager.default
            try? files.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            if !files.fileExists(atPath: path), files.fileExists(atPath: legacy) {
                try? files.moveItem(atPath: legacy, toPath: path)
            }
        }
    }

    /// The kept draft, if there is a readable one not yet posted (after the writes asked for
    /// before this call). A posted one left behind by a crash is removed.
    package func load() -> Saved? {
        let path = path
        let isConsumed = isConsumed
        return writes.sync {
            guard let data = FileManager.default.contents(atPath: path),
                let saved = try? JSONDecoder().decode(Saved.self, from: data)
            else { return nil }
            guard !isConsumed(saved.id) else {
                try? FileManager.default.removeItem(atPath: path)
                return nil
            }
            return saved
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
