import AppRuntime
import AppTesting
import Backend
import Composition
import Features
import Foundation
import MediaModel
import Mutations
import PhotoTesting
import Sockets
import TerminalUI
import Testing

/// What the socket contracts let a new app say that no shipped app says yet: a composer that
/// takes no photos, a Home that leaves replies out, posts shown as a title and an excerpt. Each
/// runs on a variant of every app (its own providers with one socket rebound), so the contract is
/// seen at work in every app it could be composed into.
@Suite @MainActor struct SocketVariantScenarios {
    /// The app's composer policy, with media forbidden.
    struct TextOnlyComposer: ComposerPolicy {
        let base: any ComposerPolicy
        var media: MediaRequirement { .forbidden }
        var textLimit: Int { base.textLimit }
        var textRequired: Bool { true }
        var noun: String { "note" }
    }

    /// The app's feed policy, with every kind shown and replies left out.
    struct NoRepliesFeed: FeedPolicy {
        let base: any FeedPolicy
        var shownKinds: Set<MediaKind> { [.text, .photo, .carousel, .video] }
        var showsUnknownKinds: Bool { base.showsUnknownKinds }
        var pageSize: Int { base.pageSize }
        var showsReplyParent: Bool { false }
        var showsReplies: Bool { false }
    }

    /// A long-form post: a title, then at most two lines of text in a list.
    struct ExcerptLayout: PostLayout {
        let rows: [PostRow] = [.header, .title, .text, .actions, .replySummary]
        let mediaLines = 6
        let captionLeadsWithAuthor = false
        let excerptLines: Int? = 2
    }

    @Test(arguments: ShippedApp.withHome)
    func aComposerThatForbidsMedia_offersNoPhotos_andRefusesOne(app: ShippedApp) async throws {
        // Given the app with a composer policy that forbids media
        let base = try #require(app.composer, "\(app.compositionProblem ?? "")")
        let provider = Provider(id: "test.textOnlyComposer", fills: .composerPolicy) { _ in
            TextOnlyComposer(base: base)
        }
        let variant = try app.rebinding(provider)
        let (session, _) = try await HeadlessHarness.session(variant, directories: try TestDirectories.make())
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)

        // When the composer opens
        _ = shell.handle(.character("n"))
        await session.settle()
        let composer = try #require(shell.currentScreen as? ComposerScreen)
        let frame = HeadlessHarness.frame(of: session)

        // Then it says nothing of photos, and a photo is refused with the reason
        #expect(!frame.lowercased().contains("photo"), "\(frame)")
        let path = try PhotoBytes.write(
            PhotoBytes.jpeg(width: 64, height: 48), named: "refused.jpg", in: try TestPhotos.folder())
        #expect(throws: PhotoFileError.self) { try composer.attach(path: path) }
        #expect(composer.pickedPaths.isEmpty)
        #expect(
            TextOnlyComposer(base: base).check(text: "words", attachmentCount: 1)
                == .rejected("a note is text only: remove the photo"))

        // And a note of text alone is posted: sent and confirmed, and topping Home where the
        // app's feed shows text
        let note = "Tide tables for the weekend"
        let commits = shell.context.manager.commitCount
        _ = shell.handle(.paste(note))
        #expect(
            !HeadlessHarness.frame(of: session).contains("text only"), "\(app.id): a text note is refused")
        _ = shell.handle(.key(.enter))
        await session.settle()
        let feed = try #require(shell.currentScreen as? FeedScreen, "\(app.id): the note went, back to Home")
        #expect(shell.context.manager.commitCount == commits + 1, "\(app.id): one post made")
        #expect(shell.context.manager.pending.isEmpty, "\(app.id): the server has it")
        if app.showsTextPosts { #expect(feed.items.first?.media.text == note, "\(app.id)") }
    }

    @Test(arguments: ShippedApp.withHome)
    func aFeedPolicyThatHidesReplies_leavesThemOffHome_andTheSameAppShowingThemDoes(app: ShippedApp)
        async throws
    {
        // Given the app with every kind on Home, once with replies and once without
        let base = try #require(app.feed, "\(app.compositionProblem ?? "")")
        struct AllKinds: FeedPolicy {
            let base: any FeedPolicy
            var shownKinds: Set<MediaKind> { [.text, .photo, .carousel, .video] }
            var showsUnknownKinds: Bool { base.showsUnknownKinds }
            var pageSize: Int { base.pageSize }
            var showsReplyParent: Bool { false }
        }
        let withReplies = try app.rebinding(
            Provider(id: "test.allKinds", fills: .feedPolicy) { _ in AllKinds(base: base) })
        let withoutReplies = try app.rebinding(
            Provider(id: "test.noReplies", fills: .feedPolicy) { _ in NoRepliesFeed(base: base) })
        let directories = try TestDirectories.make()

        func replies(on definition: AppDefinition, in directories: TestDirectories) async throws -> (Int, Int)
        {
            let (session, _) = try await HeadlessHarness.session(definition, directories: directories)
            defer { Task { await session.stop() } }
            guard let feed = session.shell?.currentScreen as? FeedScreen else {
                throw ShippedApp.VariantError(description: "\(definition.id) does not open on Home")
            }
            let replies = feed.items.filter {
                if case .reply = $0.context { return true }
                return false
            }
            return (replies.count, feed.items.count)
        }

        // Then Home shows replies as entries only when the policy says so, and is not empty
        let (shown, shownTotal) = try await replies(on: withReplies, in: directories)
        let (hidden, hiddenTotal) = try await replies(on: withoutReplies, in: directories.sibling())
        #expect(shown > 0, "the seed's Home has replies to show")
        #expect(hidden == 0)
        #expect(hiddenTotal > 0 && hiddenTotal <= shownTotal)
    }

    @Test(arguments: ShippedApp.withHome)
    func anExcerptLayout_showsTheTitleAndTwoLinesOnHome_andTheWholeTextWhenOpened(app: ShippedApp)
        async throws
    {
        // Given the app showing posts as a title and an excerpt, and a long post on the server
        let directories = try TestDirectories.make()
        let server = try directories.openBackend()
        let paragraphs = (1...6).map { "Paragraph \($0) of the essay, long enough to be a line." }
        let text = (["On tide pools"] + paragraphs).joined(separator: "\n")
        try await BackendFixtures.post(on: server, as: "grace", text: text)
        server.close()
        let variant = try app.rebinding(
            Provider(id: "test.excerpt", fills: .postLayout) { _ in ExcerptLayout() })
        let feedPolicy = try #require(app.feed)
        let everyKind = try ShippedApp(variant).rebinding(
            Provider(id: "test.everyKind", fills: .feedPolicy) { _ in NoRepliesFeed(base: feedPolicy) })
        let (session, _) = try await HeadlessHarness.session(everyKind, directories: directories)
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)

        // Then Home shows the title, the first two lines, the second cut with "…", then the actions
        let home = lines(HeadlessHarness.frame(of: session))
        let title = try #require(home.firstIndex { $0.hasSuffix("On tide pools") }, "\(home.all)")
        #expect(home[title + 1].hasSuffix(paragraphs[0]), "\(home.all)")
        #expect(home[title + 2].hasSuffix("…"), "\(home.all)")
        #expect(home[title + 3].contains("♡ 0"), "the actions follow the excerpt: \(home.all)")
        #expect(!home.contains { $0.contains(paragraphs[2]) })

        // And opened, the post shows its whole text
        let feed = try #require(shell.currentScreen as? FeedScreen)
        #expect(feed.postList.selectedItem?.media.text == text)
        _ = shell.handle(.enter)
        await session.settle()
        let opened = HeadlessHarness.frame(of: session)
        for paragraph in paragraphs.prefix(4) {
            #expect(opened.contains(paragraph), "\(opened)")
        }
    }

    /// The app's own post layout with the actions row twice: every post one line taller.
    struct TallerLayout: PostLayout {
        let base: any PostLayout
        var rows: [PostRow] { base.rows + [.actions] }
        var mediaLines: Int { base.mediaLines }
        var captionLeadsWithAuthor: Bool { base.captionLeadsWithAuthor }
        var excerptLines: Int? { base.excerptLines }
    }

    /// A new build that draws posts otherwise finds the heights the last build stored with the
    /// feed cache: seeded as they are, every post would be cut by a line (or drawn over the
    /// next). They are measured again.
    @Test(arguments: ShippedApp.withHome)
    func aBuildThatDrawsPostsOtherwise_measuresThemAgain_insteadOfSeedingTheLastBuildsHeights(app: ShippedApp)
        async throws
    {
        // Given a launch that showed Home and stored its posts' heights
        let directories = try TestDirectories.make()
        let (first, _) = try await HeadlessHarness.session(app.definition, directories: directories)
        let shown = try #require(first.shell?.currentScreen as? FeedScreen).items.count
        #expect(shown > 3)
        await first.stop()

        // When a build whose posts are one line taller launches on the same data
        let layout = try #require(app.layout)
        let taller = try app.rebinding(
            Provider(id: "test.taller", fills: .postLayout) { _ in TallerLayout(base: layout) })
        let (second, _) = try await HeadlessHarness.session(taller, directories: directories)
        defer { Task { await second.stop() } }
        let shell = try #require(second.shell)
        let feed = try #require(shell.currentScreen as? FeedScreen)

        // Then every post the list holds heights for is as tall as its lines now
        let presentation = shell.context.presentation
        let width = feed.postList.view.contentWidth
        let held = feed.postList.cachedHeights(of: feed.items)
        #expect(held.count >= 3)
        for (item, rows) in held {
            #expect(
                rows == [PostRenderer.height(of: item, width: width, presentation: presentation)],
                "\(item): held \(rows)")
        }
    }
}
