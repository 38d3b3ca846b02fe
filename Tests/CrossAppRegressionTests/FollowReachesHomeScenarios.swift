import AppRuntime
import AppTesting
@_spi(Testing) import Backend
import Composition
import Features
import Foundation
import MediaModel
import Mutations
import Sockets
import TerminalUI
import Testing
import Wire

/// A follow or an unfollow, once the server confirmed it, changes what Home shows: the account's
/// recent posts come in place by time (and go after an unfollow), however far Home was paged
/// before, and across a relaunch.
///
/// The seed's hedy does not follow grace, whose recent posts are older than Home's first page:
/// they fall inside the part of Home already loaded, which a refresh of the newest page alone
/// never fetches again.
@Suite @MainActor struct FollowReachesHomeScenarios {
    /// The seed account the person is.
    static let viewer = "hedy"
    /// The seed account they follow, then unfollow.
    static let followee = "grace"

    /// How the person reaches the moment they follow, and what they do before quitting.
    struct Journey: Sendable, CustomTestStringConvertible {
        /// Whether Home is paged to its end ("You're all caught up") before the follow.
        var pagesToTheEnd: Bool
        /// Whether Home is refreshed (g, ↑) after each change before the app is quit.
        var refreshesBeforeQuitting: Bool

        var testDescription: String {
            (pagesToTheEnd ? "paged to the end" : "first page only")
                + (refreshesBeforeQuitting ? ", refreshed" : ", quit before refreshing")
        }
    }

    /// Launches `app` signed in as the viewer (40 rows: the end-of-feed line fits under a
    /// photo post).
    static func launch(_ app: ShippedApp, _ directories: TestDirectories) async throws -> AppSession {
        try await HeadlessHarness.session(
            app.definition, directories: directories, height: 40, extraArguments: ["--user", viewer]
        ).session
    }

    /// The viewer's whole home feed as the server holds it now, newest first, as the app's feed
    /// policy shows it (its kinds, and replies only where it shows them).
    static func serverHome(_ app: ShippedApp, in session: AppSession) async throws -> [FeedEntry] {
        let transport = try #require(session.app?.service(.embeddedBackend)?.embeddedTransport)
        let token = transport.server.testToken(forHandle: viewer)
        let policy = try #require(app.feed, "\(app.id) has a feed policy")
        var entries: [FeedEntry] = []
        var cursor: String?
        repeat {
            var query = [QueryItem("limit", "100")]
            if let cursor { query.append(QueryItem("cursor", cursor)) }
            let response = await transport.server.handle(
                Request(.get, "/v1/feed", query: query, headers: ["Authorization": "Bearer \(token)"]))
            try #require(response.status == 200, "GET /v1/feed answered \(response.status)")
            let page = try WireFormat.decode(FeedPage.self, from: response.body).payload
            entries += page.entries
            cursor = page.nextCursor
        } while cursor != nil && entries.count < 5_000
        return entries.filter { policy.shows($0.media.kind) && (policy.showsReplies || !$0.isReply) }
    }

    /// Whether an entry is one of the followee's own posts (not someone's repost of one).
    static func isFolloweesOwn(_ entry: FeedEntry) -> Bool {
        if case .repost = entry.context { return false }
        return entry.media.author.handle == followee
    }

    /// Presses G until Home holds at least `count` posts or nothing more arrives.
    static func load(atLeast count: Int, of feed: FeedScreen, in session: AppSession) async {
        var previous = -1
        while feed.items.count < count, feed.items.count != previous {
            previous = feed.items.count
            await BoundaryScenarios.press(.character("G"), in: session)
        }
    }

    /// Follows or unfollows the followee through Find people, as a person does, waits for the
    /// server to confirm it, and goes back to Home (esc, esc), without refreshing it.
    static func toggleFollow(following: Bool, in session: AppSession, place: String) async throws {
        let shell = try #require(session.shell)
        let profile = try await BoundaryScenarios.openProfile(of: followee, in: session)
        let key = following ? "follow" : "unfollow"
        #expect(profile.keyBindings.contains { $0.does == key }, "\(place): f would \(key)")
        await BoundaryScenarios.press(.character("f"), in: session)
        #expect(shell.context.manager.pending.isEmpty, "\(place): the \(key) was sent")
        #expect(shell.context.manager.failed.isEmpty, "\(place): and confirmed")
        let counts = SocialScenarios.countsLine(HeadlessHarness.frame(of: session)) ?? ""
        #expect(counts.hasSuffix("· you follow") == following, "\(place): the profile says it: \(counts)")
        _ = shell.handle(.escape)
        _ = shell.handle(.escape)
        #expect(shell.currentScreen is FeedScreen, "\(place): esc, esc is Home")
    }

    /// Refreshes Home as a person does (g, ↑), then checks it against the server's feed: the
    /// followee's recent posts there (`following`) or not (`!following`), each post once, in the
    /// server's order, the followee's newest between the same neighbours as on the server.
    ///
    /// Home changes at that refresh (or a launch's), not before: the keys go in with the ones
    /// that came back to Home, so the oracle looks at Home once it is refreshed.
    static func checkHome(
        _ app: ShippedApp, following: Bool, in session: AppSession, place: String
    ) async throws {
        let shell = try #require(session.shell)
        let feed = try #require(shell.currentScreen as? FeedScreen, "\(place): Home")
        _ = shell.handle(.character("g"))
        _ = shell.handle(.character("k"))
        await session.settle()
        let truth = try await serverHome(app, in: session)
        let theirs = truth.indices.filter { isFolloweesOwn(truth[$0]) }
        if following {
            // (The journey means something only when the server's feed has their posts.)
            let newest = try #require(theirs.first, "\(place): the server's feed has @\(followee)'s posts")
            try #require(newest > 0 && newest + 1 < truth.count, "\(place): with posts around it")
            await load(atLeast: newest + 2, of: feed, in: session)
        } else {
            #expect(theirs.isEmpty, "\(place): the server's feed has none of @\(followee)'s posts")
        }
        let shown = feed.items.map(\.id)
        #expect(Set(shown).count == shown.count, "\(place): no post twice")
        let expected = Array(truth.prefix(shown.count).map(\.id.rawValue))
        let difference = zip(shown, expected).enumerated().first { $0.element.0 != $0.element.1 }.map {
            "#\($0.offset) is \($0.element.0), the server's \($0.element.1)"
        }
        #expect(
            shown == expected,
            "\(place): Home's \(shown.count) posts are the server's, in its order; \(difference ?? "")")
        let shownTheirs = feed.items.filter { $0.media.author.handle == followee && !isRepost($0.context) }
        guard following else {
            #expect(
                shownTheirs.isEmpty, "\(place): none of @\(followee)'s posts on Home: \(shownTheirs.count)")
            return
        }
        // Their newest post is on Home, between the posts just newer and just older on the server.
        let newest = try #require(theirs.first)
        let missing =
            "@\(followee)'s newest post (\(truth[newest].id.rawValue), #\(newest) on the server) is on Home, "
            + "which holds \(shown.count) posts, \(shownTheirs.count) of them @\(followee)'s"
        let index = try #require(shown.firstIndex(of: truth[newest].id.rawValue), "\(place): \(missing)")
        try #require(index > 0 && index + 1 < shown.count)
        #expect(shown[index - 1] == truth[newest - 1].id.rawValue, "\(place): the post just newer")
        #expect(shown[index + 1] == truth[newest + 1].id.rawValue, "\(place): the post just older")
        let loadedOnServer = theirs.filter { $0 < shown.count }.count
        #expect(shownTheirs.count == loadedOnServer, "\(place): every one of theirs in the range loaded")
    }

    /// Whether a post is shown as someone's repost.
    static func isRepost(_ context: FeedEntry.Context) -> Bool {
        if case .repost = context { return true }
        return false
    }

    /// The journey: Home (paged to its end or not), follow, Home; relaunch, Home; unfollow, Home;
    /// relaunch, Home.
    func followThenUnfollow(_ app: ShippedApp, _ journey: Journey) async throws {
        // Given the viewer, who does not follow the followee, on Home
        let directories = try TestDirectories.make()
        var session = try await Self.launch(app, directories)
        // (Stops the session last launched, however the journey ends.)
        defer { Task { [session] in await session.stop() } }
        var place = "\(app.id), \(journey.testDescription)"
        let shell = try #require(session.shell)
        let feed = try #require(shell.currentScreen as? FeedScreen)
        let before = try await Self.serverHome(app, in: session)
        #expect(
            !before.contains(where: Self.isFolloweesOwn),
            "\(place): @\(Self.viewer) does not follow @\(Self.followee) yet")
        if journey.pagesToTheEnd {
            await BoundaryScenarios.goToTheEnd(of: feed.postList, in: session)
            await BoundaryScenarios.press(.character("G"), in: session)
            let frame = HeadlessHarness.frame(of: session)
            #expect(
                frame.contains(FeedPagingScenarios.endMarker), "\(place): Home paged to its end:\n\(frame)")
            #expect(feed.items.count == before.count, "\(place): every post loaded")
        }

        // When they follow the followee, and refresh Home once it is confirmed
        try await Self.toggleFollow(following: true, in: session, place: place + ", follow")
        if journey.refreshesBeforeQuitting {
            // Then Home shows the followee's recent posts in place
            try await Self.checkHome(app, following: true, in: session, place: place + ", after the follow")
        }
        // And after a relaunch too
        await session.stop()
        session = try await Self.launch(app, directories)
        place += ", relaunched"
        try await Self.checkHome(app, following: true, in: session, place: place + " after the follow")

        // When they unfollow
        try await Self.toggleFollow(following: false, in: session, place: place + ", unfollow")
        if journey.refreshesBeforeQuitting {
            // Then the followee's posts are gone from Home
            try await Self.checkHome(
                app, following: false, in: session, place: place + ", after the unfollow")
        }
        // And after a relaunch too
        await session.stop()
        session = try await Self.launch(app, directories)
        try await Self.checkHome(app, following: false, in: session, place: place + ", relaunched again")
    }

    @Test(arguments: ShippedApp.withHome)
    func afterPagingHomeToItsEnd_aConfirmedFollowBringsTheirRecentPostsInPlace_andUnfollowTakesThemAway(
        app: ShippedApp
    ) async throws {
        try await followThenUnfollow(app, Journey(pagesToTheEnd: true, refreshesBeforeQuitting: true))
    }

    @Test(arguments: ShippedApp.withHome)
    func onTheFirstPageOnly_aConfirmedFollowBringsTheirRecentPostsInPlace_andUnfollowTakesThemAway(
        app: ShippedApp
    ) async throws {
        try await followThenUnfollow(app, Journey(pagesToTheEnd: false, refreshesBeforeQuitting: true))
    }

    @Test(arguments: ShippedApp.withHome)
    func aFollowConfirmedJustBeforeQuitting_changesHomeAtTheNextLaunch(app: ShippedApp) async throws {
        try await followThenUnfollow(app, Journey(pagesToTheEnd: true, refreshesBeforeQuitting: false))
    }
}
