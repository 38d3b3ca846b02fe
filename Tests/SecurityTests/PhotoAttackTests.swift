@_spi(Testing) import Backend
import Dispatch
import Foundation
import HTTPServer
import MediaModel
import PhotoTesting
import ServerAPI
import Synchronization
import Testing
import Wire

/// Issue 34's attacks with photos: files cheap to send and dear to decode (a 50-megapixel PNG
/// of a few kilobytes, a JPEG of hundreds of scans), carousels of a hundred of them, reads
/// while photos are stored, and the photos of deleted posts read by counting their ids.
@Suite struct PhotoAttackTests {
    /// A post body carrying `photos` as base64 `data`; several make one carousel.
    static func body(_ photos: [[UInt8]], text: String = "") -> String {
        let items: [JSONValue] = photos.map { bytes in
            ["type": "photo", "data": .string(Data(bytes).base64EncodedString())]
        }
        let attachments: [JSONValue] =
            items.count > 1 ? [["type": "carousel", "items": .array(items)]] : items
        let json = JSONValue.object(["text": .string(text), "attachments": .array(attachments)]).serialized()
        return String(decoding: json, as: UTF8.self)
    }

    /// A seeded backend over a real HTTP server on loopback that lets a post's body through as
    /// `backend-server` does (up to ``BackendServer/maximumRequestBodySize``). Call `stop()`.
    static func postTarget() throws -> AttackTarget {
        try AttackTarget(.http, bodyBytes: BackendServer.maximumRequestBodySize)
    }

    /// Counts the photos the server starts to decode.
    final class DecodeCounter: Sendable {
        private let count = Mutex(0)
        var value: Int { count.withLock { $0 } }
        func attach(to backend: BackendServer) {
            backend.onPhotoDecode { [self] in count.withLock { $0 += 1 } }
        }
    }

    @Test func aCarouselOfAHundredPixelBombs_isRefusedBeforeAnyPhotoIsDecoded() async throws {
        // Given a server, and a carousel of 100 PNGs of 16384x3051 (palette + tRNS, a few KB each)
        let target = try Self.postTarget()
        let decodes = DecodeCounter()
        decodes.attach(to: target.backend)
        let token = target.backend.testToken(forHandle: BackendSeed.firstHandle)
        let bomb = HostilePhotos.pixelBombPNG()

        // When it is posted
        let response = try await target.send(
            .post, "/v1/posts", json: Self.body(Array(repeating: bomb, count: 100)), token: token,
            key: "bombs")

        // Then it is refused by the carousel's limit, and not one photo was decoded
        #expect(response.status == 400, "\(response.text)")
        #expect(response.errorCode == "invalid_body")
        #expect(
            ErrorBody(decoding: response.body)?.message
                == "attachments[0].items: 100 items is over the limit of 10 in one carousel")
        #expect(decodes.value == 0)
        await target.stop()
    }

    @Test func aPixelBombPNG_isRefusedFromItsHeader_withTheLimitNamed() async throws {
        let target = try Self.postTarget()
        let decodes = DecodeCounter()
        decodes.attach(to: target.backend)
        let token = target.backend.testToken(forHandle: BackendSeed.firstHandle)

        let response = try await target.send(
            .post, "/v1/posts", json: Self.body([HostilePhotos.pixelBombPNG()]), token: token, key: "bomb")

        #expect(response.status == 413, "\(response.text)")
        #expect(response.errorCode == "photo_too_large")
        #expect(
            ErrorBody(decoding: response.body)?.message
                == "attachments[0].data: decoding this 16384x3051 PNG would hold 49.9 megapixels, over the "
                + "limit of 40 megapixels for one photo; send a smaller image")
        #expect(decodes.value == 0)
        await target.stop()
    }

    @Test func aCarouselOverThePostsPixelBudget_isRefusedBeforeAnyPhotoIsDecoded() async throws {
        // Given seven PNGs of 5000x3000 (15 megapixels each, each within one photo's limit)
        let target = try Self.postTarget()
        let decodes = DecodeCounter()
        decodes.attach(to: target.backend)
        let token = target.backend.testToken(forHandle: BackendSeed.firstHandle)
        let large = HostilePhotos.pixelBombPNG(width: 5000, height: 3000)

        let response = try await target.send(
            .post, "/v1/posts", json: Self.body(Array(repeating: large, count: 7)), token: token,
            key: "budget")

        // Then the post is refused for its 105 megapixels in all, before any is decoded
        #expect(response.status == 413, "\(response.text)")
        #expect(response.errorCode == "photo_too_large")
        #expect(
            ErrorBody(decoding: response.body)?.message
                == "attachments: decoding this post's photos would hold 105 megapixels in all, over the "
                + "limit of 100 megapixels for one post; send fewer or smaller photos")
        #expect(decodes.value == 0)
        await target.stop()
    }

    @Test func aScanBombJPEG_isRefusedWithTheScanLimitNamed() async throws {
        let target = try Self.postTarget()
        let token = target.backend.testToken(forHandle: BackendSeed.firstHandle)
        let bomb = HostilePhotos.progressiveJPEG(scans: HostilePhotos.mostScans)

        let response = try await target.send(
            .post, "/v1/posts", json: Self.body([bomb]), token: token, key: "scans")

        #expect(response.status == 413, "\(response.text)")
        #expect(response.errorCode == "photo_too_costly")
        #expect(
            ErrorBody(decoding: response.body)?.message
                == "attachments[0].data: the progressive JPEG has more than 64 scans, the limit; save it "
                + "as a baseline (not progressive) JPEG and try again")
        await target.stop()
    }

    /// Holds every photo decode at its start until released, and records what happened in order.
    final class HeldDecodes: Sendable {
        private let state = Mutex((events: [String](), released: false))
        private let gate = DispatchSemaphore(value: 0)
        private let starts: AsyncStream<Void>
        private let startContinuation: AsyncStream<Void>.Continuation

        init() { (starts, startContinuation) = AsyncStream.makeStream() }

        var events: [String] { state.withLock { $0.events } }

        func record(_ event: String) { state.withLock { $0.events.append(event) } }

        /// The hook: runs on the server's decoding thread (never the test's), blocking it.
        func hold() {
            let released = state.withLock { state -> Bool in
                state.events.append("decode held")
                return state.released
            }
            startContinuation.yield()
            if !released { gate.wait() }
        }

        /// Waits until `count` decodes have been held.
        func held(_ count: Int) async {
            var seen = 0
            for await _ in starts {
                seen += 1
                if seen == count { return }
            }
        }

        /// Lets every held decode (and every later one) go on; once only.
        func release(_ why: String) {
            let first = state.withLock { state -> Bool in
                guard !state.released else { return false }
                state.released = true
                state.events.append(why)
                return true
            }
            guard first else { return }
            for _ in 0..<64 { gate.signal() }
        }
    }

    @Test func aFeedRead_isAnsweredWhilePhotosAreBeingStored() async throws {
        // Given a server whose photo decodes are held at their start
        let target = try Self.postTarget()
        let held = HeldDecodes()
        target.backend.onPhotoDecode { held.hold() }
        let token = target.backend.testToken(forHandle: BackendSeed.firstHandle)
        let body = Self.body([try PhotoBytes.jpeg(width: 640, height: 480)])

        // When two posts with a photo are sent at once, as many as the server has handler
        // threads, and both are held while their photos decode
        // (a hang guard, not a measure: should the second never reach its decode, or the read
        // never be answered, the decodes are let go after a minute so that the test ends and
        // reports the order)
        let guardTask = Task {
            try await Task.sleep(for: .seconds(60))
            held.release("hang guard released the decodes")
        }
        async let first = target.send(.post, "/v1/posts", json: body, token: token, key: "held-1")
        async let second = target.send(.post, "/v1/posts", json: body, token: token, key: "held-2")
        await held.held(2)

        // Then a read of the feed is answered while the photos are still held
        let feed = try await target.send(.get, "/v1/feed", token: token)
        held.record("feed answered \(feed.status)")
        held.release("test released the decodes")
        guardTask.cancel()
        let statuses = [try await first.status, try await second.status]
        #expect(statuses == [201, 201])
        #expect(
            held.events.prefix(4) == [
                "decode held", "decode held", "feed answered 200", "test released the decodes",
            ],
            "\(held.events)")
        await target.stop()
    }

    @Test func aDeletedPostsPhotos_are404_andNewPhotoIdsCannotBeCounted() async throws {
        // Given two posts with a photo each
        let target = try Self.postTarget()
        let token = target.backend.testToken(forHandle: BackendSeed.firstHandle)
        let reader = target.backend.testToken(forHandle: "grace")
        let body = Self.body([try PhotoBytes.jpeg(width: 320, height: 200)])
        var posts: [(media: String, photo: String)] = []
        for key in ["first", "second"] {
            let response = try await target.send(.post, "/v1/posts", json: body, token: token, key: key)
            try #require(response.status == 201, "\(response.text)")
            let media = try #require(response.json["mutation", "media", "id"].stringValue)
            let attachments = response.json["mutation", "media", "attachments"]
            guard case .array(let items) = attachments, let photo = items.first?["id"].stringValue else {
                Issue.record("no photo id in \(response.text)")
                return
            }
            posts.append((media, photo))
        }

        // Then the ids are 128 random bits, not numbers in turn
        for (_, photo) in posts {
            #expect(photo.count == 33, "\(photo)")
            #expect(photo.hasPrefix("p") && photo.dropFirst().allSatisfy { $0.isHexDigit && !$0.isUppercase })
        }
        #expect(posts[0].photo != posts[1].photo)

        // When the first post is deleted, its photo is gone for everyone; the other's stays
        #expect(try await target.send(.get, "/v1/photos/\(posts[0].photo)", token: reader).status == 200)
        let deleted = try await target.send(
            .delete, "/v1/posts/\(posts[0].media)", token: token, key: "delete")
        #expect(deleted.status == 200, "\(deleted.text)")
        for viewer in [token, reader] {
            let gone = try await target.send(.get, "/v1/photos/\(posts[0].photo)", token: viewer)
            #expect(gone.status == 404)
            #expect(ErrorBody(decoding: gone.body)?.message == "no photo with id '\(posts[0].photo)'")
        }
        #expect(try await target.send(.get, "/v1/photos/\(posts[1].photo)", token: reader).status == 200)
        await target.stop()
    }
}
