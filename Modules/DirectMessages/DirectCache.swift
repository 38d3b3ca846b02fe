import Foundation
import MediaModel
import ServerAPI

/// What the inbox and each conversation last read, kept in the app's data directory, so they
/// show at once on the next launch, offline too: the inbox's page in
/// `<data-dir>/direct/<handle>/inbox.json`, the newest messages of each conversation opened in
/// `…/conversation-<id>.json` (one folder per account, so another account signed in on the same
/// directory never sees them). The files are the server's JSON; a file that cannot be read is
/// as good as none.
///
/// Writes happen off the caller's thread, in order, atomically (a crash leaves the old file or
/// the new one); a read waits for the writes asked before it.
///
/// ```swift
/// let cache = DirectCache(dataDirectory: directory, handle: "grace")
/// cache.save(conversations: list.conversations)
/// cache.conversations()   // the same list, in this launch or the next
/// ```
package final class DirectCache: Sendable {
    /// The folder of the account's files.
    package let directory: String
    private let writes = DispatchQueue(label: "direct-cache")

    /// The most messages kept per conversation: a screenful and more.
    package static let keptMessages = 100

    /// The cache of account `handle` in `dataDirectory`.
    package init(dataDirectory: String, handle: String) {
        directory = ((dataDirectory as NSString).appendingPathComponent("direct") as NSString)
            .appendingPathComponent(Self.safe(handle))
    }

    /// The conversations last read, newest first; nil when no inbox was kept (this account never
    /// read it on this device), and empty when the inbox read was empty.
    package func conversations() -> [Conversation]? {
        read(ConversationList.self, "inbox.json")?.conversations
    }

    /// Keeps `conversations` as the inbox's last read.
    package func save(conversations: [Conversation]) {
        write(ConversationList(conversations: conversations).json, "inbox.json")
    }

    /// The newest messages of `conversation` last read, if kept.
    package func messages(in conversation: ConversationID) -> MessagePage? {
        read(MessagePage.self, Self.fileName(conversation))
    }

    /// Keeps the newest ``keptMessages`` of `page` (older ones are read from the server again).
    package func save(messages page: MessagePage) {
        var kept = page
        if kept.messages.count > Self.keptMessages {
            kept.messages.removeFirst(kept.messages.count - Self.keptMessages)
            kept.olderCursor = page.olderCursor ?? kept.olderCursor
        }
        write(kept.json, Self.fileName(page.conversation.id))
    }

    /// Returns once every write asked for so far is on disk.
    package func flush() {
        writes.sync {}
    }

    private func read<T: WireCodable>(_ type: T.Type, _ name: String) -> T? {
        let path = (directory as NSString).appendingPathComponent(name)
        return writes.sync {
            guard let data = FileManager.default.contents(atPath: path),
                let json = try? JSONValue(parsing: data)
            else { return nil }
            return try? T(json: json, at: .root)
        }
    }

    private func write(_ json: JSONValue, _ name: String) {
        let directory = directory
        writes.async {
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let path = (directory as NSString).appendingPathComponent(name)
            let bytes = json.serialized()
            // What the file holds already is not written again: each launch reads the same
            // inbox back, and an atomic write costs a sync and a rename.
            if FileManager.default.contents(atPath: path) == bytes { return }
            try? bytes.write(to: URL(fileURLWithPath: path), options: .atomic)
        }
    }

    /// The file of a conversation's messages.
    nonisolated static func fileName(_ id: ConversationID) -> String {
        "conversation-" + safe(id.rawValue) + ".json"
    }

    /// `text` with anything but ASCII letters, digits, `-` and `_` left out: an id or a handle
    /// is the server's word, never a path.
    nonisolated static func safe(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.filter {
                    ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                        || $0 == "-" || $0 == "_"
                }))
    }
}
