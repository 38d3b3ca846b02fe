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
        let who = "\(event.actor.displayName) (@\(event.actor.handle))"
        let text =
            event.media.map { media in
                let first =
                    media.text.split(whereSeparator: \.isNewline).first.map(String.init) ?? media.kind.name
                return ": \"\(first)\""
            } ?? ""
        switch event.kind {
        case .reply: return "↩ \(who) replied\(text)"
        case .like: return "♥ \(who) liked your post\(text)"
        case .follow: return "☺ \(who) followed you"
        case .mention: return "@ \(who) mentioned you\(text)"
        case .message:
            let words = event.message.flatMap { $0.text.split(whereSeparator: \.isNewline).first }
            return "✉ \(who) sent you a message" + (words.map { ": \"\($0)\"" } ?? "")
        case .unknown(let name): return "· \(who): \(name)"
        }
    }

    // MARK: Keys

    /// What the activity screen's keys do.
    enum Command: Sendable {
        case next, previous, open, profile
    }

    /// The activity screen's keys: the one place to add one.
    var keys: KeyTable<Command> {
        KeyTable([
            .move(down: .next, up: .previous),
            .init([.enter], .open, does: "open the post", footer: "enter"),
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
        case .open:
            guard events.indices.contains(selection), let media = events[selection].media else { return true }
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
            var line = StyledLine(index == selection ? "▌" : " ", style: style.accent)
            line.append(Self.describe(event), style: style.text)
            line.append(" · " + context.age(of: event.createdAt), style: style.secondary)
            buffer.putTruncated(line, in: Rect(x: rect.x, y: rect.y + offset, width: rect.width, height: 1))
        }
        return nil
    }

    package func resize(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}
