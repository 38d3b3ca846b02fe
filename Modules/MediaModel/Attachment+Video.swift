extension Attachment {
    /// A video: its dimensions, its length and a poster frame to draw.
    public struct Video: Hashable, Sendable {
        /// The video's width, at least 1.
        public var width: Int
        /// The video's height, at least 1.
        public var height: Int
        /// How long it plays; travels in whole milliseconds.
        public var duration: Duration
        /// A small still shown in place of the video.
        public var poster: PixelImage

        /// Makes a video attachment.
        public init(width: Int, height: Int, duration: Duration, poster: PixelImage) {
            self.width = width
            self.height = height
            self.duration = duration
            self.poster = poster
        }
    }
}
