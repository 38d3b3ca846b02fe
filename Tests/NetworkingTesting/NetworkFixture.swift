@_spi(Testing) import Backend
import FeedCaching
import Foundation
import MediaModel
import Networking
import ServerAPI
import Storage
import Synchronization
import Wire

/// A seeded backend behind an embedded transport, and a client signed in as ada: the fixture
/// the API client, feed cache and payload tests share.
package struct NetworkFixture {
    package let clock: ManualClock
    package let server: BackendServer
    package let transport: EmbeddedTransport
    package let client: APIClient

    package init(profile: FaultProfile = .perfect, seed: UInt64 = 1) throws {
        clock = ManualClock()
        server = try BackendServer.seededCopy(clock: clock)
        transport = EmbeddedTransport(server: server, profile: profile, seed: seed)
        client = APIClient(
            transport: transport, bearerToken: server.testToken(forHandle: BackendSeed.firstHandle),
            clock: clock)
    }

    /// A new, empty app data directory.
    package static func appDirectory() throws -> String { try BackendServer.makeTemporaryDirectory("app") }

    /// A feed cache over a fresh app database in `directory`, fetching through `client`.
    package func cache(in directory: String, store: MediaStore = MediaStore(), pageSize: Int = 20) throws
        -> FeedCache
    {
        let client = client
        return FeedCache(
            database: try AppDatabase.open(directory: directory), mediaStore: store, clock: clock,
            fetch: { cursor throws(TransportError) in
                try await client.homeFeed(cursor: cursor, limit: pageSize)
            },
            fetchIfChanged: { etag throws(TransportError) in
                try await client.homeFeed(limit: pageSize, ifNoneMatch: etag)
            })
    }
}

/// Sample values of every shape the wire format knows, and some it does not.
package enum Samples {
    package static let image = PixelImage.generated(seed: 3, width: 5, height: 4)
    package static let ada = User(id: "u1", handle: "ada", displayName: "Ada Lovelace", bio: "Engines")
    package static let grace = User(
        id: "u2", handle: "grace", displayName: "Grace",
        avatar: .image(PixelImage.generated(seed: 8, width: 2, height: 2)))
    package static let stranger = User(
        id: "u3", handle: "x", displayName: "X",
        avatar: .unknown(UnknownPayload(typeName: "hologram", raw: ["type": "hologram", "hue": 3])))

    package static func media(
        _ id: String, by author: User = ada, text: String = "hello",
        _ attachments: [MediaModel.Attachment] = []
    )
        -> Media
    {
        Media(
            id: MediaID(id), author: author, createdAt: Date(timeIntervalSince1970: 1_714_000_000.123),
            text: text,
            attachments: attachments)
    }

    /// Entries covering every attachment, context and avatar shape, unknown ones included.
    package static var everyShape: [FeedEntry] {
        let photo = MediaModel.Attachment.Photo(width: 1080, height: 864, pixels: image, altText: "a hill")
        let video = MediaModel.Attachment.Video(
            width: 1920, height: 1080, duration: .milliseconds(61_500), poster: image)
        let poll = UnknownPayload(
            typeName: "poll", raw: ["type": "poll", "options": ["a", "b"], "closesAt": 5])
        // A media whose kind itself is unknown comes only from the wire.
        let unknownKind = try? Media(
            json: [
                "id": "m9", "kind": "livestream", "createdAt": 1_714_000_000_000, "text": "live",
                "author": ["id": "u1", "handle": "ada", "displayName": "Ada"], "viewers": 12,
            ], at: .root)
        var entries = [
            FeedEntry(id: "p1", media: media("m1", text: "just text")),
            FeedEntry(id: "p2", media: media("m2", by: grace, [.photo(photo)])),
            FeedEntry(id: "p3", media: media("m3", [.video(video)]), seenReplyCount: 4),
            FeedEntry(
                id: "p4",
                media: media("m4", [.carousel([.photo(photo), .video(video), .unknown(poll)])]),
                context: .reply(parent: media("m1", text: "just text"))),
            FeedEntry(
                id: "r5", media: media("m5", by: stranger, [.unknown(poll)]), context: .repost(by: grace)),
            FeedEntry(
                id: "p6", media: media("m6", text: "ünïcödé ✓ \"quoted\"\n"),
                context: .unknown(UnknownPayload(typeName: "pinned", raw: ["type": "pinned", "by": "admin"]))),
        ]
        entries.append(
            FeedEntry(
                id: "p7",
                media: Media(
                    id: "m7", author: ada, createdAt: Date(timeIntervalSince1970: 1_714_000_001),
                    text: "mine",
                    clientToken: "tok-7")))
        if let unknownKind { entries.append(FeedEntry(id: "p9", media: unknownKind)) }
        return entries
    }
}

/// A transport that answers from a closure and records whether it ran on the main thread.
package final class ScriptedTransport: Transport {
    package let answer: @Sendable (Request) -> Response
    private let mainThreadCalls = Recorder<Bool>()

    package init(_ answer: @escaping @Sendable (Request) -> Response) { self.answer = answer }

    package func send(_ request: Request) async throws(TransportError) -> Response {
        mainThreadCalls.append(Thread.isMainThread)
        return answer(request)
    }

    package var ranOnMainThread: [Bool] { mainThreadCalls.all }
}

/// Values appended from several tasks, in arrival order.
package final class Recorder<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])

    package func append(_ value: Value) { values.withLock { $0.append(value) } }
    package var all: [Value] { values.withLock { $0 } }
}
