import Composition
import Foundation
import MediaModel
import ServerAPI
import TerminalUI
import Wire

/// What happened to the viewer: replies, likes, new followers and mentions, newest first, from
/// the backend's event stream.
@MainActor
package final class ActivityScreen: AppScreen {
    private let context: AppContext
    private var events: [ActivityEvent] = []
    private var loading = false
    private var message: String?
    private var selection = 0
    private var top = 0
    private var width: Int
    private var height: Int

    /// Makes the activity screen.
    package init(context: AppContext, width: Int, height: Int) {
        self.context = context
        self.width = width
        self.height = height
    }

    package var title: String { "Activity" }

    package var status: String? {
        loading ? "loading…" : message
    }

    package func appear() {
        load()
    }

    private func load() {
        loading = true
        let client = context.client
        context.tracker.run { [weak self] in
            let result: Result<[ActivityEvent], TransportError>
            do throws(TransportError) {
                result = .success(try await Self.newestEvents(client))
            } catch {
                result = .failure(error)
            }
            guard let self else { return }
            self.loading = false
            switch result {
            case .success(let newest):
                self.events = newest.reversed()
                self.selection = min(self.selection, max(self.events.count - 1, 0))
            case .failure(let error):
                self.message = FeedScreen.describe(error, doing: "load activity")
            }
            self.context.navigator?.setNeedsDisplay()
        }
    }

    /// How many of the newest events the tab shows.
    nonisolated static let shownCount = 200
    /// The largest page the server serves (`GET /v1/events` takes a limit from 1 to 100).
    nonisolated static let pageLimit = 100

    /// The viewer's newest `shownCount` events, oldest first. The stream is served oldest first
    /// in pages of at most `pageLimit`, so it is read to its end, keeping the newest.
    nonisolated static func newestEvents(_ client: APIClient) async throws(TransportError) -> [ActivityEvent]
    {
        var newest: [ActivityEvent] = []
        var cursor: String?
        while true {
            let page = try await client.events(after: cursor, limit: pageLimit).payload
            newest += page.events
            if newest.count > shownCount { newest.removeFirst(newest.count - shownCount) }
            guard page.events.count == pageLimit, page.nextCursor != cursor else { return newest }
            cursor = page.nextCursor
        }
    }

    /// One line describing an event.
    nonisolated static func describe(_ event: ActivityEvent) -> String {
        let (what, quote) = parts(of: event)
        return what + quote
    }

    /// An event in two parts: who did what ("♥ Ada Abbott (@ada) liked your post"), then the
    /// quote of the post it is about (`: "First line"`, or empty), which is what a narrow row cuts.
    nonisolated static func parts(of event: ActivityEvent) -> (what: String, quote: String) {
        let who = "\(event.actor.displayName) (@\(event.actor.handle))"
        let quote =
            event.media.map { media in
                let first =
                    media.text.split(whereSeparator: \.isNewline).first.map(String.init) ?? media.kind.name
                return ": \"\(first)\""
            } ?? ""
        switch event.kind {
        case .reply: return ("↩ \(who) replied", quote)
        case .like: return ("♥ \(who) liked your post", quote)
        case .follow: return ("☺ \(who) followed you", "")
        case .mention: return ("@ \(who) mentioned you", quote)
        case .message:
            let words = event.message.flatMap { $0.text.split(whereSeparator: \.isNewline).first }
            return ("✉ \(who) sent you a message", words.map { ": \"\($0)\"" } ?? "")
        case .unknown(let name): return ("· \(who): \(name)", "")
        }
    }

    /// An event's row, `width` columns at most: who did what, the quote cut to what is left, then
    /// when. Where even who, what and when do not fit, the what is cut and when still shows.
    func row(_ event: ActivityEvent, selected: Bool, width: Int) -> StyledLine {
        let style = context.style
        let (what, quote) = Self.parts(of: event)
        var line = StyledLine(selected ? "▌" : " ", style: style.accent)
        line.append(what, style: style.text)
        let when = StyledLine(" · " + context.age(of: event.createdAt), style: style.secondary)
        let room = width - line.displayWidth - when.displayWidth
        if !quote.isEmpty, room >= 4 {
            line.append(TextLayout.truncate(StyledLine(quote, style: style.text), width: room))
        }
        return TextLayout.truncate(line, keeping: when, width: width)
    }

    // MARK: Keys

    /// What the activity screen's keys do.
    enum Command: Sendable {
        case next, previous, open, profile
        case list(ListKeys.Command)
    }

    /// The activity screen's keys: the one place to add one.
    var keys: KeyTable<Command> {
        KeyTable(
            [
                .move(down: .next, up: .previous)
            ] + ListKeys.rows(ends: "first / last", Command.list) + [
                .init(
                    [.enter], .open,
                    does: context.openConversation == nil
                        ? "open the post, or the follower"
                        : "open the post, follower or conversation",
                    footer: "enter",
                    footerDoes: "open"),
                .init([.character("p")], .profile, does: "profile", footer: "p"),
            ])
    }

    package var keyBindings: [KeyBinding] { keys.bindings }

    package func handle(_ key: Key) -> Bool {
        message = nil
        guard let command = keys.command(for: key) else { return false }
        switch command {
        case .next: selection = min(selection + 1, max(events.count - 1, 0))
        case .previous: selection = max(selection - 1, 0)
        case .list(let list):
            selection = ListKeys.selection(after: list, from: selection, count: events.count, height: height)
        case .open:
            guard events.indices.contains(selection) else { return true }
            let event = events[selection]
            if case .message = event.kind, let message = event.message, let open = context.openConversation {
                open(message.conversationID)
                return true
            }
            guard let media = event.media else {
                context.navigator?.push(
                    ProfileScreen(context: context, userID: event.actor.id, width: width, height: height))
                return true
            }
            context.navigator?.push(
                ThreadScreen(context: context, mediaID: media.id, width: width, height: height))
        case .profile:
            guard events.indices.contains(selection) else { return true }
            context.navigator?.push(
                ProfileScreen(
                    context: context, userID: events[selection].actor.id, width: width, height: height))
        }
        return true
    }

    package func draw(into buffer: inout ScreenBuffer, in rect: Rect) -> Point? {
        let style = context.style
        width = rect.width
        height = rect.height
        if events.isEmpty {
            buffer.put(
                loading ? "Loading…" : "Nothing yet.", style: style.secondary, x: rect.x + 2, y: rect.y + 1,
                clip: rect)
            return nil
        }
        if selection < top { top = selection }
        if selection >= top + rect.height { top = selection - rect.height + 1 }
        for (offset, event) in events.dropFirst(top).prefix(rect.height).enumerated() {
            let index = top + offset
            buffer.putTruncated(
                row(event, selected: index == selection, width: rect.width),
                in: Rect(x: rect.x, y: rect.y + offset, width: rect.width, height: 1))
        }
        return nil
    }

    package func resize(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}
