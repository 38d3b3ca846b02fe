extension Attachment {
    /// A photo: its real dimensions (for layout and aspect ratio) and a small rendition to draw.
    public struct Photo: Hashable, Sendable {
        /// The photo's width in its original resolution, at least 1.
        public var width: Int
        /// The photo's height in its original resolution, at least 1.
        public var height: Int
        /// A small rendition, drawn as half-block art.
        public var pixels: PixelImage
        /// A description for people who cannot see the photo.
        public var altText: String?
        /// The id of the stored photo on the server (`"p12"`), whose resized variants
        /// `GET /v1/photos/{id}?width=W` serves; nil for a photo the server does not store (one
        /// still on its way up).
        public var id: String?
        /// The device-local file holding the photo's encoded bytes while it waits to be uploaded:
        /// the app's durable copy in its data directory. Only a journaled change carries it; the
        /// request replaces it with the bytes, and the server's answer never has it.
        public var file: String?

        /// Makes a photo attachment.
        public init(
            width: Int, height: Int, pixels: PixelImage, altText: String? = nil, id: String? = nil,
            file: String? = nil
        ) {
            self.width = width
            self.height = height
            self.pixels = pixels
            self.altText = altText
            self.id = id
            self.file = file
        }
    }
}
