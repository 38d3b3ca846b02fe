import MediaModel

/// The photos a person can pick in the composer: small generated images, the same on every run.
package enum SamplePhotos {
    /// The sample photos, with names.
    package static let all: [(name: String, photo: Attachment.Photo)] = [
        ("sunrise", 101), ("harbor", 202), ("forest", 303), ("city", 404),
    ].map { name, seed in
        let pixels = PixelImage.generated(seed: UInt64(seed), width: 24, height: 24)
        return (name, Attachment.Photo(width: 1080, height: 1080, pixels: pixels, altText: name))
    }
}
