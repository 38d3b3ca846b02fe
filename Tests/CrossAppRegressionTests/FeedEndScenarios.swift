import AppRuntime
import AppTesting
@_spi(Testing) import Backend
import Composition
import Features
import Foundation
import MediaModel
import Sockets
import Storage
import TerminalUI
import Testing
import Wire

/// The home feed's end where a page ends: a feed of exactly one page (the app's own page size),
/// one post less and one more, scrolled to the end in both apps.
@Suite @MainActor struct FeedEndScenarios {
    /// The posts Home asks the server for at once: the app's `FeedPolicy.pageSize`, as it ships.
    static func pageSize(of app: ShippedApp) throws -> Int {
        try AppHost.compose(app.definition).registry[.feedPolicy].pageSize
    }

    /// The text of post `number` of `count`.
    static func text(_ number: Int, of count: Int) -> String { "Tide gauge \(number) of \(count)" }

    @Test(arguments: ShippedApp.withHome, [-1, 0, 1])
    func aHomeFeedOfAPageAndOneMoreOrLess_endsOnce_withEveryPostOnce(app: ShippedApp, beyondAPage: Int)
        async throws
    {
        // Given a new account whose home feed is its own photo posts (it follows nobody): a page
        // of them, one less or one more
        let page = try Self.pageSize(of: app)
        let count = page + beyondAPage
        let handle = "tidewatcher"
        let directories = try TestDirectories.make()
        let backend = try directories.openBackend()
        try await BackendFixtures.createAccount(on: backend, handle: handle, displayName: "Tide Watcher")
        for number in 1...count {
            try await BackendFixtures.post(
                on: backend, as: handle, text: Self.text(number, of: count),
                attachmentsJSON: BackendFixtures.photoJSON)
        }
        try await BackendFixtures.signIn(on: backend, handle: handle, savingIn: directories.data)
        backend.close()
        let (session, _) = try await HeadlessHarness.session(app.definition, directories: directories)
        defer { Task { await session.stop() } }
        let feed = try #require(session.shell?.currentScreen as? FeedScreen)
        let transport = try #require(session.app?.service(.embeddedBackend)?.embeddedTransport)
        let place = "\(app.id), \(count) posts, a page of \(page)"
        #expect(feed.items.count == min(count, page), "\(place): Home starts with the first page")

        // When the person goes to the end until nothing more arrives, then presses G and j there
        let before = transport.statistics.requests
        await BoundaryScenarios.goToTheEnd(of: feed.postList, in: session)
        let asked = transport.statistics.requests - before
        let atTheEnd = feed.items.map(\.id)
        for key in ["G", "j", "G", "j"] as [Character] {
            await BoundaryScenarios.press(.character(key), in: session)
        }

        // Then every post is there once, newest first, as many as the server holds
        let texts = feed.items.map(\.media.text)
        #expect(texts == (1...count).reversed().map { Self.text($0, of: count) }, "\(place): \(texts)")
        let held = try transport.server.database.queryFirst(
            "SELECT COUNT(*) FROM posts p JOIN users u ON u.id = p.author WHERE u.handle = ? AND p.deleted = 0",
            handle
        ) { try $0.int(0) }
        #expect(feed.items.count == held, "\(place): rows shown = posts on the server")
        #expect(feed.items.map(\.id) == atTheEnd, "\(place): nothing came or went after the end")
        // and the next page was asked for only when there was one, once, and nothing after
        #expect(asked == (count > page ? 1 : 0), "\(place): requests while scrolling: \(asked)")
        #expect(
            transport.statistics.requests - before == asked, "\(place): no request at the end of the feed")
        #expect(feed.postList.selectedIndex == count - 1, "\(place): the oldest post is selected")

        // And the line under the last post says the feed ends, once, the footer next
        let rows = lines(HeadlessHarness.frame(of: session))
        let markers = rows.indices.filter { rows[$0].contains(FeedPagingScenarios.endMarker) }
        #expect(markers.count == 1, "\(place):\n\(rows.joined(separator: "\n"))")
        let marker = try #require(markers.first)
        let lastSelectedLine = try #require(rows.lastIndex { $0.hasPrefix("▌") })
        #expect(marker > lastSelectedLine, "\(place): below the last post")
        #expect(
            rows[(lastSelectedLine + 1)..<marker].allSatisfy {
                $0.trimmingCharacters(in: .whitespaces).isEmpty
            })
        #expect(rows[marker + 1].hasPrefix("j/k move"), "\(place): the list ends with it, the footer next")
    }
}
