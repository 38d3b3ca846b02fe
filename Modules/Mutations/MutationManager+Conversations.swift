import MediaModel
import ServerAPI
import Synchronization

extension MutationManager {
    /// A conversation as the screen shows it: the page's messages in the server's order, the
    /// messages this device sent that the server confirmed but the page does not hold yet (placed
    /// by their server id), then the pending and failed ones at the bottom in the order typed,
    /// marked "sending…" or with the reason they failed.
    ///
    /// A message of this device the page holds (matched by its client token, which the server
    /// tells its sender) is shown once, as the server's, under the same row id it had while
    /// pending; confirmed ones the page holds leave the layer.
    ///
    /// ```swift
    /// let page = try await client.messages(in: id).payload
    /// let shown = manager.mergedConversation(id, page: page)   // rows: shown.messages
    /// ```
    ///
    /// - Parameters:
    ///   - id: the conversation.
    ///   - page: the server's messages, oldest first (the newest page, or the pages a screen has
    ///     read joined oldest first); nil before any was read (offline, say): only this device's
    ///     messages then.
    /// - Complexity: O(n + m log m) for n messages in the page and m sent from this device.
    public func mergedConversation(_ id: ConversationID, page: MessagePage?) -> MergedConversation {
        let layer = state.withLock { $0.layer }
        var retired: [MutationToken] = []
        let merged = Self.conversation(id, page: page, layer: layer, retired: &retired)
        if !retired.isEmpty { retire(retired) }
        return merged
    }

    /// `mergedConversation(_:page:)` for the conversation of `page`.
    public func mergedConversation(_ page: MessagePage) -> MergedConversation {
        mergedConversation(page.conversation.id, page: page)
    }

    // MARK: - Merging, pure

    static func conversation(
        _ id: ConversationID, page: MessagePage?, layer: OptimisticLayer, retired: inout [MutationToken]
    ) -> MergedConversation {
        let server = page?.messages ?? []
        let mine = layer.conversations[id] ?? []
        var rows = server.map { MergedMessage(message: $0, status: .server) }
        if !mine.isEmpty {
            var shown: Set<MutationToken> = []
            let serverIDs = Set(server.map(\.id))
            for message in server {
                guard let raw = message.clientToken else { continue }
                let token = MutationToken(raw)
                guard let sent = layer.messages[token] else { continue }
                shown.insert(token)
                if case .server = sent.status { retired.append(token) }
            }
            var confirmed: [MergedMessage] = []
            var waiting: [MergedMessage] = []
            for token in mine where !shown.contains(token) {
                guard let sent = layer.messages[token] else { continue }
                let row = MergedMessage(message: sent.message, status: sent.status)
                if case .server = sent.status {
                    // A page that lost the token still holds the message by its id.
                    if serverIDs.contains(sent.message.id) {
                        retired.append(token)
                    } else {
                        confirmed.append(row)
                    }
                } else {
                    waiting.append(row)
                }
            }
            if !confirmed.isEmpty {
                rows = merge(rows, confirmed.sorted { serverOrder($0.message.id, $1.message.id) })
            }
            rows += waiting
        }
        return MergedConversation(
            id: id, conversation: page?.conversation, messages: rows, olderCursor: page?.olderCursor,
            newerCursor: page?.newerCursor)
    }

    /// Whether message `a` comes before `b` in the server's order: by the number of their ids
    /// (`dm9` before `dm10`), by their text when one is not a server id.
    static func serverOrder(_ a: MessageID, _ b: MessageID) -> Bool {
        switch (Int64(a.rawValue.dropFirst(2)), Int64(b.rawValue.dropFirst(2))) {
        case (let x?, let y?): x < y
        default: a.rawValue < b.rawValue
        }
    }

    /// Two lists in the server's order made one.
    private static func merge(_ a: [MergedMessage], _ b: [MergedMessage]) -> [MergedMessage] {
        var output: [MergedMessage] = []
        output.reserveCapacity(a.count + b.count)
        var i = 0
        var j = 0
        while i < a.count, j < b.count {
            if serverOrder(b[j].message.id, a[i].message.id) {
                output.append(b[j])
                j += 1
            } else {
                output.append(a[i])
                i += 1
            }
        }
        output += a[i...]
        output += b[j...]
        return output
    }
}
