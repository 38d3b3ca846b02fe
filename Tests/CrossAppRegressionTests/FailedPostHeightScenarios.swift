import AppRuntime
import AppTesting
import Backend
import Composition
import Features
import Foundation
import MediaModel
import Mutations
import Sockets
import Testing
import Wire

/// The viewer's own post changing state on Home: while it waits it says "sending…"; when the
/// server refuses it, it says why under its header; retried, it waits again; once sent it is a
/// plain post. In every state the whole post shows, text and counts included, and the post that
/// came after it starts right below it, one blank line down, as it did before. A post the viewer
/// replies to keeps the same rule when it gains its reply count line, before and after a restart.
@Suite @MainActor struct FailedPostHeightScenarios {
    /// The post each scenario writes, a paragraph a line.
    static func paragraphs(_ app: ShippedApp) -> [String] {
        ["Tide tables from \(app.id), copied by hand", "and a second line about the moon"]
    }

    @Test(arguments: ShippedApp.withHome)
    func aPendingPostThatFails_showsTheWholeReasonAndItsText_withTheNextPostRightBelow(app: ShippedApp)
        async throws
    {
        // Given the viewer's post waiting to be sent again (the server answered 503)
        let (session, clock) = try await HeadlessHarness.session(
            app.definition, directories: try TestDirectories.make(), height: 60)
        defer { Task { await session.stop() } }
        let paragraphs = Self.paragraphs(app)
        let (pending, neighbour) = try await Self.postWaitingToBeSent(paragraphs, app: app, in: session)
        Self.expectWholePost(in: pending, state: " · sending…", reason: nil, paragraphs, above: neighbour)

        // When the server refuses it (403) once the backoff passes
        let (failed, token, reason) = try await Self.refuse(paragraphs, app: app, in: session, clock: clock)

        // Then it says why, in full, with its text and counts still shown and the same post under it
        Self.expectWholePost(in: failed, state: " · failed", reason: reason, paragraphs, above: neighbour)

        // When it is retried and waits again (503), then goes through
        let (retried, sent) = try await Self.retry(token, in: session, clock: clock)

        // Then the reason goes and takes its lines with it: the next post moves back up each time
        Self.expectWholePost(in: retried, state: " · sending…", reason: nil, paragraphs, above: neighbour)
        Self.expectWholePost(in: sent, state: nil, reason: nil, paragraphs, above: neighbour)
    }

    @Test(arguments: ShippedApp.withHome)
    func aFailedPostRetriedAfterARestart_losesTheReasonsLines_andTheNextPostMovesUp(app: ShippedApp)
        async throws
    {
        // Given a post the server refused, shown failed from the start of the next launch
        let (session, clock) = try await HeadlessHarness.session(
            app.definition, directories: try TestDirectories.make(), height: 60)
        defer { Task { await session.stop() } }
        let paragraphs = Self.paragraphs(app)
        _ = try await Self.postWaitingToBeSent(paragraphs, app: app, in: session)
        let (_, token, reason) = try await Self.refuse(paragraphs, app: app, in: session, clock: clock)
        try await session.restart()
        session.shell?.openTab(.home)
        await session.settle()
        let relaunched = HeadlessHarness.frame(of: session)
        let shown = feedEntries(relaunched)
        try #require(shown.count > 1, "\(app.id): the post and one under it:\n\(relaunched)")
        let neighbour = shown[1][0]
        Self.expectWholePost(in: relaunched, state: " · failed", reason: reason, paragraphs, above: neighbour)

        // When it is retried and waits (503), then goes through
        let (retried, sent) = try await Self.retry(token, in: session, clock: clock)

        // Then it is as tall as its lines without the reason: the next post right below, each time
        Self.expectWholePost(in: retried, state: " · sending…", reason: nil, paragraphs, above: neighbour)
        Self.expectWholePost(in: sent, state: nil, reason: nil, paragraphs, above: neighbour)
    }

    @Test(arguments: ShippedApp.withHome)
    func aReplyToAPost_addsItsReplyCountLine_withTheNextPostRightBelow_beforeAndAfterARestart(app: ShippedApp)
        async throws
    {
        // Given Home with a post nobody has replied to yet, and the post under it
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: try TestDirectories.make(), height: 60)
        defer { Task { await session.stop() } }
        let feed = try #require(session.shell?.currentScreen as? FeedScreen)
        let target = try #require(
            feed.items.prefix(4).first { item in
                guard case .standalone = item.context else { return false }
                return item.isConfirmed && item.facts.replyCount == 0 && item.media.text.count >= 20
            }, "\(app.id): a post without replies near the top")
        // Its own text line (a caption starts with the handle), not a reply's quote of it.
        let text = String(target.media.text.prefix(12))
        let starts = [text, "\(target.media.author.handle) \(text)"]
        let before = HeadlessHarness.frame(of: session)
        let entries = feedEntries(before)
        let index = try #require(Self.entry(startingWith: starts, in: entries), "\(app.id):\n\(before)")
        try #require(entries.count > index + 1, "\(app.id): a post under it:\n\(before)")
        let neighbour = entries[index + 1][0]
        let summary = app.layout?.rows.contains(.replySummary) ?? false

        // When the viewer replies to it
        let actions = try #require(session.shell?.context.actions)
        #expect(actions.submit(Draft(text: "Nice one", replyingTo: target.media)))
        await session.settle()

        // Then it counts the reply (and, where the layout has one, shows the line leading to it),
        // with the same post right below it
        Self.expectReplied(in: HeadlessHarness.frame(of: session), starts, summary: summary, above: neighbour)

        // And so it is after a restart, with the heights stored for it
        try await session.restart()
        session.shell?.openTab(.home)
        await session.settle()
        Self.expectReplied(in: HeadlessHarness.frame(of: session), starts, summary: summary, above: neighbour)
    }

    // MARK: - Steps

    /// Posts `paragraphs` (with a photo when the app's Home needs one) while the server answers
    /// 503, so the post waits; returns the frame and the first line of the post under it.
    static func postWaitingToBeSent(_ paragraphs: [String], app: ShippedApp, in session: AppSession)
        async throws -> (frame: String, neighbour: String)
    {
        let transport = try #require(session.app?.service(.embeddedBackend)?.embeddedTransport)
        let actions = try #require(session.shell?.context.actions)
        let files =
            app.requiresPhoto || !app.showsTextPosts ? [PickedPhoto(path: try TestPhotos.sample())] : []
        transport.injectFaults([.serverError(status: 503)])
        #expect(actions.submit(Draft(text: paragraphs.joined(separator: "\n"), files: files)))
        await session.settle()
        let frame = HeadlessHarness.frame(of: session)
        let entries = feedEntries(frame)
        try #require(entries.count > 1, "\(app.id): the post and one under it:\n\(frame)")
        return (frame, entries[1][0])
    }

    /// Lets the backoff pass while the server refuses the post (403); returns the frame, the
    /// post's change and the reason it shows.
    static func refuse(_ paragraphs: [String], app: ShippedApp, in session: AppSession, clock: ManualClock)
        async throws -> (frame: String, token: MutationToken, reason: String)
    {
        let transport = try #require(session.app?.service(.embeddedBackend)?.embeddedTransport)
        let feed = try #require(session.shell?.currentScreen as? FeedScreen)
        transport.injectFaults([.serverError(status: 403)])
        clock.advance(by: RetryPolicy.standard.cap)
        await session.settle()
        let frame = HeadlessHarness.frame(of: session)
        let text = paragraphs.joined(separator: "\n")
        let item = try #require(feed.items.first { $0.media.text == text }, "\(app.id): the post shows")
        var failure: (MutationToken, String)?
        if case .failed(let token, let reason) = item.status { failure = (token, reason) }
        let (token, reason) = try #require(failure, "\(app.id): the post failed for good: \(item.status)")
        return (frame, token, reason)
    }

    /// Retries the change `token` while the server answers 503, then lets the backoff pass with
    /// the server well; returns the frame while it waits and the frame once it is sent.
    static func retry(_ token: MutationToken, in session: AppSession, clock: ManualClock) async throws
        -> (waiting: String, sent: String)
    {
        let transport = try #require(session.app?.service(.embeddedBackend)?.embeddedTransport)
        let manager = try #require(session.shell?.context.manager)
        transport.injectFaults([.serverError(status: 503)])
        try manager.retry(token)
        await session.settle()
        let waiting = HeadlessHarness.frame(of: session)
        clock.advance(by: RetryPolicy.standard.cap)
        await session.settle()
        return (waiting, HeadlessHarness.frame(of: session))
    }

    /// Expects the first post of `frame` to be drawn whole: its header ending in `state` (nil: a
    /// sent post, neither sending nor failed), the failure `reason` (when given) in full, every
    /// one of `paragraphs` and its counts; then one blank line and the post whose first line is
    /// `neighbour` (ages aside: the clock moves).
    static func expectWholePost(
        in frame: String, state: String?, reason: String?, _ paragraphs: [String], above neighbour: String,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        let entries = feedEntries(frame)
        guard let post = entries.first, entries.count > 1 else {
            Issue.record("the post and one under it:\n\(frame)", sourceLocation: sourceLocation)
            return
        }
        let header = post[0]
        if let state {
            #expect(header.hasSuffix(state), "header: \(header)\n\(frame)", sourceLocation: sourceLocation)
        } else {
            #expect(
                !header.hasSuffix(" · sending…") && !header.hasSuffix(" · failed"),
                "header: \(header)\n\(frame)",
                sourceLocation: sourceLocation)
        }
        let words = post.joined(separator: " ").split(separator: " ").joined(separator: " ")
        if let reason {
            let said = "✕ " + reason.split(separator: " ").joined(separator: " ")
            #expect(
                words.contains(said), "the whole reason, '\(said)':\n\(frame)", sourceLocation: sourceLocation
            )
        } else {
            #expect(
                !post.contains { $0.hasPrefix("✕ ") }, "no reason:\n\(frame)", sourceLocation: sourceLocation)
        }
        for paragraph in paragraphs {
            #expect(
                post.contains { $0.hasSuffix(paragraph) }, "the text line '\(paragraph)':\n\(frame)",
                sourceLocation: sourceLocation)
        }
        #expect(counts(in: post) != nil, "the counts line:\n\(frame)", sourceLocation: sourceLocation)
        #expect(
            withoutAge(entries[1][0]) == withoutAge(neighbour),
            "the next post, '\(neighbour)', under it:\n\(frame)",
            sourceLocation: sourceLocation)
        // One blank line between the two, no more: the post is exactly as tall as its lines.
        let rows = lines(frame).map { String($0.dropFirst()) }
        let top = rows.firstIndex(of: header) ?? rows.count
        let gap = top + post.count
        #expect(
            gap + 1 < rows.count && rows[gap].allSatisfy { $0 == " " } && rows[gap + 1] == entries[1][0],
            "one blank line between the post and the next:\n\(frame)", sourceLocation: sourceLocation)
    }

    /// The index of the entry with a line starting with one of `starts`.
    static func entry(startingWith starts: [String], in entries: [[String]]) -> Int? {
        entries.firstIndex { entry in entry.contains { line in starts.contains { line.hasPrefix($0) } } }
    }

    /// Expects the post with a line starting with one of `starts` to count one reply and, when
    /// `summary`, to show the line leading to it; then one blank line and the post whose first
    /// line is `neighbour` (ages aside).
    static func expectReplied(
        in frame: String, _ starts: [String], summary: Bool, above neighbour: String,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        let entries = feedEntries(frame)
        guard let index = entry(startingWith: starts, in: entries), entries.count > index + 1 else {
            Issue.record(
                "the post '\(starts[0])…' and one under it:\n\(frame)", sourceLocation: sourceLocation)
            return
        }
        let post = entries[index]
        #expect(counts(in: post)?.replies == 1, "one reply:\n\(frame)", sourceLocation: sourceLocation)
        #expect(
            post.contains { $0.hasPrefix("View 1 ") } == summary,
            "the line leading to it (\(summary)):\n\(frame)",
            sourceLocation: sourceLocation)
        #expect(
            withoutAge(entries[index + 1][0]) == withoutAge(neighbour),
            "the next post, '\(neighbour)', under it:\n\(frame)", sourceLocation: sourceLocation)
        let rows = lines(frame).map { String($0.dropFirst()) }
        let gap = (rows.firstIndex(of: post[0]) ?? rows.count) + post.count
        #expect(
            gap + 1 < rows.count && rows[gap].allSatisfy { $0 == " " }
                && rows[gap + 1] == entries[index + 1][0],
            "one blank line between the post and the next:\n\(frame)", sourceLocation: sourceLocation)
    }

    /// A post's first line without the age after its last " · " (a repost line has none).
    static func withoutAge(_ line: String) -> Substring {
        guard let separator = line.range(of: " · ", options: .backwards) else { return line[...] }
        return line[..<separator.lowerBound]
    }
}
