import AppTesting
import Composition
import Features
import FeedCaching
import Foundation
import MediaModel
import Mutations
import ServerAPI
import Synchronization
import TerminalUI
import Testing
import Wire

/// A screen built against the interfaces `AppContext` holds, on a stub transport: no backend, no
/// database, no sockets. What the screen shows is exactly what the stub answered.
@MainActor
@Suite struct ScreenOnAStubTests {
    @Test(arguments: ShippedApp.all)
    func aProfile_showsWhatTheStubAnswered_inItsOrder(app: ShippedApp) async throws {
        let registry = try #require(app.registry, "\(app.compositionProblem ?? "")")
        let ada = User(id: UserID("u-ada"), handle: "ada", displayName: "Ada Stub", bio: "Counts engines.")
        let posts = ["first light on the harbor", "second: the market at noon", "third, the boats come in"]
        let entries = posts.enumerated().map { index, text in
            FeedEntry(
                id: FeedEntryID("e-\(index)"),
                media: Media(
                    id: MediaID("m-\(index)"), author: ada,
                    createdAt: ManualClock.defaultStart.addingTimeInterval(-Double(60 * (index + 1))),
                    text: text))
        }
        let profile = Profile(
            user: ada, followerCount: 12, followingCount: 3, postCount: 3, viewerFollows: false,
            isViewer: false,
            posts: FeedPage(entries: entries))
        let facts = Dictionary(
            uniqueKeysWithValues: entries.enumerated().map { index, entry in
                (entry.media.id, MediaFacts(likeCount: index + 7))
            })
        let transport = StubTransport(answers: [
            "GET /v1/users/u-ada": WireFormat.encode(WireEnvelope(profile, facts: facts))
        ])
        let network = StubNetwork(transport: transport)
        let context = try AppContext(
            registry: registry, network: network, feedCache: UnusedFeed(), mutations: ServerDataOnly(),
            colorMode: .none, imageMode: .ascii, clock: ManualClock(), tracker: WorkTracker())

        let screen = ProfileScreen(context: context, userID: ada.id, width: 80, height: 24)
        screen.appear()
        await context.tracker.idle()
        var buffer = ScreenBuffer(width: 80, height: 24)
        _ = screen.draw(into: &buffer, in: buffer.bounds)
        let lines = HeadlessRenderer.lines(of: buffer)
        let frame = lines.joined(separator: "\n")

        #expect(transport.requests == ["GET /v1/users/u-ada"], "\(app.id): one request, for the profile")
        #expect(screen.title == "@ada")
        #expect(frame.contains("Ada Stub"), "\(app.id):\n\(frame)")
        #expect(frame.contains("12 followers"), "\(app.id):\n\(frame)")
        // The posts in the order served, each once, and their like counts in the same order.
        let rows = posts.map { text in lines.firstIndex { $0.contains(String(text.prefix(20))) } }
        #expect(rows.allSatisfy { $0 != nil }, "\(app.id): every post shows:\n\(frame)")
        let found = rows.compactMap { $0 }
        #expect(found == found.sorted() && Set(found).count == posts.count, "\(app.id): in order:\n\(frame)")
        let likeCounts = lines.compactMap { line -> Int? in
            guard let heart = line.firstIndex(where: { $0 == "♡" || $0 == "♥" }) else { return nil }
            return Int(line[line.index(after: heart)...].drop { $0 == " " }.prefix { $0.isNumber })
        }
        #expect(likeCounts == [7, 8, 9], "\(app.id): each post's own likes, in order:\n\(frame)")
    }
}

/// A transport answering fixed paths from memory (404 for the rest), recording what was asked.
private final class StubTransport: Transport {
    private let answers: [String: Data]
    private let asked = Mutex<[String]>([])

    init(answers: [String: Data]) { self.answers = answers }

    var requests: [String] { asked.withLock { $0 } }

    func send(_ request: Request) async throws(TransportError) -> Response {
        let key = "\(request.method) \(request.path)"
        asked.withLock { $0.append(key) }
        guard let body = answers[key] else { return Response(status: 404, body: Data()) }
        return Response(status: 200, body: body)
    }
}

/// The app's connection, over the stub transport.
private final class StubNetwork: NetworkClient {
    let client: APIClient
    let mediaStore = MediaStore()
    let reachability = ServerReachability()
    let viewerIdentity = "stub-viewer"
    let serverAddress: String? = nil

    init(transport: any Transport) {
        client = APIClient(transport: transport, bearerToken: "stub-token")
    }

    func signIn(_ credentials: Credentials?) {}
}

/// No change pending: every merge is the server's data as it came.
private final class ServerDataOnly: PendingChanges {
    var failed: [MutationRecord] { [] }

    func mergedFacts(_ facts: MediaFacts?, for id: MediaID) -> MediaFacts { facts ?? MediaFacts() }

    func mergedHomeFeed(_ entries: [FeedEntry], store: MediaStore) -> [MergedEntry] {
        entries.map {
            MergedEntry(entry: $0, facts: store.facts(for: $0.media.id) ?? MediaFacts(), status: .server)
        }
    }

    func mergedThread(_ page: ThreadPage, facts: [MediaID: MediaFacts]) -> MergedThread {
        MergedThread(
            ancestors: page.ancestors, post: page.post, postStatus: .server, isDeleted: false, facts: facts,
            replies: page.replies.entries.map {
                MergedEntry(entry: $0, facts: facts[$0.media.id] ?? MediaFacts(), status: .server)
            },
            nextCursor: page.replies.nextCursor)
    }

    func mergedProfile(_ profile: Profile, facts: [MediaID: MediaFacts]) -> MergedProfile {
        MergedProfile(
            profile: profile, followStatus: .server,
            posts: profile.posts.entries.map {
                MergedEntry(entry: $0, facts: facts[$0.media.id] ?? MediaFacts(), status: .server)
            })
    }

    func mergedConversation(_ id: ConversationID, page: MessagePage?) -> MergedConversation {
        MergedConversation(
            id: id, conversation: page?.conversation,
            messages: (page?.messages ?? []).map { MergedMessage(message: $0, status: .server) },
            olderCursor: page?.olderCursor, newerCursor: page?.newerCursor)
    }

    func isFollowing(_ user: UserID, server: Bool) -> Bool { server }

    func notSent(_ id: MediaID, facts: MediaFacts) -> [MutationKind] { [] }

    func isDraftConsumed(_ id: String) -> Bool { false }
}

/// A home feed no screen of this test reads: every ask fails, saying so.
private final class UnusedFeed: HomeFeedStore {
    struct Unused: Error {}

    var count: Int { get throws { throw Unused() } }
    var isBehindTheServer: Bool { get throws { throw Unused() } }
    func firstScreen(width: Int, rows: Int) throws -> FirstScreen { throw Unused() }
    func entries(from index: Int, count: Int) throws -> [CachedEntry] { throw Unused() }
    func media(_ id: MediaID) throws -> Media? { throw Unused() }
    func heights(width: Int) throws -> HeightTable { throw Unused() }
    func adoptLayout(_ layout: Int64, source: Int64?) throws -> Bool { throw Unused() }
    func layout(measuredUnder source: Int64) throws -> Int64? { throw Unused() }
    func storeHeights(_ heights: [EntryHeights], width: Int) throws { throw Unused() }
    func prepare(viewer: String) throws { throw Unused() }
    func refresh(maximumPages: Int) async throws -> FeedMerge { throw Unused() }
    func loadMore(cursor: String) async throws -> FeedMerge { throw Unused() }
}
