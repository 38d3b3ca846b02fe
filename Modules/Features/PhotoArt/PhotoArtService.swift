import Composition
import MediaModel
import ServerAPI
import Sockets
import Storage
import Synchronization
import Wire

/// The `photo.art` service: the store of stored photos' art (``PhotoArtStore``), its disk cache
/// in `<data-dir>/photo-art` and its variants fetched through `network.client`, drawn over the
/// theme's background where a PNG is transparent.
///
/// An app whose manifest enables it draws photos from their real pixels; without it, posts show
/// each photo's placeholder art and nothing is fetched.
///
/// Reads: `AppDataDirectoryKey`, `NetworkClockKey`, ``WorkTrackerKey``. Depends on:
/// `network.client`.
package final class PhotoArtService: Service {
    /// The service's id, `photo.art`.
    package static let id = "photo.art"

    private let state = Mutex<PhotoArtStore?>(nil)

    /// Makes the service.
    package init() {}

    /// The definition: after `network.client`.
    package static let definition = ServiceDefinition(.photoArt, dependencies: [NetworkClientService.id]) {
        _ in
        PhotoArtService()
    }

    /// Makes the store.
    package func start(_ context: ServiceContext) async throws {
        let network = try context.service(.networkClient)
        let background = context.registry[.theme].background
        let store = PhotoArtStore(
            directory: PhotoArtStore.directory(inDataDirectory: context.values[AppDataDirectoryKey.self]),
            background: PixelImage.Color(red: background.red, green: background.green, blue: background.blue),
            clock: context.values[NetworkClockKey.self],
            tracker: context.values[WorkTrackerKey.self] ?? WorkTracker()
        ) { photoID, width in
            try await network.client.photo(photoID, width: width)
        }
        state.withLock { $0 = store }
    }

    /// Drops the store.
    package func stop() async { state.withLock { $0 = nil } }

    /// The store, while the service runs.
    package var store: PhotoArtStore? { state.withLock { $0 } }
}

/// The tracker of the app's outstanding work (a headless `wait` waits for it), for services whose
/// work a screen waits on: `photo.art`'s fetches. Default: nil (the service keeps its own).
package enum WorkTrackerKey: LaunchValueKey {
    /// nil: no tracker given.
    package static let defaultValue: WorkTracker? = nil
}

extension ServiceKey where S == PhotoArtService {
    /// The photo art service, `photo.art`.
    package static var photoArt: Self { .init(PhotoArtService.id) }
}
