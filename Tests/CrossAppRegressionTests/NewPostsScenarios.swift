import AppRuntime
import AppTesting
import Backend
import Composition
import Features
import Foundation
import MediaModel
import TerminalUI
import Testing
import Wire

/// New posts that arrive above what the person is reading: at the top they land on the newest;
/// further down they keep their place and a marker says how many are waiting above.
@Suite @MainActor struct NewPostsScenarios {
    /// The texts of the posts `post(_:on:)` makes, oldest first.
    static func texts(_ count: Int) -> [String] { (1...count).map { "Fresh news \($0)" } }

    /// Posts `count` photo posts as grace (whom ada follows), oldest first.
    static func post(_ count: Int, on server: BackendServer) async throws {
        for text in texts(count) {
            try await BackendFixtures.post(
                on: server, as: "grace", text: text, attachmentsJSON: BackendFixtures.photoJSON)
        }
    }

    /// The lines of `frame` whose text, trimmed, starts with `marker`.
    static func markerLines(_ frame: String, _ marker: String) -> [Substring] {
        lines(frame).filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix(marker) }
    }

    @Test(arguments: ShippedApp.withHome)
    func relaunchAtTheTop_landsOnTheNewestPost(app: ShippedApp) async throws {
        // Given a feed seen once, then three new posts made while the app was closed
        let directories = try TestDirectories.make()
        let (session, _) = try await HeadlessHarness.session(app.definition, directories: directories)
        defer { Task { await session.stop() } }
        let oldTop = try #require((session.shell?.currentScreen as? FeedScreen)?.items.first?.id)
        await session.stop()
        let server = try directories.openBackend()
        try await Self.post(3, on: server)
        server.close()

        // When the app launches again
        try await session.launch()
        await session.settle()

        // Then the newest post is first and selected, the old top right under the new ones
        let feed = try #require(session.shell?.currentScreen as? FeedScreen)
        #expect(feed.items.prefix(3).map(\.media.text) == Self.texts(3).reversed())
        #expect(feed.items.dropFirst(3).first?.id == oldTop)
        #expect(feed.postList.selectedIndex == 0)
        let frame = HeadlessHarness.frame(of: session)
        #expect(selectedHeader(frame)?.contains("@grace") == true)
        #expect(Self.markerLines(frame, "3 new posts ↑").isEmpty, "nothing is hidden above")
    }

    @Test(arguments: ShippedApp.withHome)
    func pullToRefreshAtTheTop_landsOnTheNewestPost(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let (session, _) = try await HeadlessHarness.session(app.definition, directories: directories)
        defer { Task { await session.stop() } }
        let feed = try #require(session.shell?.currentScreen as? FeedScreen)
        let oldTop = try #require(feed.items.first?.id)
        let server = try #require(session.app?.service(.embeddedBackend)?.embeddedTransport?.server)
        try await Self.post(2, on: server)

        // When the person, at the top, pulls to refresh
        _ = session.shell?.handle(.character("k"))
        await session.settle()

        // Then they land on the newest post
        #expect(feed.items.prefix(2).map(\.media.text) == Self.texts(2).reversed())
        #expect(feed.items.dropFirst(2).first?.id == oldTop)
        #expect(feed.postList.selectedIndex == 0)
        #expect(Self.markerLines(HeadlessHarness.frame(of: session), "2 new posts ↑").isEmpty)
    }

    /// A refresh the person asks for says what it found: "up to date" when nothing is new, the
    /// count when posts came in; the next key clears it.
    @Test(arguments: ShippedApp.withHome)
    func pullToRefresh_saysUpToDate_whenNothingIsNew(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let (session, _) = try await HeadlessHarness.session(app.definition, directories: directories)
        defer { Task { await session.stop() } }
        let feed = try #require(session.shell?.currentScreen as? FeedScreen)
        let before = feed.items.map(\.id)
        let merges = feed.rebuildCount
        let transport = try #require(session.app?.service(.embeddedBackend)?.embeddedTransport)
        let sent = transport.statistics.requests

        // When the person, at the top, pulls to refresh with nothing new on the server
        _ = session.shell?.handle(.character("k"))
        await session.settle()

        // Then the list is as it was, and the status line says it is up to date; the server
        // answered one conditional request with a 304, and nothing was merged
        #expect(feed.items.map(\.id) == before)
        #expect(
            DeleteScenarios.status(HeadlessHarness.frame(of: session)).hasPrefix("up to date"), "\(app.id)")
        #expect(feed.rebuildCount == merges, "\(app.id): a refresh that changes nothing merges nothing")
        #expect(transport.statistics.requests == sent + 1, "\(app.id)")

        // When two posts arrive and the person pulls again
        let server = try #require(session.app?.service(.embeddedBackend)?.embeddedTransport?.server)
        try await Self.post(2, on: server)
        _ = session.shell?.handle(.character("k"))
        await session.settle()

        // Then it says how many came in
        let frame = HeadlessHarness.frame(of: session)
        #expect(DeleteScenarios.status(frame).hasPrefix("2 new posts came in"), "\(app.id):\n\(frame)")
        _ = session.shell?.handle(.character("j"))
        #expect(!DeleteScenarios.status(HeadlessHarness.frame(of: session)).hasPrefix("2 new posts came in"))
    }

    @Test(arguments: ShippedApp.withHome)
    func newPostsWhileScrolledDown_keepThePlaceAndShowAMarkerUntilTheTop(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let (session, _) = try await HeadlessHarness.session(app.definition, directories: directories)
        defer { Task { await session.stop() } }
        let feed = try #require(session.shell?.currentScreen as? FeedScreen)
        let server = try #require(session.app?.service(.embeddedBackend)?.embeddedTransport?.server)
        try await Self.post(3, on: server)

        // When the person pulls to refresh, then reads on down before it lands
        _ = session.shell?.handle(.character("k"))
        _ = session.shell?.handle(.character("j"))
        _ = session.shell?.handle(.character("j"))
        let reading = try #require(feed.postList.selectedItem)
        let readingIndex = try #require(feed.postList.selectedIndex)
        let readingHeader = selectedHeader(HeadlessHarness.frame(of: session))
        #expect(readingIndex == 2)
        await session.settle()

        // Then the same post stays selected, three new posts above it, and a marker says so once
        #expect(feed.items.prefix(3).map(\.media.text) == Self.texts(3).reversed())
        #expect(feed.postList.selectedItem?.id == reading.id)
        #expect(feed.postList.selectedIndex == readingIndex + 3)
        var frame = HeadlessHarness.frame(of: session)
        let markers = Self.markerLines(frame, "3 new posts ↑")
        #expect(markers.count == 1)
        #expect(lines(frame).firstIndex { markers.first == $0 } == 2, "first line of the list area")
        #expect(selectedHeader(frame) == readingHeader)

        // The marker stays while they read on
        _ = session.shell?.handle(.character("j"))
        await session.settle()
        frame = HeadlessHarness.frame(of: session)
        #expect(Self.markerLines(frame, "3 new posts ↑").count == 1)

        // When they jump to the newest
        _ = session.shell?.handle(.character("g"))
        await session.settle()

        // Then the newest post is selected and the marker is gone
        #expect(feed.postList.selectedIndex == 0)
        #expect(feed.postList.selectedItem?.media.text == Self.texts(3).last)
        frame = HeadlessHarness.frame(of: session)
        #expect(Self.markerLines(frame, "3 new posts ↑").isEmpty)
        #expect(selectedHeader(frame)?.contains("@grace") == true)
    }

    @Test(arguments: ShippedApp.withHome)
    func oneNewPost_saysPostInTheSingular(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let (session, _) = try await HeadlessHarness.session(app.definition, directories: directories)
        defer { Task { await session.stop() } }
        let feed = try #require(session.shell?.currentScreen as? FeedScreen)
        let server = try #require(session.app?.service(.embeddedBackend)?.embeddedTransport?.server)
        try await Self.post(1, on: server)

        _ = session.shell?.handle(.character("k"))
        _ = session.shell?.handle(.character("j"))
        await session.settle()

        let frame = HeadlessHarness.frame(of: session)
        #expect(feed.postList.selectedIndex == 2)
        #expect(Self.markerLines(frame, "1 new post ↑").count == 1)

        // Going up through the new post reaches the top: the marker goes
        _ = session.shell?.handle(.character("k"))
        _ = session.shell?.handle(.character("k"))
        await session.settle()
        #expect(feed.postList.selectedIndex == 0)
        #expect(Self.markerLines(HeadlessHarness.frame(of: session), "1 new post ↑").isEmpty)
    }

    /// A refresh that brings 50 posts in above the place the person is reading redraws at most
    /// two lines: the marker saying how many are above, and the line it takes. The posts the
    /// person reads stay where they were on the screen.
    @Test(arguments: ShippedApp.withHome)
    func fiftyNewPostsAbove_redrawAtMostTwoLines(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let (session, _) = try await HeadlessHarness.session(app.definition, directories: directories)
        defer { Task { await session.stop() } }
        let feed = try #require(session.shell?.currentScreen as? FeedScreen)
        for _ in 0..<5 { _ = session.shell?.handle(.down) }
        await session.settle()
        let before = lines(HeadlessHarness.frame(of: session))
        // (as a terminal is sent it: styles count too)
        let screen = Screen(size: TerminalSize(columns: 80, rows: 24), colorMode: .trueColor)
        screen.buffer = session.render().buffer
        _ = screen.commit()
        let server = try #require(session.app?.service(.embeddedBackend)?.embeddedTransport?.server)
        try await Self.post(50, on: server)

        feed.refresh()
        await session.settle()

        let after = lines(HeadlessHarness.frame(of: session))
        screen.buffer = session.render().buffer
        let sent = screen.commit().changedLineCount
        #expect(sent <= 2, "\(app.id): \(sent) lines sent to the terminal")
        let changed = zip(before, after).enumerated().filter { $0.element.0 != $0.element.1 }
        #expect(
            changed.count <= 2,
            "\(app.id): \(changed.count) lines changed: \(changed.map { "\($0.offset): \($0.element.0) → \($0.element.1)" }.joined(separator: "\n"))"
        )
    }
}
