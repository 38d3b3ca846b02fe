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

/// The viewer's own post as a person sees it: once posted and confirmed, it stays on Home when
/// they look at their profile and come back, until the feed itself has it.
@Suite @MainActor struct OwnPostScenarios {
    @Test(arguments: ShippedApp.withHome)
    func ownPost_staysOnHome_afterVisitingTheProfileAndComingBack(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let (session, _) = try await HeadlessHarness.session(app.definition, directories: directories)
        let text = "Kettle on, \(app.id) post"
        session.shell?.openTab(.compose)
        // A photo when the app's Home leaves text-only posts out (or its composer needs one).
        let registry = try #require(session.shell?.context.registry)
        if !registry[.feedPolicy].shows(.text) || registry[.composerPolicy].media == .required {
            try TestPhotos.attachSample(in: session.shell)
        }
        for character in text { _ = session.shell?.handle(.character(character)) }
        _ = session.shell?.handle(.enter)
        await session.settle()
        session.shell?.openTab(.home)
        await session.settle()
        let posted = HeadlessHarness.frame(of: session)

        session.shell?.openTab(.profile)
        await session.settle()
        let profile = HeadlessHarness.frame(of: session)
        session.shell?.openTab(.home)
        await session.settle()
        let back = HeadlessHarness.frame(of: session)
        await session.stop()

        #expect(posted.contains(text), "\(app.id): Home shows the post once confirmed:\n\(posted)")
        #expect(profile.contains(text), "\(app.id): the profile shows it:\n\(profile)")
        #expect(back.contains(text), "\(app.id): Home still shows it after the profile:\n\(back)")
        #expect(back.components(separatedBy: text).count == 2, "\(app.id): shown once:\n\(back)")
    }

    /// "posting…" says what is happening while it happens: once the server has the post, the
    /// status line no longer says it.
    @Test(arguments: ShippedApp.all)
    func postingMessage_clearsOnceThePostIsConfirmed(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let (session, _) = try await HeadlessHarness.session(app.definition, directories: directories)
        session.shell?.openTab(.compose)
        let registry = try #require(session.shell?.context.registry)
        if registry[.composerPolicy].media == .required {
            try TestPhotos.attachSample(in: session.shell)
        }
        for character in "Short and sweet" { _ = session.shell?.handle(.character(character)) }
        _ = session.shell?.handle(.enter)
        await session.settle()
        let frame = HeadlessHarness.frame(of: session)
        let manager = try #require(session.shell?.context.manager)
        await session.stop()

        #expect(manager.pending.isEmpty, "\(app.id): the post is confirmed")
        let lines = frame.split(separator: "\n", omittingEmptySubsequences: false)
        let status = lines.count >= 2 ? String(lines[lines.count - 2]) : ""
        #expect(!status.contains("posting"), "\(app.id)'s status line after confirmation: \(status)")
    }

    /// A post written from a thread (or a profile) says it was posted once the server has it,
    /// and going back to Home shows it on top, selected, not below the old top post.
    @Test(arguments: ShippedApp.withHome)
    func aPostWrittenFromAThread_saysPosted_andHomeShowsItOnReturn(app: ShippedApp) async throws {
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: try TestDirectories.make())
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        let feed = try #require(shell.currentScreen as? FeedScreen)
        _ = shell.handle(.character("j"))
        _ = shell.handle(.enter)
        await session.settle()
        #expect(shell.currentScreen is ThreadScreen, "\(app.id) opened a thread")

        // When a new post is written from there
        let text = "Written from a thread, \(app.id)"
        _ = shell.handle(.character("n"))
        if shell.context.registry[.composerPolicy].media == .required {
            try TestPhotos.attachSample(in: shell)
        }
        for character in text { _ = shell.handle(.character(character)) }
        _ = shell.handle(.enter)
        await session.settle()

        // Then the status line says it was posted
        let frame = HeadlessHarness.frame(of: session)
        #expect(DeleteScenarios.status(frame).hasPrefix("posted"), "\(app.id):\n\(frame)")

        // And back on Home, it is the first post, selected
        while shell.currentScreen !== feed, shell.currentScreen is ThreadScreen { _ = shell.handle(.escape) }
        shell.openTab(.home)
        await session.settle()
        #expect(shell.currentScreen === feed)
        #expect(feed.items.first?.media.text == text, "\(app.id): \(feed.items.prefix(2).map(\.media.text))")
        #expect(feed.postList.selectedIndex == 0, "\(app.id): the new post is selected")
    }

    /// A reply on the viewer's profile says what it answers: the parent above it where the app
    /// shows parents in lists, else one line naming the parent's author and its first words. A
    /// reply that says nothing of its parent reads as a post of its own.
    @Test(arguments: ShippedApp.all)
    func aReplyOnTheProfile_saysWhatItAnswers(app: ShippedApp) async throws {
        // Given a post by @grace and the viewer's reply to it
        let directories = try TestDirectories.make()
        let server = try directories.openBackend()
        let parent = try await BackendFixtures.post(
            on: server, as: "grace", text: "Tide pools at dawn are the best pools")
        try await BackendFixtures.reply(on: server, as: "ada", to: parent, text: "Agreed, every time")
        server.close()
        let (session, _) = try await HeadlessHarness.session(app.definition, directories: directories)
        defer { Task { await session.stop() } }

        // When the viewer opens their profile
        session.shell?.openTab(.profile)
        await session.settle()
        let profile = lines(HeadlessHarness.frame(of: session))

        // Then right above the reply (within its post), @grace and her first words are named
        let reply = try #require(
            profile.firstIndex { $0.contains("Agreed, every time") }, "\(app.id):\n\(profile.all)")
        let above = profile.all[max(0, reply - 5)..<reply]
        #expect(
            above.contains { $0.contains("@grace") || $0.contains("Grace") }
                && above.contains { $0.contains("Tide pools") },
            "\(app.id): the reply names what it answers:\n\(profile.all)")
    }
}
