import AppTesting
import Backend
import Composition
import Features
import Foundation
import Sockets
import Testing

/// The behaviors each kind of app demonstrates in headless mode, one script each, run for every
/// app whose registry says it is of that kind.
@Suite @MainActor struct HeadlessBehaviorTests {
    // MARK: A text-first app: text posts, replies under their parents

    @Test(arguments: ShippedApp.withHome.filter { $0.showsTextPosts && $0.showsReplyParent })
    func home_showsTextPostsFirstClassAndRepliesUnderTheirParentWithThreadlines(app: ShippedApp) async throws
    {
        let directories = try TestDirectories.make()
        let server = try directories.openBackend()
        let parent = try await BackendFixtures.post(on: server, as: "grace", text: "Which editor do you use?")
        try await BackendFixtures.reply(
            on: server, as: "donald", to: parent, text: "A line editor, of course.")
        server.close()

        let run = await HeadlessHarness.run(
            app.definition, script: "wait\nframe\n", directories: directories)

        #expect(run.status == 0)
        let frame = run.lastFrame
        // The reply comes first, its parent above it joined by a threadline.
        #expect(
            frame.contains(
                "▌G Grace Baker @grace\n▌│ Which editor do you use?\n▌│\n▌D Donald Fischer @donald · now\n▌A line editor, of course."
            ))
        // The parent is also a post of its own, text only, with its actions: the same media twice.
        #expect(frame.contains(" G Grace Baker @grace · now\n Which editor do you use?\n ♡ 0   ↩ 1   ↻ 0"))
    }

    // MARK: A photo-first app: photos first, captions under them, comments

    @Test(
        arguments: ShippedApp.all.filter { !$0.showsTextPosts && $0.layout?.captionLeadsWithAuthor == true })
    func home_showsPhotosAsArtWithCaptionsUnderThemAndCarouselPositions(app: ShippedApp) async throws {
        let run = await HeadlessHarness.run(
            app.definition, script: "wait\nframe\n", directories: try TestDirectories.make())

        #expect(run.status == 0)
        let lines = run.lastFrame.split(separator: "\n").map(String.init)
        let art = try #require(lines.firstIndex { $0.contains("▀▀▀▀") })
        let caption = try #require(lines.firstIndex { $0.contains("mary Compiler cache") })
        #expect(art < caption, "the caption comes under the photo")
        #expect(run.lastFrame.contains("◂ 1/3 ▸"))
    }

    @Test(arguments: ShippedApp.withHome)
    func home_showsTextOnlyPostsWhenItsFeedPolicySays(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let server = try directories.openBackend()
        try await BackendFixtures.post(on: server, as: "grace", text: "Words only, no photo.")
        server.close()

        let run = await HeadlessHarness.run(app.definition, script: "wait\nframe\n", directories: directories)

        #expect(run.lastFrame.contains("Words only, no photo.") == app.showsTextPosts, "\(run.lastFrame)")
    }

    @Test(arguments: ShippedApp.all.filter(\.repliesAreComments))
    func thread_showsCommentsUnderThePost(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let server = try directories.openBackend()
        let photo = try await BackendFixtures.post(
            on: server, as: "grace", text: "Harbor at dawn", attachmentsJSON: BackendFixtures.photoJSON)
        try await BackendFixtures.reply(on: server, as: "donald", to: photo, text: "Lovely light!")
        server.close()

        let run = await HeadlessHarness.run(
            app.definition, script: "wait\nkey enter\nwait\nframe\n", directories: directories)

        let frame = run.lastFrame
        #expect(frame.contains(app.titlePrefix + " · Comments"))
        #expect(frame.contains("grace Harbor at dawn"))
        #expect(frame.contains("  donald Lovely light!"))
    }
}
