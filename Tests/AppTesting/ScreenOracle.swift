import AppRuntime
@_spi(Testing) import Backend
import Composition
import Features
import Foundation
import ListEngine
import MediaModel
import Mutations
import ServerAPI
import Synchronization
import TerminalUI
import Wire

/// Compares what an app shows with the truth after every step of a run: the backend's data plus
/// the client's pending changes, and what the app as it ships promises (``ShippedApp``).
///
/// It checks what a person would notice, on every screen that lists posts:
///
/// - the frame has the screen's height and no line is wider than the screen;
/// - the title bar names the account signed in, if it names one;
/// - no post is listed twice (unless the server's feed holds it twice, as a post and a repost);
/// - a post marked "sending…" has a change still waiting in the journal, and the frame shows
///   no more "sending…" marks than changes are waiting;
/// - the selected post's counts line shows the counts its row holds;
/// - the app's own rules hold (a text-only post is never on a photo-first app's home feed);
/// - and, once the app has settled: the selection is on screen; every row on screen takes the
///   lines it draws at the current width (`layoutViolations`); every post shown exists on the
///   server (or is pending); the home feed keeps the server's order; and each post's counts and
///   marks equal the server's plus the changes still pending.
///
/// The server's truth is read straight from the embedded backend, not through the app's
/// transport or caches, so a bug in shared client code cannot bend the expectation too.
@MainActor
package struct ScreenOracle {
    /// The app as it ships, for its own rules; nil checks only the rules every app keeps.
    package var app: ShippedApp?

    /// Whether the scenario deletes posts on the server behind the app's back: then a post the
    /// app loaded before may be shown until the next refresh, and is not reported missing.
    package var allowsDeletionsBehindTheApp: Bool

    /// The oracle's own tokens, one per account it reads as: it asks the server as the viewer
    /// without borrowing the app's token, which expires (the app renews it when it next asks;
    /// the oracle must not see a post vanish in between).
    private let tokens = OracleTokens()

    /// An oracle for `app`.
    package nonisolated init(app: ShippedApp?, allowsDeletionsBehindTheApp: Bool = false) {
        self.app = app
        self.allowsDeletionsBehindTheApp = allowsDeletionsBehindTheApp
    }

    /// What is wrong with what `session` shows now. `settled` says the app has finished its work
    /// (so server checks apply).
    package func violations(in session: AppSession, settled: Bool) async -> [String] {
        guard let shell = session.shell else { return [] }
        let (buffer, _) = session.render()
        let lines = HeadlessRenderer.lines(of: buffer)
        var found: [String] = []
        if lines.count != buffer.height {
            found.append("the frame has \(lines.count) lines on a screen \(buffer.height) rows high")
        }
        for (row, line) in lines.enumerated() where TerminalColumns.of(line) > buffer.width {
            found.append(
                "row \(row) is \(TerminalColumns.of(line)) columns wide on a screen of \(buffer.width): \(line)"
            )
        }
        found += Self.titleViolations(lines: lines, handle: shell.context.client.credentials?.handle)
        guard let list = Self.postList(of: shell.currentScreen) else { return found }
        let context = shell.context
        guard let manager = try? session.app?.service(.mutationReplay)?.manager else {
            return found + ["the app runs without its mutation manager ('mutations.replay')"]
        }
        let items = list.items
        let records = Dictionary(
            manager.pending.map { ($0.token, $0) }, uniquingKeysWith: { first, _ in first })
        found += duplicates(in: items, screen: shell.currentScreen)
        found += selectedCounts(list: list, lines: lines)
        found += shownCounts(items: items, lines: lines)
        found += ownRules(items: items, screen: shell.currentScreen, lines: lines)
        guard settled else { return found }
        // The list takes its items a moment after they change (the diff runs off the UI path),
        // and the journal moves on by itself: these hold once the app is idle.
        found += listMatchesItems(list)
        found += Self.layoutViolations(of: list)
        found += pendingMarks(items: items, lines: lines, waiting: records, manager: manager)
        if let server = session.app?.service(.embeddedBackend)?.embeddedTransport?.server {
            let handle = context.client.credentials?.handle ?? context.viewer?.handle
            let truth = ServerTruth(
                server: server,
                token: handle.map { tokens.token(for: $0, on: server) } ?? context.client.bearerToken)
            // What a person can see: the posts around the selection.
            let around = list.selectedIndex ?? 0
            let window = Array(items[max(0, around - 6)..<min(items.count, around + 7)])
            found += await serverFacts(items: window, waiting: Array(records.values), truth: truth)
            if shell.currentScreen is FeedScreen {
                found += await feedOrder(items: items, truth: truth)
            }
        }
        return found
    }

    static func postList(of screen: (any AppScreen)?) -> PostList? {
        switch screen {
        case let feed as FeedScreen: feed.postList
        case let profile as ProfileScreen: profile.postList
        case let thread as ThreadScreen: thread.postList
        default: nil
        }
    }

    // MARK: - What the list holds

    private func duplicates(in items: [PostItem], screen: (any AppScreen)?) -> [String] {
        var found: [String] = []
        var ids: Set<String> = []
        var shown: [String: PostItem] = [:]
        for item in items {
            if !ids.insert(item.id).inserted { found.append("the item \(item.id) is listed twice: \(item)") }
            // A feed holds each post once as itself; a repost or a reply's parent is another entry.
            guard item.role == .feed, case .standalone = item.context else { continue }
            if let earlier = shown[item.media.id.rawValue] {
                found.append(
                    "the post \(item.media.id.rawValue) is shown twice (\(earlier.id) and \(item.id)): \(item)"
                )
            }
            shown[item.media.id.rawValue] = item
        }
        return found
    }

    private func pendingMarks(
        items: [PostItem], lines: [String], waiting: [MutationToken: MutationRecord], manager: MutationManager
    ) -> [String] {
        var found: [String] = []
        for item in items {
            guard case .pending(let token) = item.status, waiting[token] == nil else { continue }
            let state = manager.record(for: token).map { "\($0.state)" } ?? "not in the journal"
            found.append("\(item) is marked sending, but its change is \(state)")
        }
        for record in waiting.values {
            if record.mutation.kind.effect == .hide, let id = record.mutation.media,
                let item = items.first(where: { $0.media.id == id }), item.role != .focus
            {
                found.append("\(item) is still listed while its delete is waiting to be sent")
            }
        }
        let marks = lines.reduce(0) { $0 + $1.components(separatedBy: "sending…").count - 1 }
        if marks > waiting.count {
            found.append("the frame shows \(marks) 'sending…' marks with \(waiting.count) changes waiting")
        }
        return found
    }

    /// The counts line in the selected post's block shows the counts its row holds.
    private func selectedCounts(list: PostList, lines: [String]) -> [String] {
        guard let item = list.selectedItem else { return [] }
        let block = lines.filter { $0.hasPrefix("▌") }.map { String($0.dropFirst()) }
        let shown = block.filter(Self.isCountsLine)
        guard !shown.isEmpty else { return [] }
        let expected = Self.countsLine(item.facts)
        if shown.contains(expected) { return [] }
        if let parent = item.parentFacts, shown.contains(Self.countsLine(parent)), shown.count == 1 {
            return []
        }
        return ["the selected post \(item) shows \(shown) where its counts are '\(expected)'"]
    }

    /// Every counts line on screen is the counts of a post the list holds (a row drawn from old
    /// data would show counts no post has any more).
    private func shownCounts(items: [PostItem], lines: [String]) -> [String] {
        var known: Set<String> = []
        for item in items {
            known.insert(Self.countsLine(item.facts))
            if let parent = item.parentFacts { known.insert(Self.countsLine(parent)) }
        }
        var found: [String] = []
        for (row, line) in lines.enumerated() {
            var text = Substring(line)
            while let first = text.first, "▌ ┃│".contains(first) { text = text.dropFirst() }
            guard Self.isCountsLine(String(text)), !known.contains(String(text)) else { continue }
            found.append("row \(row) shows '\(text)', the counts of no post on this screen")
        }
        return found
    }

    /// The list view shows the data source's items, in its order, one section each.
    private func listMatchesItems(_ list: PostList) -> [String] {
        let shown = list.adapter.items.map { "\($0.diffIdentifier)" }
        let items = list.items.map { "\(AnyListItem($0).diffIdentifier)" }
        var found: [String] = []
        if shown != items {
            let firstDifference =
                zip(shown, items).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(shown.count, items.count)
            found.append(
                "the list shows \(shown.count) items where its data has \(items.count); first difference at \(firstDifference)"
            )
        }
        for (index, (shown, item)) in zip(list.adapter.items, list.items).enumerated()
        where shown.diffIdentifier == AnyListItem(item).diffIdentifier
            && !shown.isContentEqual(to: AnyListItem(item))
        {
            found.append("the list's item \(index) still shows older content than its data: \(item)")
        }
        if list.adapter.sectionCount != list.items.count {
            found.append("the list has \(list.adapter.sectionCount) sections for \(list.items.count) items")
        }
        return found
    }

    /// The title bar names the account signed in (`handle`), not another: after an account
    /// switch, a title kept from the first account says whose screen this seems to be.
    package static func titleViolations(lines: [String], handle: String?) -> [String] {
        guard let handle, let title = lines.first else { return [] }
        let named = title.split(separator: " ").last.map(String.init) ?? ""
        guard named.hasPrefix("@"), named != "@\(handle)" else { return [] }
        return ["the title bar names \(named) while @\(handle) is signed in: \(title)"]
    }

    /// What is wrong with how `list` is laid out at its current size, once settled: the
    /// selection is on screen (at least a line of it), and every row on screen takes as many
    /// lines as it draws at the list's width now (heights kept for another width cut posts off
    /// or draw them over each other).
    package static func layoutViolations(of list: PostList) -> [String] {
        let view = list.view
        var found: [String] = []
        let visible = view.visibleRows
        if let selection = view.selection, !visible.contains(selection) {
            found.append(
                "the selection (post \(selection.section)) is off screen: rows \(visible.first.map { "\($0.section)" } ?? "-")"
                    + " to \(visible.last.map { "\($0.section)" } ?? "-") are shown")
        }
        guard let render = view.rowRenderer else { return found }
        for path in visible {
            guard let layout = view.layout(of: path) else { continue }
            let drawn = render(path, view.contentWidth).count
            if max(layout.height, 1) != max(drawn, 1) {
                found.append(
                    "post \(path.section) row \(path.row) is laid out \(layout.height) lines high but draws \(drawn) at "
                        + "width \(view.contentWidth)")
            }
        }
        return found
    }

    static func isCountsLine(_ line: String) -> Bool {
        (line.hasPrefix("♡ ") || line.hasPrefix("♥ ")) && line.contains("   ↩ ") && line.contains("   ↻ ")
    }

    /// How a post's counts line reads, written here from what a person is promised.
    static func countsLine(_ facts: MediaFacts) -> String {
        (facts.viewerLiked ? "♥ " : "♡ ")
            + "\(facts.likeCount)   ↩ \(facts.replyCount)   ↻ \(facts.repostCount)"
            + (facts.viewerReposted ? " · you reposted" : "")
    }

    private func ownRules(items: [PostItem], screen: (any AppScreen)?, lines: [String]) -> [String] {
        guard let app else { return [] }
        var found: [String] = []
        if !app.showsTextPosts, screen is FeedScreen {
            found += items.filter { $0.role == .feed && $0.media.attachments.isEmpty }.map {
                "\(app.id) shows a text-only post on its home feed: \($0)"
            }
        }
        // Comments are one compact line each; a threaded reply hangs off the threadline.
        if app.repliesAreComments, screen is ThreadScreen,
            let row = lines.firstIndex(where: { $0.drop { $0 == "▌" || $0 == " " }.hasPrefix("┃") })
        {
            found.append(
                "\(app.id) draws a reply as a threaded post (row \(row)), where its replies are comments")
        }
        return found
    }

    // MARK: - Against the server

    private func serverFacts(items: [PostItem], waiting: [MutationRecord], truth: ServerTruth) async
        -> [String]
    {
        var found: [String] = []
        let ordered = waiting.sorted { $0.sequence < $1.sequence }
        for item in items where item.isConfirmed {
            guard let server = await truth.post(item.media.id) else {
                if !allowsDeletionsBehindTheApp {
                    found.append("\(item) is shown, but the server has no such post")
                }
                continue
            }
            // Only where the app has seen the server's latest facts: older ones show until the
            // next refresh, by design.
            guard server.revision == item.facts.revision else { continue }
            let expected = Self.expectedFacts(server, for: item.media.id, waiting: ordered)
            let shown = item.facts
            let differing = Self.differingFacts(shown, expected)
            if !differing.isEmpty {
                let (line, expectedLine) = (Self.countsLine(shown), Self.countsLine(expected))
                // A fact the counts line does not show is named, so the message still says what differs.
                let detail = line == expectedLine ? " (\(differing.joined(separator: ", ")))" : ""
                found.append(
                    "\(item) shows '\(line)' where the server and the pending changes make '\(expectedLine)'\(detail)"
                )
            }
        }
        return found
    }

    /// The facts (every one `MediaFacts.fields` lists but the revision, which only orders them)
    /// where `shown` is not `expected`, as `likeCount 3, expected 4`.
    static func differingFacts(_ shown: MediaFacts, _ expected: MediaFacts) -> [String] {
        let compared = MediaFacts.fields.filter { $0.kind != .revision }
        return compared.filter { $0.value(in: shown) != $0.value(in: expected) }.map {
            "\($0.name) \($0.value(in: shown)), expected \($0.value(in: expected))"
        }
    }

    /// The server's facts with the changes still waiting applied, in the order they were made.
    static func expectedFacts(_ server: MediaFacts, for id: MediaID, waiting: [MutationRecord]) -> MediaFacts
    {
        var facts = server
        for record in waiting where record.mutation.media == id {
            switch record.mutation.kind.effect {
            case .flag(let flag, let value):
                // The flag as the change sets it; its count moves only if the flag does.
                if facts[keyPath: flag.state] != value, let count = flag.count {
                    facts[keyPath: count] += value ? 1 : -1
                }
                facts[keyPath: flag.state] = value
            case .newReply:
                facts.replyCount += 1
            case .newPost, .hide, .follow, .newMessage, .profile:
                // A message sharing the post changes none of its facts, nor a new name.
                break
            }
        }
        return facts
    }

    /// How many of the home feed's first entries the order check covers.
    static let orderedEntries = 60

    /// The entries the order check last found in order (it runs again only when they change:
    /// paging appends below them, and reading the server's feed after every step of a long
    /// paging scenario would make it crawl).
    private let lastOrdered = OracleMemo()

    private func feedOrder(items: [PostItem], truth: ServerTruth) async -> [String] {
        // A post of this device keeps its local entry id once confirmed, until a refresh brings
        // the server's entry (so it does not flicker); its media is checked with the others.
        // Only the first entries, where order matters most.
        let shown = items.prefix(Self.orderedEntries).filter {
            $0.isConfirmed && $0.role == .feed && !$0.id.hasPrefix("local:")
        }.map(\.id)
        guard !shown.isEmpty, shown != lastOrdered.entries,
            let (feed, complete) = await truth.feed(covering: Set(shown))
        else { return [] }
        var position: [String: Int] = [:]
        for (index, id) in feed.enumerated() where position[id] == nil { position[id] = index }
        var found: [String] = []
        var last = -1
        for id in shown {
            guard let index = position[id] else {
                if complete && !allowsDeletionsBehindTheApp {
                    found.append("the home feed shows entry \(id), which is not in the server's feed")
                }
                continue
            }
            if index < last {
                found.append("the home feed shows entry \(id) below one the server's feed puts after it")
            }
            last = max(last, index)
        }
        lastOrdered.entries = found.isEmpty ? shown : []
        return found
    }
}

/// What an oracle remembers between its looks.
@MainActor
final class OracleMemo {
    var entries: [String] = []
}

/// The backend's answers, asked directly (no fault layer, no client cache).
@MainActor
/// Long-lived tokens the oracle minted, by account, for the server they were minted on.
final class OracleTokens: Sendable {
    private let minted = Mutex<[String: String]>([:])

    func token(for handle: String, on server: BackendServer) -> String {
        let key = server.databasePath + "|" + handle
        if let token = minted.withLock({ $0[key] }) { return token }
        let token = server.testToken(forHandle: handle)
        minted.withLock { $0[key] = token }
        return token
    }
}

struct ServerTruth {
    let server: BackendServer
    let token: String?

    private func get(_ path: String, query: [QueryItem] = []) async -> Response {
        var headers: Headers = [:]
        if let token { headers["Authorization"] = "Bearer \(token)" }
        return await server.handle(Request(.get, path, query: query, headers: headers))
    }

    /// The post's facts for the viewer, or nil when the server has no such post.
    func post(_ id: MediaID) async -> MediaFacts? {
        let response = await get("/v1/posts/\(Request.pathSegment(id.rawValue))")
        guard response.status == 200, let envelope = try? WireFormat.decode(Media.self, from: response.body)
        else { return nil }
        return envelope.facts[id] ?? MediaFacts()
    }

    /// The viewer's home feed entry ids, in order, far enough to hold `ids` (at most 1,000), and
    /// whether the pages read reached every id or the feed's end.
    func feed(covering ids: Set<String>) async -> (entries: [String], complete: Bool)? {
        var entries: [String] = []
        var missing = ids
        var cursor: String?
        repeat {
            var query = [QueryItem("limit", "50")]
            if let cursor { query.append(QueryItem("cursor", cursor)) }
            let response = await get("/v1/feed", query: query)
            guard response.status == 200,
                let page = try? WireFormat.decode(FeedPage.self, from: response.body)
            else { return nil }
            for entry in page.payload.entries {
                entries.append(entry.id.rawValue)
                missing.remove(entry.id.rawValue)
            }
            cursor = page.payload.nextCursor
        } while cursor != nil && !missing.isEmpty && entries.count < 1_000
        return (entries, missing.isEmpty || cursor == nil)
    }
}
