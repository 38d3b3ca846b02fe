import AppRuntime
import AppTesting
import Backend
import Composition
import Features
import Foundation
import MediaModel
import Mutations
import TerminalUI
import Testing
import Wire

/// The viewer's changes: likes, posts, replies and reposts shown at once, confirmed by the
/// server, kept across restarts while offline, rolled back when the server refuses them, and
/// never clobbered by a refresh.
@Suite @MainActor struct MutationScenarios {
    @Test(arguments: ShippedApp.withHome)
    func likeAndUnlike_showAtOnceAndReachTheServer(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let liked = await HeadlessHarness.run(
            app.definition, script: "wait\nframe\nkey l\nwait\nframe\n", directories: directories)
        #expect(liked.status == 0)
        let before = try #require(selectedCounts(liked.frames[0]))
        let after = try #require(selectedCounts(liked.frames[1]))
        #expect(!before.liked && after.liked)
        #expect(after.likes == before.likes + 1)

        // The other app, on its own data but the same backend and viewer, sees the like.
        let other = try #require(ShippedApp.withHome.first { $0.id != app.id })
        let seen = await HeadlessHarness.run(
            other.definition, script: "wait\nframe\n", directories: directories.sibling())
        #expect(selectedCounts(seen.lastFrame) == after, "the like reached the server")

        let unliked = await HeadlessHarness.run(
            app.definition, script: "wait\nkey l\nwait\nframe\nrestart\nwait\nframe\n",
            directories: directories)
        #expect(selectedCounts(unliked.frames[0]) == before)
        #expect(selectedCounts(unliked.frames[1]) == before, "the unlike is the server's state too")
    }

    /// Every key that toggles a flag on a post (each kind's `MutationKind.key`, a kind added
    /// since included) shows its change on the selected post at once, in words (the frames here
    /// have no color), and a second press takes it back.
    @Test(arguments: ShippedApp.withHome)
    func everyToggleKey_showsItsChangeOnThePost_andASecondPressTakesItBack(app: ShippedApp) async throws {
        for kind in MutationKind.all where kind.key?.action == .toggle {
            let key = try #require(kind.key?.character)
            let run = await HeadlessHarness.run(
                app.definition, script: "wait\nframe\nkey \(key)\nwait\nframe\nkey \(key)\nwait\nframe\n",
                directories: try TestDirectories.make())
            try #require(run.frames.count == 3, "\(app.id): \(kind) ran \(run.frames.count) of 3 frames")
            let selected = run.frames.map { frame in
                frame.split(separator: "\n").filter { $0.hasPrefix("▌") }.joined(separator: "\n")
            }
            #expect(!selected[0].isEmpty, "\(app.id): a post is selected")
            #expect(
                selected[1] != selected[0],
                "\(app.id): \(key) (\(kind)) shows nothing on the post\n\(run.frames[1])")
            #expect(selected[2] == selected[0], "\(app.id): \(key) again does not take \(kind) back")
        }
    }

    /// One like, from the key press to the settled screen, merges the feed once and redraws only
    /// the liked post's lines: the commit, the attempt and the confirmation reach the screen by
    /// one path, and a confirmation that agrees with what is shown changes nothing.
    @Test(arguments: ShippedApp.withHome)
    func like_rebuildsTheFeedOnce_andRedrawsOnlyTheLikedPost(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let (session, _) = try await HeadlessHarness.session(app.definition, directories: directories)
        let feed = try #require(session.shell?.currentScreen as? FeedScreen)
        let screen = Screen(size: TerminalSize(columns: 80, rows: 24), colorMode: .trueColor)
        func commit() -> (text: String, update: FrameUpdate) {
            let (buffer, cursor) = session.render()
            screen.buffer = buffer
            screen.cursor = cursor
            return (HeadlessRenderer.text(of: buffer), screen.commit())
        }
        let before = commit().text
        let rebuilds = feed.rebuildCount

        _ = session.shell?.handle(.character("l"))
        await session.settle()
        let (after, update) = commit()

        #expect(selectedCounts(after)?.liked == true, "\(app.id) shows the like")
        #expect(selectedCounts(after)?.likes == (selectedCounts(before)?.likes ?? -1) + 1)
        #expect(feed.rebuildCount - rebuilds == 1, "\(app.id): feed merges for one like")
        // Only the line with the heart and its count changes; everything around it stays.
        #expect(update.changedLineCount == 1, "\(app.id): lines redrawn for one like\n\(after)")
        await session.stop()
    }

    @Test(arguments: ShippedApp.withHome)
    func repost_countsAtOnceAndStays(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let run = await HeadlessHarness.run(
            app.definition, script: "wait\nframe\nkey s\nwait\nframe\nrestart\nwait\nframe\n",
            directories: directories)
        let before = try #require(selectedCounts(run.frames[0]))
        let after = try #require(selectedCounts(run.frames[1]))
        #expect(after.reposts == before.reposts + 1)
        #expect(selectedCounts(run.frames[2])?.reposts == before.reposts + 1, "confirmed by the server")
    }

    @Test(arguments: ShippedApp.withHome)
    func post_isPendingAtTheTopThenConfirmed_andTheOtherAppShowsItByItsFeedPolicy(app: ShippedApp)
        async throws
    {
        // A photo post, made while offline, then sent when back online.
        let directories = try TestDirectories.make()
        let photo = "Harbor at dusk from \(app.id)"
        let run = await HeadlessHarness.run(
            app.definition,
            script: """
                wait
                network offline
                key n
                type \(photo)
                attach \(try TestPhotos.sample())
                key enter
                wait
                frame
                network perfect
                wait
                frame

                """,
            directories: directories, height: 40)
        #expect(run.status == 0)
        let pending = run.frames[0]
        let selected = lines(pending).filter { $0.hasPrefix("▌") }.joined(separator: "\n")
        #expect(selected.contains("sending…"), "the new post is selected at the top, marked sending")
        #expect(pending.contains(photo))
        let confirmed = run.frames[1]
        #expect(confirmed.contains(photo))
        #expect(!confirmed.contains("sending…"))

        // A text-only post, where the app's composer allows one.
        let text = "Words only from \(app.id)"
        if !app.requiresPhoto {
            let textRun = await HeadlessHarness.run(
                app.definition, script: "wait\nkey n\ntype \(text)\nkey enter\nwait\nframe\n",
                directories: directories, height: 40)
            #expect(textRun.status == 0, "\(app.id): \(textRun.errors)")
            #expect(textRun.lastFrame.contains(text))
        }

        // Both apps on the shared backend: the photo post shows in each, the text-only post only
        // where the feed policy shows text.
        for other in ShippedApp.withHome {
            let seen = await HeadlessHarness.run(
                other.definition, script: "wait\nframe\n", directories: directories.sibling(), height: 60)
            #expect(seen.lastFrame.contains(photo), "\(other.id) shows the photo post")
            if !app.requiresPhoto {
                #expect(
                    seen.lastFrame.contains(text) == other.showsTextPosts,
                    "\(other.id) shows text-only posts: \(other.showsTextPosts)")
            }
        }
    }

    @Test(arguments: ShippedApp.withHome)
    func reply_isACommentOrAThreadedReplyAsTheReplyModelSays(app: ShippedApp) async throws {
        let run = await HeadlessHarness.run(
            app.definition,
            script: "wait\nkey enter\nwait\nframe\nkey r\nframe\ntype Nice one\nkey enter\nwait\nframe\n",
            directories: try TestDirectories.make(), height: 30)
        #expect(run.status == 0)
        let (thread, composer, replied) = (run.frames[0], run.frames[1], run.frames[2])

        #expect(lines(composer)[0].hasPrefix(app.titlePrefix + " · " + app.replyTitle))
        #expect(composer.contains("photos (") == !app.repliesAreComments, "comments carry no photo")
        #expect(replied.contains(app.ownReplyLine), "the reply shows at once, drawn as \(app.id) draws one")
        #expect(!replied.contains(" yet. Press r to add one."), "a pending reply is a reply")
        let repliesBefore = try #require(selectedCounts(thread)).replies
        #expect(selectedCounts(replied)?.replies == repliesBefore + 1)
    }

    @Test(arguments: ShippedApp.withHome)
    func offlineChanges_surviveARestartAndAreSentInOrder(app: ShippedApp) async throws {
        // Given a feed cached by an earlier online launch
        let directories = try TestDirectories.make()
        _ = await HeadlessHarness.run(app.definition, script: "wait\n", directories: directories)

        // When the app, offline, likes the first post and reposts it (one lane: sent in that
        // order), restarts, and comes back online
        let run = await HeadlessHarness.run(
            app.definition,
            script: """
                wait
                frame
                key l
                key s
                wait
                restart
                wait
                frame
                key \(app.syncKey)
                frame
                network perfect
                wait
                frame

                """,
            directories: directories, height: 30, extraArguments: ["--network", "offline"])
        #expect(run.status == 0)
        let before = try #require(selectedCounts(run.frames[0]))

        // Then the changes are still shown and still pending after the restart
        let restarted = run.frames[1]
        #expect(
            lines(restarted)[0].hasSuffix(" offline @\(BackendSeed.firstHandle)"),
            "the title bar says offline, and who is signed in:\n\(restarted)")
        #expect(selectedCounts(restarted)?.likes == before.likes + 1)
        #expect(selectedCounts(restarted)?.reposts == before.reposts + 1)
        #expect(run.frames[2].contains("Changes: 2 pending, 0 failed"))

        // And, back online, both are confirmed, the like first
        let sent = lines(run.frames[3])
        #expect(sent.contains { $0.contains("Changes: 0 pending, 0 failed") })
        let confirmed = sent.filter { $0.contains("confirmed") }
        #expect(confirmed.count == 2)
        #expect(confirmed.first?.contains("repost") == true, "newest first: the repost was sent last")
        #expect(confirmed.last?.contains("like") == true)

        let seen = await HeadlessHarness.run(
            app.definition, script: "wait\nframe\n", directories: directories.sibling())
        #expect(selectedCounts(seen.lastFrame)?.liked == true, "the server has the like")
    }

    @Test(arguments: ShippedApp.withHome)
    func aChangeTheServerRefuses_isRolledBackAndShownAsFailed(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: directories, deletesBehindTheApp: true)
        defer { Task { await session.stop() } }
        let feed = try #require(session.shell?.currentScreen as? FeedScreen)
        let first = try #require(feed.items.first?.media)
        let before = try #require(selectedCounts(HeadlessHarness.frame(of: session)))

        // Given the post is deleted on the server after the feed was loaded
        let server = try #require(session.app?.service(.embeddedBackend)?.embeddedTransport?.server)
        try await BackendFixtures.delete(on: server, as: first.author.handle, first.id.rawValue)

        // When the viewer likes it
        _ = session.shell?.handle(.character("l"))
        await session.settle()

        // Then the like is rolled back and the Sync tab lists it as failed, with the reason
        #expect(selectedCounts(HeadlessHarness.frame(of: session)) == before)
        _ = session.shell?.handle(.character(app.syncKey))
        await session.settle()
        let sync = HeadlessHarness.frame(of: session)
        #expect(sync.contains("Changes: 0 pending, 1 failed"))
        #expect(sync.contains("✕ like · @\(first.author.handle) · \""), "named by its post:\n\(sync)")
        #expect(sync.contains("the post is gone"), "why, in plain words:\n\(sync)")
        #expect(!sync.contains("HTTP 404"), "no HTTP internals:\n\(sync)")
    }

    @Test(arguments: ShippedApp.withHome)
    func aRefreshDuringAPendingLike_keepsItWithoutFlicker(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let (session, clock) = try await HeadlessHarness.session(app.definition, directories: directories)
        defer { Task { await session.stop() } }
        let feed = try #require(session.shell?.currentScreen as? FeedScreen)
        let first = try #require(feed.items.first?.media)
        let transport = try #require(session.app?.service(.embeddedBackend)?.embeddedTransport)
        var frames = [HeadlessHarness.frame(of: session)]
        let before = try #require(selectedCounts(frames[0]))

        // Given a like whose first send is answered "retry in a minute"
        transport.injectFaults([.rateLimited(retryAfter: .seconds(60))])
        _ = session.shell?.handle(.character("l"))
        await session.settle()
        frames.append(HeadlessHarness.frame(of: session))

        // When someone else likes the post and the feed refreshes before the like is sent
        try await BackendFixtures.like(on: transport.server, as: "grace", first.id.rawValue)
        feed.refresh()
        await session.settle()
        frames.append(HeadlessHarness.frame(of: session))

        // Then the refresh shows the other like and keeps the pending one
        let counts = frames.compactMap(selectedCounts)
        #expect(counts.count == 3)
        #expect(
            counts[1]
                == Counts(
                    liked: true, likes: before.likes + 1, replies: before.replies, reposts: before.reposts))
        #expect(counts[2].liked && counts[2].likes == before.likes + 2, "not clobbered by the refresh")

        // And once sent, the count stays where it was: no step back and forth between frames
        _ = clock.advance(by: .seconds(61))
        await session.settle()
        let sent = try #require(selectedCounts(HeadlessHarness.frame(of: session)))
        #expect(sent == counts[2])
    }
}

/// The counts line of the selected post (`♥ 2   ↩ 0   ↻ 1`, then `· you reposted` when the viewer
/// did).
struct Counts: Equatable, CustomStringConvertible {
    var liked: Bool
    var likes: Int
    var replies: Int
    var reposts: Int
    var reposted = false

    var description: String {
        "\(liked ? "♥" : "♡") \(likes) ↩ \(replies) ↻ \(reposts)" + (reposted ? " · you reposted" : "")
    }
}

/// The counts of the first selected post in `frame`, if one shows them.
func selectedCounts(_ frame: String) -> Counts? {
    for line in lines(frame) where line.hasPrefix("▌♥") || line.hasPrefix("▌♡") {
        let words = line.dropFirst().split(separator: " ")
        guard words.count >= 6, let likes = Int(words[1]), let replies = Int(words[3]),
            let reposts = Int(words[5])
        else { continue }
        return Counts(
            liked: words[0] == "♥", likes: likes, replies: replies, reposts: reposts,
            reposted: line.contains("· you reposted"))
    }
    return nil
}
