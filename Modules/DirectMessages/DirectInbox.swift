import Composition
import Features
import Foundation
import MediaModel
import ServerAPI
import Sockets
import Wire

/// The viewer's conversations, newest message first, with the unread count the inbox's tab
/// carries: one per running app that fills the `direct` socket, kept on its `AppContext`, so
/// the badge is right before the inbox is ever opened.
///
/// It reads the first page of conversations when the app starts, when a message arrives on the
/// event stream, when the network comes back, and when a screen asks (the inbox appearing, a
/// conversation marked read).
///
/// ```swift
/// let inbox = DirectInbox.attach(to: context)   // nil when the app has no `direct` provider
/// inbox?.reload()
/// context.tabBadges[.direct]                    // "●3" once loaded, while 3 are unread
/// ```
@MainActor
package final class DirectInbox {
    /// Everything screens share.
    package let context: AppContext
    /// How the app shows direct messages (its `direct` provider).
    package let direct: any Direct
    /// The conversations, the one with the newest message first.
    package private(set) var conversations: [Conversation] = []
    /// Whether a page of conversations was read since the app started.
    package private(set) var loaded = false
    /// Whether the list shown is known: read from the server since the app started, or kept by
    /// the account's last read on this device (an inbox kept empty is known to be empty).
    package private(set) var known = false
    /// Whether a read is out.
    package private(set) var loading = false
    /// Why the last read failed, while it stands.
    package private(set) var problem: String?
    /// Called after every change of the list (the inbox screen draws again).
    private var observers: [ObjectIdentifier: @MainActor () -> Void] = [:]
    /// Whether another read was asked for while one was out.
    private var readAgain = false
    /// The signed-in account's cache, made for the account it belongs to.
    private var kept: (handle: String, cache: DirectCache)?

    /// What the signed-in account's inbox and conversations last read (nil before a sign-in, or
    /// without a data directory). When another account signed in since the last call, its
    /// cache is opened and its list shows until the server answers.
    package func cache() -> DirectCache? {
        guard let directory = context.dataDirectory, let handle = context.client.credentials?.handle else {
            return nil
        }
        if let kept, kept.handle == handle { return kept.cache }
        let cache = DirectCache(dataDirectory: directory, handle: handle)
        kept = (handle, cache)
        // Another account's list is not this one's: what it last read shows until the server answers.
        let keptList = cache.conversations()
        conversations = keptList ?? []
        loaded = false
        known = keptList != nil
        return cache
    }

    /// The most conversations the inbox reads (one page).
    package static let pageSize = 50

    private init(context: AppContext, direct: any Direct) {
        self.context = context
        self.direct = direct
    }

    /// The inbox of the app `context` runs, made the first time and kept on the context; nil
    /// when the app leaves the `direct` socket empty (it has no messages).
    package static func attach(to context: AppContext) -> DirectInbox? {
        if let kept = context.model(DirectInbox.self) { return kept }
        guard let direct = context.registry[.direct] else { return nil }
        let inbox = DirectInbox(context: context, direct: direct)
        context.keep(inbox)
        context.observeEvents(inbox) { [weak inbox] event in
            if case .message = event.kind { inbox?.reload() }
        }
        context.networkChangeHandlers.append { [weak inbox] in
            if inbox?.loaded == true { inbox?.reload() }
        }
        context.openConversation = { [weak inbox] id in inbox?.open(id) }
        context.sharePost = { [weak inbox, weak context] post in
            guard let inbox, let context else { return }
            let size = context.navigator?.contentSize ?? (width: 80, height: 20)
            context.navigator?.push(
                InboxScreen(inbox: inbox, sharing: post, width: size.width, height: size.height))
        }
        return inbox
    }

    /// Shows conversation `id` on the current tab: at once when the list has it, else once the
    /// server says what it is (a message's Activity row may name one the list has not read).
    package func open(_ id: ConversationID) {
        let size = context.navigator?.contentSize ?? (width: 80, height: 20)
        if let known = conversations.first(where: { $0.id == id }) {
            context.navigator?.push(
                ConversationScreen(inbox: self, conversation: known, width: size.width, height: size.height))
            return
        }
        let client = context.client
        context.tracker.run { [weak self] in
            let result: Result<MessagePage, TransportError>
            do throws(TransportError) {
                result = .success(try await client.messages(in: id, limit: 1).payload)
            } catch {
                result = .failure(error)
            }
            guard let self else { return }
            switch result {
            case .success(let page):
                self.update(page.conversation)
                self.context.navigator?.push(
                    ConversationScreen(
                        inbox: self, conversation: page.conversation, width: size.width, height: size.height))
            case .failure(let error):
                self.context.navigator?.showMessage(
                    "✕ " + FeedScreen.describe(error, doing: "open the conversation"))
            }
        }
    }

    /// Calls `observer` after every change of the list, for as long as `owner` lives.
    package func observe(_ owner: AnyObject, _ observer: @escaping @MainActor () -> Void) {
        observers[ObjectIdentifier(owner)] = observer
    }

    /// Stops calling `owner`'s observer.
    package func stopObserving(_ owner: AnyObject) {
        observers[ObjectIdentifier(owner)] = nil
    }

    /// The unread count the badge shows: messages or conversations, as the provider says.
    package var unread: Int {
        switch direct.badge {
        case .unreadMessages: conversations.reduce(0) { $0 + $1.unreadCount }
        case .unreadConversations: conversations.filter { $0.unreadCount > 0 }.count
        }
    }

    /// Reads the first page of conversations again (once at a time: a read asked for while one
    /// is out follows it). Until the first answer, the list last read shows, offline too.
    package func reload() {
        guard context.client.bearerToken != nil else { return }
        let cache = cache()
        guard !loading else {
            readAgain = true
            return
        }
        loading = true
        let client = context.client
        context.tracker.run { [weak self] in
            let result: Result<ConversationList, TransportError>
            do throws(TransportError) {
                result = .success(try await client.conversations(limit: Self.pageSize).payload)
            } catch {
                result = .failure(error)
            }
            guard let self else { return }
            self.loading = false
            switch result {
            case .success(let list):
                self.conversations = list.conversations
                self.loaded = true
                self.known = true
                self.problem = nil
                cache?.save(conversations: list.conversations)
            case .failure(let error):
                self.problem = FeedScreen.describe(error, doing: "load your conversations")
            }
            self.changed()
            if self.readAgain {
                self.readAgain = false
                self.reload()
            }
        }
    }

    /// A conversation seen or changed here (started, read): it takes its place in the list at
    /// once, before the next read.
    package func update(_ conversation: Conversation) {
        conversations.removeAll { $0.id == conversation.id }
        let index =
            conversations.firstIndex {
                ($0.lastMessage?.createdAt ?? $0.updatedAt)
                    < (conversation.lastMessage?.createdAt ?? conversation.updatedAt)
            }
            ?? conversations.endIndex
        conversations.insert(conversation, at: index)
        cache()?.save(conversations: conversations)
        changed()
    }

    /// The viewer read conversation `id` up to its newest message: it counts as read at once.
    package func markedRead(_ id: ConversationID) {
        guard let index = conversations.firstIndex(where: { $0.id == id }),
            conversations[index].unreadCount > 0
        else { return }
        conversations[index].unreadCount = 0
        cache()?.save(conversations: conversations)
        changed()
    }

    private func changed() {
        let count = unread
        context.tabBadges[.direct] = count > 0 ? "●\(count)" : nil
        for observer in observers.values { observer() }
        context.navigator?.setNeedsDisplay()
    }

    /// The others in `conversation`, as a row names them: "Grace Baker", or "Grace, Ada and 2
    /// more" for a group.
    package func title(of conversation: Conversation) -> String {
        let others = conversation.others(than: context.viewer?.id ?? UserID(""))
        switch others.count {
        case 0: return context.viewer.map { "\($0.displayName) (you)" } ?? "you"
        case 1: return others[0].displayName
        case 2: return "\(Self.firstName(others[0])) and \(Self.firstName(others[1]))"
        default:
            return "\(Self.firstName(others[0])), \(Self.firstName(others[1])) and \(others.count - 2) more"
        }
    }

    private static func firstName(_ user: User) -> String {
        user.displayName.split(separator: " ").first.map(String.init) ?? "@" + user.handle
    }
}
