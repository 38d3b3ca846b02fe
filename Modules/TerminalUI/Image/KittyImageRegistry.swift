import Synchronization

/// The images a session has given the terminal through the kitty graphics protocol: each one
/// transmitted once, before the first frame that shows it, and deleted when the app leaves.
///
/// Drawing asks for an image's placeholder lines (``lines(for:maxColumns:maxLines:)``): an
/// image (and cell size) seen for the first time gets the next image id and its transmission
/// and virtual placement are queued. The frame loop writes ``takePendingOutput()`` before each
/// frame's cells, so the terminal has the pixels before any placeholder names them, and hands
/// ``farewellOutput`` to ``Terminal/setFarewell(_:)`` so every way out deletes them.
///
/// Images are told apart by their size and a 64-bit hash of their bytes (the pixels are not
/// kept). Ids are consecutive from a random start, so two apps in one kitty window (or one app
/// run twice) do not overwrite each other's images; they stay below 2^24, the most a
/// placeholder's foreground color carries.
///
/// Thread-safe: drawing may happen off the UI actor.
///
/// ```swift
/// let images = KittyImageRegistry()
/// let lines = images.lines(for: photo, maxColumns: 40, maxLines: 12)   // placeholder cells
/// terminal.write(images.takePendingOutput() + screen.commit().output)
/// terminal.setFarewell(images.farewellOutput)
/// ```
public final class KittyImageRegistry: Sendable, Hashable, CustomStringConvertible {
    private struct Key: Hashable {
        var width: Int
        var height: Int
        var digest: Int
        var columns: Int
        var rows: Int
    }

    private struct State {
        var ids: [Key: UInt32] = [:]
        var nextID: UInt32
        var pending = ""
        var issued: [UInt32] = []
    }

    private let state: Mutex<State>

    /// Makes an empty registry whose first image id is `firstID` (1 ... 2^24 - 1; by default
    /// a random one in the lower part of that range).
    public init(firstID: UInt32 = UInt32.random(in: 0x01_0000...0xE0_0000)) {
        state = Mutex(State(nextID: min(max(firstID, 1), KittyGraphics.maximumImageID)))
    }

    /// The placeholder lines that show `image` in the cells half-block art would take for the
    /// same limits (``HalfBlockArt/layout(of:maxColumns:maxLines:)``), queueing its
    /// transmission and placement when this image at this size is new. O(pixels) to hash the
    /// image (and to encode it, the first time).
    public func lines(for image: RGBImage, maxColumns: Int, maxLines: Int) -> [StyledLine] {
        let layout = HalfBlockArt.layout(of: image, maxColumns: maxColumns, maxLines: maxLines)
        let columns = min(layout.columns, KittyGraphics.maximumSpan)
        let rows = min(layout.lines, KittyGraphics.maximumSpan)
        var hasher = Hasher()
        hasher.combine(image.rgb)
        let key = Key(
            width: image.width, height: image.height, digest: hasher.finalize(), columns: columns, rows: rows)
        let id = state.withLock { state -> UInt32 in
            if let id = state.ids[key] { return id }
            let id = state.nextID
            state.nextID = id >= KittyGraphics.maximumImageID ? 1 : id + 1
            state.ids[key] = id
            state.issued.append(id)
            // Queued under the lock, so no frame can show the id before its pixels are queued.
            state.pending +=
                KittyGraphics.transmit(image, id: id)
                + KittyGraphics.virtualPlacement(id: id, columns: columns, rows: rows)
            return id
        }
        return KittyGraphics.placeholderLines(id: id, columns: columns, rows: rows)
    }

    /// The transmissions and placements queued since the last call, to write before the next
    /// frame; empty when there are none.
    public func takePendingOutput() -> String {
        state.withLock { state in
            defer { state.pending = "" }
            return state.pending
        }
    }

    /// The commands that delete every image this registry has issued an id for.
    public var farewellOutput: String {
        state.withLock { $0.issued.map(KittyGraphics.delete(id:)).joined() }
    }

    /// How many images have ids.
    public var count: Int { state.withLock { $0.issued.count } }

    /// Registries are equal only to themselves.
    public static func == (lhs: KittyImageRegistry, rhs: KittyImageRegistry) -> Bool { lhs === rhs }

    /// Hashes the registry's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// `KittyImageRegistry(n images)`.
    public var description: String { "KittyImageRegistry(\(count) images)" }
}
