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
/// profile on the tab's stack, and esc comes back to the same place.
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

    @Test(arguments: ShippedApp.all)
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

    @Test(arguments: ShippedApp.all)
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

    @Test(arguments: ShippedApp.all)
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
        let shell = try #require(session.shell)
        shell.openTab(.profile)
        await session.settle()
        let profile = try #require(shell.currentScreen as? ProfileScreen)
        #expect(profile.title == "@" + BackendSeed.firstHandle)
        #expect(!profile.keyBindings.contains { $0.does == "follow" || $0.does == "unfollow" })
    }
}
