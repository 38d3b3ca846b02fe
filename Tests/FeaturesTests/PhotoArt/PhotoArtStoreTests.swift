import Features
import Foundation
import Imaging
import MediaModel
import PhotoTesting
import Synchronization
import TerminalUI
import Testing
import Wire

@Suite struct PhotoArtStoreTests {
    /// A fetch that fails while `failing` is set, else serves `bytes`; counts its calls.
    final class FakeVariants: Sendable {
        let bytes: [UInt8]
        let state = Mutex((failing: true, calls: [Int]()))

        init(bytes: [UInt8]) { self.bytes = bytes }

        func fetch(_ id: String, _ width: Int) async throws -> Data {
            let failing = state.withLock { state in
                state.calls.append(width)
                return state.failing
            }
            if failing { throw TransportError.offline() }
            return Data(bytes)
        }
    }

    @Test func aFailedFetch_keepsThePlaceholder_andALaterSuccessReplacesIt() async throws {
        // Given a store whose variant fetch fails (offline)
        let raster = try PhotoBytes.stripes(width: 640, height: 320, stripes: 40)
        let variants = FakeVariants(bytes: try ImageEncoder.jpeg(raster, quality: 95))
        let tracker = WorkTracker()
        let clock = ManualClock()
        let store = PhotoArtStore(directory: nil, clock: clock, tracker: tracker, fetch: variants.fetch)
        let key = PhotoArtKey(photoID: "p3", pixelWidth: 40, pixelHeight: 20)

        // When the art is asked for and the load fails
        #expect(store.art(for: key) == nil)
        await tracker.idle()

        // Then there is still no art (the caller keeps drawing its placeholder), and asking again
        // within the backoff does not fetch again
        #expect(store.art(for: key) == nil)
        await tracker.idle()
        #expect(variants.state.withLock { $0.calls } == [40])
        #expect(store.counts.failures == 1)

        // When the network comes back and the failed load is tried again
        variants.state.withLock { $0.failing = false }
        store.retryFailed()
        await tracker.idle()

        // Then the art is the variant's pixels scaled to the grid in linear light
        let art = try #require(store.art(for: key))
        let expected = try PhotoArtStore.grid(
            fromEncoded: variants.bytes, key: key, background: PhotoArtStore.defaultBackground)
        #expect(art == expected)
        #expect(art.width == 40 && art.height == 20)
        // Stripes of 16 pixels land on whole columns: dark and light alternate across
        #expect(art.pixel(x: 0, y: 10).red < 60 && art.pixel(x: 1, y: 10).red > 200)
        #expect(variants.state.withLock { $0.calls } == [40, 40])
    }

    @Test func aFailedFetch_isTriedAgainAtADrawOnceTheBackoffHasPassed() async throws {
        // Given a load that failed
        let variants = FakeVariants(bytes: try PhotoBytes.jpeg(width: 320, height: 160))
        let tracker = WorkTracker()
        let clock = ManualClock()
        let store = PhotoArtStore(directory: nil, clock: clock, tracker: tracker, fetch: variants.fetch)
        let key = PhotoArtKey(photoID: "p4", pixelWidth: 32, pixelHeight: 16)
        _ = store.art(for: key)
        await tracker.idle()
        variants.state.withLock { $0.failing = false }

        // When a draw asks before and after the backoff
        #expect(store.art(for: key) == nil)
        await tracker.idle()
        let before = variants.state.withLock { $0.calls.count }
        _ = clock.advance(by: .seconds(6))
        _ = store.art(for: key)
        await tracker.idle()

        // Then only the later ask fetched, and the art is there
        #expect(before == 1)
        #expect(variants.state.withLock { $0.calls.count } == 2)
        #expect(store.art(for: key) != nil)
    }
}
