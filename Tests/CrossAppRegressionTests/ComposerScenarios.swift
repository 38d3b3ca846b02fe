import AppRuntime
import AppTesting
import Composition
import Features
import Foundation
import MediaModel
import Mutations
import PhotoTesting
import Sockets
import TerminalUI
import Testing

/// Each app's composer rules, including the rejections, which lose nothing the person typed.
@Suite @MainActor struct ComposerScenarios {
    @Test(arguments: ShippedApp.withComposer)
    func aPostBreakingTheAppsRules_isRejectedWithTheReasonAndKeepsTheText(app: ShippedApp) async throws {
        // An app that needs a photo: text without one. Any other: one character over the limit.
        let text = app.requiresPhoto ? "No photo here" : String(repeating: "x", count: app.textLimit + 1)
        let expected =
            app.missingPhotoMessage ?? "✕ text is 1 character over the limit of \(app.textLimit)"
        let run = await HeadlessHarness.run(
            app.definition, script: "wait\nkey n\ntype \(text)\nkey enter\nframe\n",
            directories: try TestDirectories.make(),
            height: 30)

        #expect(run.status == 0)
        let frame = run.lastFrame
        #expect(lines(frame)[28] == Substring(expected), "the status line says why")
        #expect(frame.contains(String(text.prefix(40))), "the draft is still there")
        #expect(frame.contains("\(text.count)/\(app.textLimit)"))
        GoldenFrames.check(frame, app: app.id, name: "composer-rejected", directory: goldenDirectory)
    }

    /// A photo with no words: posted where the app's composer policy does not ask for text (the
    /// photo is the post), refused with the reason where it does. An empty draft is never posted.
    @Test(arguments: ShippedApp.withComposer)
    func aPhotoWithNoWords_isPostedOrRefusedAsThePolicySays_andAnEmptyDraftNever(app: ShippedApp)
        async throws
    {
        let policy = try #require(app.composer, "\(app.compositionProblem ?? "")")
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: try TestDirectories.make())
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        let commits = shell.context.manager.commitCount

        // Given the composer with nothing in it, when enter is pressed, then nothing is posted
        shell.openTab(.compose)
        _ = shell.handle(.key(.enter))
        await session.settle()
        #expect(shell.currentScreen is ComposerScreen, "\(app.id): an empty draft left the composer")
        #expect(shell.context.manager.commitCount == commits, "\(app.id): an empty draft was posted")

        // Given a photo and no words, when enter is pressed
        try TestPhotos.attachSample(in: shell)
        _ = shell.handle(.key(.enter))
        await session.settle()

        // Then it is posted where words are not required, and refused where they are
        if policy.textRequired {
            #expect(shell.currentScreen is ComposerScreen, "\(app.id)")
            #expect(
                shell.context.manager.commitCount == commits,
                "\(app.id): posted without the words it requires")
            let status = DeleteScenarios.status(HeadlessHarness.frame(of: session))
            #expect(status.contains("needs text"), "\(app.id): \(status)")
        } else {
            #expect(shell.currentScreen is FeedScreen, "\(app.id): the photo was not posted")
            #expect(shell.context.manager.commitCount == commits + 1, "\(app.id)")
            #expect(shell.context.manager.pending.isEmpty, "\(app.id): the server has it")
        }
    }

    /// A carousel of as many photos as a post may hold is posted whole; one more photo is
    /// refused with how many to remove, and the draft keeps every photo and its words.
    @Test(arguments: ShippedApp.withComposer)
    func aCarouselAtTheLimit_isPosted_andOneMorePhotoIsRefusedWithHowManyToRemove(app: ShippedApp)
        async throws
    {
        let limit = PostLimits.carouselItems
        let folder = try TestPhotos.folder()
        let photos = try (0...limit).map { index in
            try PhotoBytes.write(
                PhotoBytes.jpeg(width: 16, height: 12, blue: UInt8(10 * index)), named: "tide-\(index).jpg",
                in: folder)
        }
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: try TestDirectories.make())
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        let commits = shell.context.manager.commitCount

        // Given one photo more than a post may hold, with words
        shell.openTab(.compose)
        let composer = try #require(shell.currentScreen as? ComposerScreen)
        for path in photos { try composer.attach(path: path) }
        _ = shell.handle(.paste("Tide pools, low water"))

        // When enter is pressed, then it is refused with how many to remove, and nothing is lost
        _ = shell.handle(.key(.enter))
        await session.settle()
        let status = DeleteScenarios.status(HeadlessHarness.frame(of: session))
        #expect(status.contains("a carousel holds at most \(limit) photos; remove 1"), "\(app.id): \(status)")
        #expect(shell.currentScreen === composer && composer.files.count == limit + 1, "\(app.id)")
        #expect(shell.context.manager.commitCount == commits, "\(app.id): posted over the limit")

        // When the last photo is removed (tab to the photos, x) and the carousel posted from the
        // text again (tab back, enter), then all of them are posted
        _ = shell.handle(.key(.tab))
        _ = shell.handle(.key(.character("x")))
        #expect(composer.files.map(\.path) == Array(photos.prefix(limit)), "\(app.id): the last one went")
        _ = shell.handle(.key(.tab))
        _ = shell.handle(.key(.enter))
        await session.settle()
        #expect(shell.currentScreen is FeedScreen, "\(app.id): the carousel was not posted")
        #expect(shell.context.manager.commitCount == commits + 1, "\(app.id)")
        #expect(shell.context.manager.pending.isEmpty, "\(app.id): the server has it")
    }

    /// A paste keeps its tabs as spaces (a tab has no width of its own in a terminal cell, and
    /// was dropped): what is posted reads as what was pasted.
    @Test(arguments: ShippedApp.withComposer)
    func aPastedTab_becomesSpaces_andIsPostedSo(app: ShippedApp) async throws {
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: try TestDirectories.make())
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        shell.openTab(.compose)
        if app.requiresPhoto { try TestPhotos.attachSample(in: shell) }

        _ = shell.handle(.paste("with tab\there"))
        let frame = HeadlessHarness.frame(of: session)

        #expect(frame.contains("with tab    here"), "\(app.id):\n\(frame)")
        _ = shell.handle(.key(.enter))
        await session.settle()
        let feed = try #require(shell.currentScreen as? FeedScreen)
        #expect(feed.items.first?.media.text == "with tab    here", "\(app.id)")
    }

    /// A long text shows in as many lines as the screen has free (not six), and ↑ and ↓ move
    /// the cursor between its lines: typing then goes where the cursor is.
    @Test(arguments: ShippedApp.withComposer)
    func aLongText_usesTheFreeRows_andUpAndDownMoveBetweenLines(app: ShippedApp) async throws {
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: try TestDirectories.make(), height: 30)
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        shell.openTab(.compose)
        let text = (1...10).map { "line \($0)" }.joined(separator: "\n")

        _ = shell.handle(.paste(text))
        let frame = HeadlessHarness.frame(of: session)

        #expect(
            (1...10).allSatisfy { frame.contains("line \($0)\n") || frame.contains("line \($0) ") },
            "\(frame)")
        _ = shell.handle(.key(.up))
        _ = shell.handle(.key(.up))
        _ = shell.handle(.key(.character("!")))
        let composer = try #require(shell.currentScreen as? ComposerScreen)
        #expect(composer.text.contains("line 8!\nline 9\nline 10"), "\(app.id): \(composer.text)")
        _ = shell.handle(.key(.down))
        _ = shell.handle(.key(.character("?")))
        #expect(composer.text.hasSuffix("line 8!\nline 9?\nline 10"), "\(app.id): \(composer.text)")
    }
}
