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

        /// Makes a photo attachment.
        public init(width: Int, height: Int, pixels: PixelImage, altText: String? = nil) {
            self.width = width
            self.height = height
            self.pixels = pixels
            self.altText = altText
        }
    }
}
