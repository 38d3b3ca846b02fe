import AppRuntime
import AppTesting
import Backend
import Composition
import Features
import Foundation
import MediaModel
import Mutations
import Sockets
import TerminalUI
import Testing
import Wire

/// Other people as a person meets them: `p` on a post (or an Activity row) opens its author's
/// profile on the tab's stack, esc comes back to the same place, and `f` follows or unfollows,
/// which Home's next refresh reflects.
@Suite @MainActor struct SocialScenarios {
    /// The selected post's author on the screen shown, if it lists posts.
    static func selectedAuthor(_ session: AppSession) -> String? {
        let screen = session.shell?.currentScreen
        let item =
            (screen as? FeedScreen)?.postList.selectedItem ?? (screen as? ThreadScreen)?.postList.selectedItem
            ?? (screen as? ProfileScreen)?.postList.selectedItem
        return item?.media.author.handle
    }

    /// The profile's header counts line of a frame ("1 post · 0 followers · …").
    static func countsLine(_ frame: String) -> String? {
        lines(frame).first { $0.contains(" post") && $0.contains(" follower") }.map {
            $0.trimmingCharacters(in: .whitespaces)
        }
    }

    @Test(arguments: ShippedApp.withHome)
    func pOnAHomePost_opensItsAuthorsProfile_andEscReturnsToTheSamePost(app: ShippedApp) async throws {
        // Given Home with the second post selected
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: try TestDirectories.make())
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        _ = shell.handle(.character("j"))
        await session.settle()
        let before = HeadlessHarness.frame(of: session)
        let selected = try #require(selectedHeader(before), "a post is selected:\n\(before)")
        let author = try #require(Self.selectedAuthor(session))

        // When the person presses p
        _ = shell.handle(.character("p"))
        await session.settle()
        let profileFrame = HeadlessHarness.frame(of: session)

        // Then the author's profile is shown, listing only their posts, on Home's stack
        let profile = try #require(
            shell.currentScreen as? ProfileScreen, "p opens a profile:\n\(profileFrame)")
        #expect(profile.title == "@" + author)
        #expect(lines(profileFrame).first?.contains("· @\(author)") == true, "title bar:\n\(profileFrame)")
        #expect(!profile.items.isEmpty)
        #expect(
            profile.items.allSatisfy { $0.media.author.handle == author },
            "the profile lists the author's posts")
        #expect(shell.tabs[shell.activeTab].destination == .home, "it is pushed on Home's tab")

        // When they press esc, Home is back with the same post selected
        _ = shell.handle(.escape)
        await session.settle()
        let after = HeadlessHarness.frame(of: session)
        #expect(shell.currentScreen is FeedScreen, "esc returns to Home:\n\(after)")
        #expect(selectedHeader(after) == selected, "the same post stays selected:\n\(after)")
        #expect(
            lines(after).filter { $0.hasPrefix("▌") } == lines(before).filter { $0.hasPrefix("▌") },
            "the whole post is selected, as before")
        #expect(lines(after).dropLast(2) == lines(before).dropLast(2), "Home is as it was:\n\(after)")
    }

    @Test(arguments: ShippedApp.withHome)
    func pInAThread_opensTheSelectedPostsAuthor_andEscReturnsToTheThread(app: ShippedApp) async throws {
        // Given a thread opened from Home's first post
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: try TestDirectories.make())
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        _ = shell.handle(.enter)
        await session.settle()
        let thread = try #require(shell.currentScreen as? ThreadScreen)
        let author = try #require(Self.selectedAuthor(session))
        let before = HeadlessHarness.frame(of: session)

        // When the person presses p, then esc
        _ = shell.handle(.character("p"))
        await session.settle()
        let profile = shell.currentScreen as? ProfileScreen
        #expect(profile?.title == "@" + author, "p opens @\(author):\n\(HeadlessHarness.frame(of: session))")
        _ = shell.handle(.escape)
        await session.settle()

        // Then the same thread is back, as it was
        #expect(shell.currentScreen === thread)
        #expect(selectedHeader(HeadlessHarness.frame(of: session)) == selectedHeader(before))
        _ = shell.handle(.escape)
        await session.settle()
        #expect(shell.currentScreen is FeedScreen, "and esc again is Home")
    }

    @Test(arguments: ShippedApp.withHome)
    func pOnAnActivityRow_opensTheActorsProfile_andEscReturnsToActivity(app: ShippedApp) async throws {
        // Given Grace liked the viewer's post just now (the first Activity row)
        let directories = try TestDirectories.make()
        let backend = try directories.openBackend()
        let post = try await BackendFixtures.post(
            on: backend, as: BackendSeed.firstHandle, text: "Kelp forest for \(app.id)")
        try await BackendFixtures.like(on: backend, as: "grace", post)
        backend.close()
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: directories, height: 30)
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        shell.openTab(.activity)
        await session.settle()
        _ = shell.handle(.character("j"))
        _ = shell.handle(.character("k"))
        let before = HeadlessHarness.frame(of: session)
        #expect(selectedHeader(before)?.contains("(@grace) liked your post") == true, "\(before)")

        // When the person presses p
        _ = shell.handle(.character("p"))
        await session.settle()
        let frame = HeadlessHarness.frame(of: session)

        // Then Grace's profile is shown on the Activity tab
        let profile = try #require(shell.currentScreen as? ProfileScreen, "p opens a profile:\n\(frame)")
        #expect(profile.title == "@grace")
        #expect(shell.tabs[shell.activeTab].destination == .activity)
        #expect(profile.items.allSatisfy { $0.media.author.handle == "grace" }, "\(frame)")

        // When esc, Activity is back with the same row selected
        _ = shell.handle(.escape)
        await session.settle()
        let after = HeadlessHarness.frame(of: session)
        #expect(shell.currentScreen is ActivityScreen)
        #expect(selectedHeader(after) == selectedHeader(before), "\(after)")
    }

    @Test(arguments: ShippedApp.all)
    func theViewersOwnProfileTab_stillShowsTheirProfile_withNoFollowKey(app: ShippedApp) async throws {
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: try TestDirectories.make())
        defer { Task { await session.stop() } }
        let profile = try await HeadlessHarness.openOwnProfile(in: session)
        #expect(profile.title == "@" + BackendSeed.firstHandle)
        #expect(!profile.keyBindings.contains { $0.does == "follow" || $0.does == "unfollow" })
    }

    /// Opens the first Activity row's actor's profile (`p`) and returns the frame.
    static func openFirstActorsProfile(_ session: AppSession) async throws -> String {
        let shell = try #require(session.shell)
        shell.openTab(.activity)
        await session.settle()
        _ = shell.handle(.character("g"))
        _ = shell.handle(.character("p"))
        await session.settle()
        return HeadlessHarness.frame(of: session)
    }

    /// Refreshes Home from its top (`g`, then `k` at the top) and returns its posts' authors and
    /// texts, in order.
    static func refreshedHome(_ session: AppSession) async throws -> [(author: String, text: String)] {
        let shell = try #require(session.shell)
        shell.openTab(.home)
        await session.settle()
        _ = shell.handle(.character("g"))
        _ = shell.handle(.character("k"))
        await session.settle()
        let feed = try #require(shell.currentScreen as? FeedScreen)
        return feed.items.map { ($0.media.author.handle, $0.media.text) }
    }

    /// The follower count on a counts line.
    static func followers(_ counts: String?) -> Int? {
        guard let counts, let range = counts.firstRange(of: /· (\d+) followers? ·/) else { return nil }
        return Int(counts[range].dropFirst(2).prefix { $0.isNumber })
    }

    @Test(arguments: ShippedApp.withHome)
    func fOnAProfile_followsAtOnce_andHomesRefreshShowsTheirPost_thenUnfollowStopsNewOnes(app: ShippedApp)
        async throws
    {
        // Given an account the viewer does not follow (the seed's alan), with a new post, who liked
        // the viewer's post (photo posts: both apps' feeds show them)
        let directories = try TestDirectories.make()
        var backend = try directories.openBackend()
        let mine = try await BackendFixtures.post(
            on: backend, as: BackendSeed.firstHandle, text: "Tide pools",
            attachmentsJSON: BackendFixtures.photoJSON)
        _ = try await BackendFixtures.post(
            on: backend, as: "alan", text: "Alan's first kelp note \(app.id)",
            attachmentsJSON: BackendFixtures.photoJSON)
        try await BackendFixtures.like(on: backend, as: "alan", mine)
        backend.close()
        var (session, clock) = try await HeadlessHarness.session(app.definition, directories: directories)
        let home = try await Self.refreshedHome(session)
        #expect(home.first?.text == "Tide pools", "Home's newest is the viewer's own post")
        #expect(
            !home.contains { $0.text.contains("kelp note") }, "Home does not show an account not followed")

        // When the viewer opens Alan's profile from Activity
        let profileFrame = try await Self.openFirstActorsProfile(session)
        let shell = try #require(session.shell)
        let profile = try #require(shell.currentScreen as? ProfileScreen, "\(profileFrame)")
        #expect(profile.title == "@alan")
        let counts = try #require(Self.countsLine(profileFrame), "\(profileFrame)")
        let followers = try #require(Self.followers(counts), "\(counts)")
        #expect(!counts.contains("you follow"))
        #expect(KeyHelpScenarios.footer(of: session).contains("f follow"), "the footer says what f does")

        // And presses f, while the server answers its first send "retry in a minute"
        let transport = try #require(session.app?.service(.embeddedBackend)?.embeddedTransport)
        transport.injectFaults([.rateLimited(retryAfter: .seconds(60))])
        _ = shell.handle(.character("f"))
        await session.settle()
        let followed = HeadlessHarness.frame(of: session)
        #expect(session.shell?.context.manager.pending.count == 1, "not sent yet")
        _ = clock.advance(by: .seconds(61))
        await session.settle()
        let confirmed = HeadlessHarness.frame(of: session)
        #expect(session.shell?.context.manager.pending.isEmpty == true, "sent")

        // Then the follow shows at once and stays once confirmed, and f now unfollows
        let following =
            counts.replacingOccurrences(
                of: "· \(followers) follower", with: "· \(followers + 1) follower") + " · you follow"
        #expect(Self.countsLine(followed) == following, "at once:\n\(followed)")
        #expect(Self.countsLine(confirmed) == following, "confirmed:\n\(confirmed)")
        #expect(KeyHelpScenarios.footer(of: session).contains("f unfollow"))
        #expect(session.shell?.context.manager.failed.isEmpty == true)

        // And Home's refresh brings Alan's new post, the newest, selected at the top
        let afterFollow = try await Self.refreshedHome(session)
        #expect(
            afterFollow.filter { $0.text.contains("kelp note") }.map(\.text) == [
                "Alan's first kelp note \(app.id)"
            ])
        #expect(afterFollow.first?.author == "alan", "the newest post: \(afterFollow.prefix(3))")
        #expect(afterFollow.dropFirst().first?.text == "Tide pools", "then the viewer's own, as before")

        // When the viewer unfollows Alan
        _ = try await Self.openFirstActorsProfile(session)
        _ = session.shell?.handle(.character("f"))
        await session.settle()
        let unfollowed = HeadlessHarness.frame(of: session)
        #expect(Self.countsLine(unfollowed) == counts, "\(unfollowed)")
        #expect(KeyHelpScenarios.footer(of: session).contains("f follow"))
        await session.stop()

        // And Alan posts again
        backend = try directories.openBackend()
        _ = try await BackendFixtures.post(
            on: backend, as: "alan", text: "Alan's second kelp note \(app.id)",
            attachmentsJSON: BackendFixtures.photoJSON)
        backend.close()
        (session, _) = try await HeadlessHarness.session(app.definition, directories: directories)
        defer { Task { await session.stop() } }

        // Then Home's refresh does not bring the new post
        let afterUnfollow = try await Self.refreshedHome(session)
        #expect(!afterUnfollow.contains { $0.text.hasPrefix("Alan's second") }, "\(afterUnfollow.prefix(3))")
        #expect(afterUnfollow.first?.text == "Tide pools", "the newest post shown is the viewer's own")
        #expect(!afterUnfollow.contains { $0.author == "alan" && $0.text.contains("kelp note") })
    }

    @Test(arguments: ShippedApp.withHome)
    func aFollowTheServerRefuses_isRolledBack_andTheProfileSaysWhy(app: ShippedApp) async throws {
        // Given Alan's profile (not followed), opened from his like in Activity
        let directories = try TestDirectories.make()
        let backend = try directories.openBackend()
        let mine = try await BackendFixtures.post(
            on: backend, as: BackendSeed.firstHandle, text: "Tide pools")
        try await BackendFixtures.like(on: backend, as: "alan", mine)
        backend.close()
        let (session, _) = try await HeadlessHarness.session(app.definition, directories: directories)
        defer { Task { await session.stop() } }
        let before = try await Self.openFirstActorsProfile(session)
        let counts = try #require(Self.countsLine(before), "\(before)")

        // When the server refuses the follow
        let transport = try #require(session.app?.service(.embeddedBackend)?.embeddedTransport)
        transport.injectFaults([.serverError(status: 403)])
        _ = session.shell?.handle(.character("f"))
        await session.settle()
        let after = HeadlessHarness.frame(of: session)

        // Then the counts are as before, f still follows, and the status line says it failed
        #expect(Self.countsLine(after) == counts, "rolled back:\n\(after)")
        #expect(session.shell?.context.manager.failed.count == 1)
        let status = lines(after).dropLast().last.map(String.init) ?? ""
        #expect(
            status == "✕ could not follow @alan · Sync (\(app.syncKey)) says why and retries",
            "status line: \(status)")
        let footer = KeyHelpScenarios.footer(of: session)
        #expect(footer == status, "the status replaces the footer until a key")
        let (_, keys) = try #require(
            (session.shell?.currentScreen as? ProfileScreen).map { ($0, $0.keyBindings) })
        #expect(keys.contains { $0.does == "follow" })
    }

    /// The Sync tab's line for the change titled `title` and the line under it (its problem).
    static func syncEntry(_ title: String, in frame: String) -> (line: String, problem: String)? {
        let rows = lines(frame).map(String.init)
        guard let index = rows.firstIndex(where: { $0.contains(title) }) else { return nil }
        let problem = rows.indices.contains(index + 1) ? rows[index + 1] : ""
        return (rows[index], problem.trimmingCharacters(in: .whitespaces))
    }

    @Test(arguments: ShippedApp.withHome)
    func aRefusedFollow_isNamedByTheAccountInSync_withAReasonAboutFollowing(app: ShippedApp) async throws {
        // Given Alan's profile (not followed), opened from his like in Activity
        let directories = try TestDirectories.make()
        let backend = try directories.openBackend()
        let mine = try await BackendFixtures.post(
            on: backend, as: BackendSeed.firstHandle, text: "Tide pools")
        try await BackendFixtures.like(on: backend, as: "alan", mine)
        backend.close()
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: directories, height: 30)
        defer { Task { await session.stop() } }
        _ = try await Self.openFirstActorsProfile(session)

        // When the server refuses the follow (403)
        let transport = try #require(session.app?.service(.embeddedBackend)?.embeddedTransport)
        transport.injectFaults([.serverError(status: 403)])
        _ = session.shell?.handle(.character("f"))
        await session.settle()
        _ = session.shell?.handle(.character(app.syncKey))
        await session.settle()
        let sync = HeadlessHarness.frame(of: session)

        // Then Sync names the account, and says why in words about following, not about posts
        let entry = try #require(Self.syncEntry("follow ·", in: sync), "\(app.id):\n\(sync)")
        #expect(entry.line.contains("✕ follow · @alan "), "\(entry.line)")
        #expect(entry.problem == "not allowed: the server does not let you follow @alan", "\(sync)")
        #expect(!sync.contains("post's author"), "\(sync)")
        #expect(sync.contains("Changes: 0 pending, 1 failed"))
    }

    @Test(arguments: ShippedApp.withHome)
    func anUnfollowWaitingForTheNetwork_isNamedByTheAccountInSync(app: ShippedApp) async throws {
        // Given the profile of someone the viewer follows, opened from Home
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: try TestDirectories.make(), height: 30)
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        let feed = try #require(shell.currentScreen as? FeedScreen)
        let followed = try #require(
            feed.items.first { item in
                if case .repost = item.context { return false }
                return item.media.author.handle != BackendSeed.firstHandle
            })
        try await DeleteScenarios.select(followed.media.text, in: feed.postList, session: session)
        _ = shell.handle(.character("p"))
        await session.settle()
        let handle = followed.media.author.handle
        let profile = try #require(shell.currentScreen as? ProfileScreen)
        #expect(profile.keyBindings.contains { $0.does == "unfollow" }, "the viewer follows @\(handle)")

        // When the viewer unfollows while offline
        shell.context.faultControl?.setFaultProfile(.offline)
        session.networkDidChange()
        _ = shell.handle(.character("f"))
        await session.settle()
        _ = shell.handle(.character(app.syncKey))
        await session.settle()
        let sync = HeadlessHarness.frame(of: session)

        // Then Sync lists the waiting unfollow by the account's handle
        let entry = try #require(Self.syncEntry("unfollow ·", in: sync), "\(app.id):\n\(sync)")
        #expect(entry.line.contains("⋯ unfollow · @\(handle) "), "\(entry.line)")
        #expect(sync.contains("Changes: 1 pending, 0 failed"), "\(sync)")
    }
}
