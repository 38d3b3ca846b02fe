import AppRuntime
import AppTesting
@_spi(Testing) import Backend
import Composition
import Features
import Foundation
import MediaModel
import Sockets
import TerminalUI
import Testing
import Wire

/// Loading a profile or a thread again when nothing changed on the server is one conditional
/// request (`If-None-Match`), answered 304 with no body, and no merge of the list: the screen
/// stays as it was. A change someone else made meanwhile is a 200, merged and shown.
@MainActor @Suite struct ConditionalRefreshScenarios {
    @Test(arguments: ShippedApp.all)
    func comingBackToTheProfile_unchanged_merges_only_whatChangedHere(app: ShippedApp) async throws {
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: try TestDirectories.make())
        defer { Task { await session.stop() } }
        let profile = try await HeadlessHarness.openOwnProfile(in: session)
        let firstPost = try #require(profile.items.first, "\(app.id): the profile shows no post")
        let transport = try #require(session.app?.service(.embeddedBackend)?.embeddedTransport)
        let frame = HeadlessHarness.frame(of: session)
        let (merges, sent) = (profile.rebuildCount, transport.statistics.requests)

        // When the person comes back to the profile with nothing changed on the server
        profile.appear()
        await session.settle()

        // Then one request went out, and only coming back merged (what changed on this device
        // shows at once); the server's 304 merged nothing more, and the screen is as it was
        #expect(transport.statistics.requests == sent + 1, "\(app.id)")
        #expect(profile.rebuildCount == merges + 1, "\(app.id): the 304 merged the profile again")
        #expect(HeadlessHarness.frame(of: session) == frame, "\(app.id)")

        // When someone else likes the first post meanwhile, and the person comes back again
        let server = transport.server
        let liked = await server.handle(
            Request(
                .put, "/v1/posts/\(firstPost.media.id.rawValue)/like",
                headers: [
                    "Authorization": "Bearer \(server.testToken(forHandle: "grace"))",
                    "Idempotency-Key": "grace-like",
                ]))
        #expect(liked.status == 200)
        profile.appear()
        await session.settle()

        // Then the answer was a page, merged, with the like counted
        #expect(profile.rebuildCount == merges + 3, "\(app.id): the changed profile was not merged")
        let facts = try #require(profile.items.first(where: { $0.id == firstPost.id })?.facts)
        #expect(facts.likeCount == firstPost.facts.likeCount + 1, "\(app.id)")
    }

    @Test(arguments: ShippedApp.withHome)
    func loadingAThreadAgain_unchanged_mergesNothing_andAReplyComes(app: ShippedApp) async throws {
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: try TestDirectories.make())
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        _ = shell.handle(.enter)
        await session.settle()
        let thread = try #require(shell.currentScreen as? ThreadScreen, "\(app.id): enter opened no thread")
        let transport = try #require(session.app?.service(.embeddedBackend)?.embeddedTransport)
        let items = thread.items.map(\.id)
        let (merges, sent) = (thread.rebuildCount, transport.statistics.requests)

        // When the thread is loaded again with nothing changed
        thread.load()
        await session.settle()

        // Then one request, a 304, and no merge
        #expect(transport.statistics.requests == sent + 1, "\(app.id)")
        #expect(thread.rebuildCount == merges, "\(app.id): the 304 merged the thread again")
        #expect(thread.items.map(\.id) == items)

        // When someone replies meanwhile and it is loaded again
        let server = transport.server
        try await BackendFixtures.reply(
            on: server, as: "grace", to: thread.mediaID.rawValue, text: "A reply while the thread was open")
        thread.load()
        await session.settle()

        // Then the reply is merged in, last, after every reply that was there
        #expect(thread.rebuildCount == merges + 1, "\(app.id)")
        #expect(thread.items.count == items.count + 1, "\(app.id)")
        #expect(Array(thread.items.map(\.id).prefix(items.count)) == items, "\(app.id)")
        #expect(thread.items.last?.media.text == "A reply while the thread was open", "\(app.id)")
    }
}
