import Imaging
import MediaModel
import Synchronization

/// A photo of the seed data, stored like an uploaded one: a generated picture drawn at its
/// stored size, its original and JPEG variants (the same widths an upload gets), served by
/// `GET /v1/photos/{id}`.
///
/// Each variant is drawn from the picture's scene at the variant's size (sharper than resizing,
/// and cheap). The post carries the scene's small rendition, which shows the same picture. A
/// process seeding several databases from the same seed encodes each picture once.
struct SeedPhoto: Sendable {
    /// The longer side of a seeded photo.
    static let longerSide = 320

    /// The stored size.
    let width: Int
    let height: Int
    /// The original file: a JPEG at the stored size.
    let original: [UInt8]
    /// Widest first, as ``PhotoIntake`` makes them.
    let variants: [PhotoIntake.Variant]

    /// The photo of `scene` with the scene's aspect ratio and ``longerSide``, encoded once per
    /// process.
    static func of(_ scene: PixelImage.GeneratedScene) throws(ImageError) -> SeedPhoto {
        if let made = made.withLock({ $0[scene] }) { return made }
        let photo = try SeedPhoto(scene)
        made.withLock { $0[scene] = photo }
        return photo
    }

    private static let made = Mutex<[PixelImage.GeneratedScene: SeedPhoto]>([:])

    private init(_ scene: PixelImage.GeneratedScene) throws(ImageError) {
        let longer = max(scene.width, scene.height)
        let width = max(1, scene.width * Self.longerSide / longer)
        let height = max(1, scene.height * Self.longerSide / longer)
        let widths =
            PhotoIntake.variantWidths.filter { $0 < width } + [
                min(width, PhotoIntake.variantWidths.last ?? width)
            ]
        var variants: [PhotoIntake.Variant] = []
        for variantWidth in widths.reversed() {
            let variantHeight = max(1, Int((Double(height) * Double(variantWidth) / Double(width)).rounded()))
            let raster = try Raster(
                width: variantWidth, height: variantHeight,
                rgb: scene.render(width: variantWidth, height: variantHeight))
            variants.append(
                PhotoIntake.Variant(
                    width: variantWidth, height: variantHeight,
                    file: try ImageEncoder.jpeg(raster, quality: PhotoIntake.variantQuality)))
        }
        self.width = width
        self.height = height
        self.variants = variants
        original = variants.first?.file ?? []
    }
}
